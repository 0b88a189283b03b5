/**
 * The allow-list: the members and methods a script may reach on each kind of value, and the
 * static members of Math, Integer, Long, Double, String and Boolean (Painless's whitelist,
 * reduced to what Shoal's values are). Anything else is Painless's `dynamic method [...] not
 * found` / `dynamic getter [...] not found` — never a JavaScript property lookup. The static
 * members are in statics.ts.
 */
import { javaDouble } from '@shoal/protocol';
import { functionalMethod, NO_METHOD } from './functional-methods.ts';
import { ScriptRuntimeError } from './script-error.ts';
import { DateValue, DocField, GeoPointValue, InstantValue, javaClassOf } from './values.ts';
import { magnitudeOf, vectorOf } from './vector-functions.ts';

const EARTH_MEAN_RADIUS = 6371008.7714;

function fail(type: 'illegal_argument_exception', reason: string): never {
  throw new ScriptRuntimeError(type, reason);
}

export function npe(what: string): never {
  throw new ScriptRuntimeError('null_pointer_exception', `Cannot invoke "${what}" because value is null`);
}

export function toRad(d: number): number {
  return (d * Math.PI) / 180;
}

/** GeoUtils.arcDistance: haversine on the mean earth radius, in meters. */
export function arcDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x1 = toRad(lat1);
  const x2 = toRad(lat2);
  const h1 = Math.sin((x2 - x1) / 2);
  const h2 = Math.sin(toRad(lon2 - lon1) / 2);
  const h = h1 * h1 + Math.cos(x1) * Math.cos(x2) * h2 * h2;
  return 2 * EARTH_MEAN_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

function firstValue(d: DocField): unknown {
  if (d.kind === 'dense_vector') {
    throw new ScriptRuntimeError(
      'unsupported_operation_exception',
      "accessing a vector field's value through 'get' or 'value' is not supported, use 'vectorValue' or 'magnitude' instead.",
    );
  }
  if (d.values.length === 0) {
    throw new ScriptRuntimeError(
      'illegal_state_exception',
      "A document doesn't have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!",
    );
  }
  return d.values[0];
}

function firstGeo(d: DocField): GeoPointValue {
  const v = firstValue(d);
  if (!(v instanceof GeoPointValue))
    return fail('illegal_argument_exception', `dynamic method [${d.javaClass}, getLat/0] not found`);
  return v;
}

function listIndex(list: readonly unknown[], i: unknown): number {
  if (typeof i !== 'number' || !Number.isInteger(i)) {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(i)} to java.lang.Integer`,
    );
  }
  if (i < 0 || i >= list.length) {
    throw new ScriptRuntimeError(
      'index_out_of_bounds_exception',
      `Index ${i} out of bounds for length ${list.length}`,
    );
  }
  return i;
}

function mapGet(m: unknown, key: unknown): unknown {
  if (m instanceof Map) return m.get(key) ?? null;
  const o = m as Record<string, unknown>;
  return typeof key === 'string' && Object.hasOwn(o, key) ? (o[key] ?? null) : null;
}

function mapHas(m: unknown, key: unknown): boolean {
  if (m instanceof Map) return m.has(key);
  return typeof key === 'string' && Object.hasOwn(m as object, key);
}

function isMap(v: unknown): boolean {
  return (
    v instanceof Map || (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
  );
}

function utc(millis: number): Date {
  return new Date(millis);
}

/** `receiver[index]`: lists, doc fields and maps. */
export function indexValue(receiver: unknown, index: unknown): unknown {
  if (receiver === null || receiver === undefined) npe('Object.get(Object)');
  if (Array.isArray(receiver)) return receiver[listIndex(receiver, index)];
  if (receiver instanceof DocField) return receiver.values[listIndex(receiver.values, index)];
  if (isMap(receiver)) return mapGet(receiver, index);
  return fail(
    'illegal_argument_exception',
    `Attempting to address a non-array-like type [${javaClassOf(receiver)}] as an array.`,
  );
}

export function setIndex(receiver: unknown, index: unknown, value: unknown): void {
  if (Array.isArray(receiver)) {
    receiver[listIndex(receiver, index)] = value;
    return;
  }
  if (receiver instanceof Map) {
    receiver.set(index, value);
    return;
  }
  if (isMap(receiver) && typeof index === 'string') {
    putOwn(receiver as Record<string, unknown>, index, value);
    return;
  }
  fail(
    'illegal_argument_exception',
    `Attempting to address a non-array-like type [${javaClassOf(receiver)}] as an array.`,
  );
}

/** `receiver.name`: fields, and Painless's getter shortcuts (`x.empty` is `x.isEmpty()`). */
export function getMember(receiver: unknown, name: string): unknown {
  if (receiver === null || receiver === undefined) npe(`Object.${name}`);
  if (receiver instanceof DocField) {
    switch (name) {
      case 'value':
        return firstValue(receiver);
      case 'values':
        return [...receiver.values];
      case 'empty':
        return receiver.values.length === 0;
      case 'length':
        return receiver.values.length;
      case 'lat':
        return firstGeo(receiver).lat;
      case 'lon':
        return firstGeo(receiver).lon;
      case 'date':
        return firstValue(receiver);
      case 'vectorValue':
        return vectorOf(receiver);
      case 'magnitude':
        return magnitudeOf(receiver);
    }
  } else if (receiver instanceof GeoPointValue) {
    if (name === 'lat') return receiver.lat;
    if (name === 'lon') return receiver.lon;
  } else if (Array.isArray(receiver)) {
    if (name === 'length') return receiver.length;
    if (name === 'empty') return receiver.length === 0;
  } else if (isMap(receiver)) {
    return mapGet(receiver, name);
  } else if (typeof receiver === 'string' && name === 'empty') {
    return receiver.length === 0;
  }
  // getX() / isX() shortcuts.
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  for (const m of [`get${cap}`, `is${cap}`]) {
    const r = tryCall(receiver, m, []);
    if (r !== NOT_FOUND) return r;
  }
  return fail('illegal_argument_exception', `dynamic getter [${javaClassOf(receiver)}, ${name}] not found`);
}

export function setMember(receiver: unknown, name: string, value: unknown): void {
  if (receiver instanceof Map) receiver.set(name, value);
  else if (isMap(receiver)) putOwn(receiver as Record<string, unknown>, name, value);
  else fail('illegal_argument_exception', `dynamic setter [${javaClassOf(receiver)}, ${name}] not found`);
}

/**
 * Writes a key of a map that is a plain object as an own property whatever its name: a key
 * such as `__proto__` (legal in a document) must never reach the object's prototype.
 */
function putOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  } else o[key] = value;
}

const NOT_FOUND = Symbol('not found');

export function callMethod(receiver: unknown, name: string, args: unknown[]): unknown {
  if (receiver === null || receiver === undefined) npe(`Object.${name}()`);
  let r = tryCall(receiver, name, args);
  if (r === NOT_FOUND) r = functionalMethod(receiver, name, args, isMap(receiver));
  if (r === NOT_FOUND || r === NO_METHOD) {
    return fail(
      'illegal_argument_exception',
      `dynamic method [${javaClassOf(receiver)}, ${name}/${args.length}] not found`,
    );
  }
  return r;
}

export function str(v: unknown, what: string): string {
  if (typeof v !== 'string')
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(v)} to java.lang.String (${what})`,
    );
  return v;
}

export function int(v: unknown): number {
  if (typeof v !== 'number')
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(v)} to java.lang.Integer`,
    );
  return Math.trunc(v);
}

export function javaString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : javaDouble(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(javaString).join(', ')}]`;
  if (v instanceof GeoPointValue) return `${v.lat}, ${v.lon}`;
  if (v instanceof DateValue) return utc(v.millis).toISOString().replace('.000Z', 'Z');
  if (v instanceof InstantValue) return utc(v.millis).toISOString();
  if (v instanceof DocField) return javaString([...v.values]);
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${javaString(k)}=${javaString(x)}`).join(', ')}}`;
  return `{${Object.entries(v as object)
    .map(([k, x]) => `${k}=${javaString(x)}`)
    .join(', ')}}`;
}

function tryCall(r: unknown, name: string, a: unknown[]): unknown {
  const n = a.length;
  if (typeof r === 'string') {
    switch (`${name}/${n}`) {
      case 'length/0':
        return r.length;
      case 'isEmpty/0':
        return r.length === 0;
      case 'substring/1':
      case 'substring/2': {
        const b = int(a[0]);
        const e = n === 2 ? int(a[1]) : r.length;
        if (b < 0 || e > r.length || b > e) {
          throw new ScriptRuntimeError(
            'index_out_of_bounds_exception',
            `begin ${b}, end ${e}, length ${r.length}`,
          );
        }
        return r.substring(b, e);
      }
      case 'indexOf/1':
        return r.indexOf(str(a[0], 'indexOf'));
      case 'indexOf/2':
        return r.indexOf(str(a[0], 'indexOf'), int(a[1]));
      case 'lastIndexOf/1':
        return r.lastIndexOf(str(a[0], 'lastIndexOf'));
      case 'contains/1':
        return r.includes(str(a[0], 'contains'));
      case 'startsWith/1':
        return r.startsWith(str(a[0], 'startsWith'));
      case 'endsWith/1':
        return r.endsWith(str(a[0], 'endsWith'));
      case 'toLowerCase/0':
        return r.toLowerCase();
      case 'toUpperCase/0':
        return r.toUpperCase();
      case 'trim/0':
        return r.trim();
      case 'charAt/1': {
        const i = int(a[0]);
        if (i < 0 || i >= r.length)
          throw new ScriptRuntimeError(
            'index_out_of_bounds_exception',
            `Index ${i} out of bounds for length ${r.length}`,
          );
        return r.charAt(i);
      }
      case 'equals/1':
        return r === a[0];
      case 'equalsIgnoreCase/1':
        return typeof a[0] === 'string' && r.toLowerCase() === a[0].toLowerCase();
      case 'compareTo/1': {
        const o = str(a[0], 'compareTo');
        return r < o ? -1 : r > o ? 1 : 0;
      }
      case 'concat/1':
        return r + str(a[0], 'concat');
      case 'replace/2':
        return r.split(javaString(a[0])).join(javaString(a[1]));
      case 'splitOnToken/1':
        return r.split(str(a[0], 'splitOnToken'));
      case 'toString/0':
        return r;
      case 'hashCode/0': {
        let h = 0;
        for (let i = 0; i < r.length; i++) h = (Math.imul(h, 31) + r.charCodeAt(i)) | 0;
        return h;
      }
    }
    return NOT_FOUND;
  }
  if (typeof r === 'number') {
    switch (`${name}/${n}`) {
      case 'intValue/0':
        return Math.trunc(r) | 0;
      case 'longValue/0':
        return Math.trunc(r);
      case 'doubleValue/0':
      case 'floatValue/0':
        return r;
      case 'toString/0':
        return javaString(r);
      case 'equals/1':
        return r === a[0];
      case 'compareTo/1':
        return r < int(a[0]) ? -1 : r > (a[0] as number) ? 1 : 0;
      case 'isNaN/0':
        return Number.isNaN(r);
      case 'isInfinite/0':
        return !Number.isFinite(r) && !Number.isNaN(r);
    }
    return NOT_FOUND;
  }
  if (typeof r === 'boolean') {
    if (name === 'booleanValue' && n === 0) return r;
    if (name === 'equals' && n === 1) return r === a[0];
    if (name === 'toString' && n === 0) return String(r);
    return NOT_FOUND;
  }
  if (r instanceof DocField) {
    switch (`${name}/${n}`) {
      case 'size/0':
        return r.values.length;
      case 'isEmpty/0':
        return r.values.length === 0;
      case 'get/1':
        return r.values[listIndex(r.values, a[0])];
      case 'getValue/0':
        return firstValue(r);
      case 'getValues/0':
        return [...r.values];
      case 'contains/1':
        return r.values.includes(a[0]);
      case 'getLat/0':
        return firstGeo(r).lat;
      case 'getLon/0':
        return firstGeo(r).lon;
      case 'getLats/0':
        return r.values.map((p) => (p as GeoPointValue).lat);
      case 'getLons/0':
        return r.values.map((p) => (p as GeoPointValue).lon);
      case 'arcDistance/2': {
        const p = firstGeo(r);
        return arcDistance(p.lat, p.lon, num(a[0]), num(a[1]));
      }
      case 'getDate/0':
        return firstValue(r);
      case 'getVectorValue/0':
        return vectorOf(r);
      case 'getMagnitude/0':
        return magnitudeOf(r);
    }
    return NOT_FOUND;
  }
  if (Array.isArray(r)) {
    switch (`${name}/${n}`) {
      case 'size/0':
        return r.length;
      case 'isEmpty/0':
        return r.length === 0;
      case 'get/1':
        return r[listIndex(r, a[0])];
      case 'contains/1':
        return r.includes(a[0]);
      case 'indexOf/1':
        return r.indexOf(a[0]);
      case 'add/1':
        r.push(a[0]);
        return true;
      case 'set/2': {
        const i = listIndex(r, a[0]);
        const old = r[i];
        r[i] = a[1];
        return old;
      }
      case 'clear/0':
        r.length = 0;
        return null;
      case 'add/2': {
        const i = a[0];
        if (typeof i !== 'number' || !Number.isInteger(i)) int(i);
        if ((i as number) < 0 || (i as number) > r.length) listIndex(r, i);
        r.splice(i as number, 0, a[1]);
        return null;
      }
      case 'addAll/1':
        if (!Array.isArray(a[0])) return NOT_FOUND;
        r.push(...a[0]);
        return a[0].length > 0;
      case 'remove/1': {
        // List.remove(int): Painless resolves a one-argument remove on a list by index.
        const i = listIndex(r, a[0]);
        return r.splice(i, 1)[0];
      }
      case 'lastIndexOf/1':
        return r.lastIndexOf(a[0]);
      case 'toString/0':
        return javaString(r);
    }
    return NOT_FOUND;
  }
  if (r instanceof GeoPointValue) {
    if (name === 'getLat' && n === 0) return r.lat;
    if (name === 'getLon' && n === 0) return r.lon;
    return NOT_FOUND;
  }
  if (r instanceof DateValue) {
    const d = utc(r.millis);
    switch (`${name}/${n}`) {
      case 'getMillis/0':
        return r.millis;
      case 'toInstant/0':
        return new InstantValue(r.millis);
      case 'toEpochSecond/0':
        return Math.floor(r.millis / 1000);
      case 'getYear/0':
        return d.getUTCFullYear();
      case 'getMonthValue/0':
        return d.getUTCMonth() + 1;
      case 'getDayOfMonth/0':
        return d.getUTCDate();
      case 'getDayOfWeek/0':
        return d.getUTCDay() === 0 ? 7 : d.getUTCDay();
      case 'getDayOfYear/0':
        return Math.floor((r.millis - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
      case 'getHour/0':
        return d.getUTCHours();
      case 'getMinute/0':
        return d.getUTCMinutes();
      case 'getSecond/0':
        return d.getUTCSeconds();
      case 'toString/0':
        return javaString(r);
    }
    return NOT_FOUND;
  }
  if (r instanceof InstantValue) {
    if (name === 'toEpochMilli' && n === 0) return r.millis;
    if (name === 'getEpochSecond' && n === 0) return Math.floor(r.millis / 1000);
    return NOT_FOUND;
  }
  if (isMap(r)) {
    switch (`${name}/${n}`) {
      case 'get/1':
        return mapGet(r, a[0]);
      case 'containsKey/1':
        return mapHas(r, a[0]);
      case 'getOrDefault/2':
        return mapHas(r, a[0]) ? mapGet(r, a[0]) : a[1];
      case 'size/0':
        return r instanceof Map ? r.size : Object.keys(r as object).length;
      case 'isEmpty/0':
        return (r instanceof Map ? r.size : Object.keys(r as object).length) === 0;
      case 'keySet/0':
        return r instanceof Map ? [...r.keys()] : Object.keys(r as object);
      case 'values/0':
        return r instanceof Map ? [...r.values()] : Object.values(r as object);
      case 'put/2': {
        const old = mapGet(r, a[0]);
        setIndex(r, a[0], a[1]);
        return old;
      }
      case 'putIfAbsent/2': {
        if (mapHas(r, a[0]) && mapGet(r, a[0]) !== null) return mapGet(r, a[0]);
        setIndex(r, a[0], a[1]);
        return null;
      }
      case 'putAll/1': {
        const from = a[0];
        if (!isMap(from)) return NOT_FOUND;
        const entries = from instanceof Map ? [...from] : Object.entries(from as object);
        for (const [k, v] of entries) setIndex(r, k, v);
        return null;
      }
      case 'remove/1': {
        const old = mapGet(r, a[0]);
        if (r instanceof Map) r.delete(a[0]);
        else if (typeof a[0] === 'string') delete (r as Record<string, unknown>)[a[0]];
        return old;
      }
      case 'containsValue/1':
        return (r instanceof Map ? [...r.values()] : Object.values(r as object)).some((v) => v === a[0]);
      case 'toString/0':
        return javaString(r);
    }
    return NOT_FOUND;
  }
  return NOT_FOUND;
}

export function num(v: unknown): number {
  if (typeof v !== 'number')
    throw new ScriptRuntimeError('class_cast_exception', `Cannot cast ${javaClassOf(v)} to java.lang.Double`);
  return v;
}
