/**
 * The methods that take or give functions: `list.removeIf`, `sort`, `forEach`, `replaceAll`,
 * `stream()`; `map.forEach`, `computeIfAbsent`, `computeIfPresent`, `compute`, `merge`,
 * `replaceAll`; a comparator's `reversed()`/`thenComparing()` and the functional interfaces'
 * single methods (`compare`, `apply`, `test`, `accept`, …); and the methods of streams and
 * optionals (streams.ts). Returns NO_METHOD when none fits.
 */
import {
  callFunction,
  comparator,
  comparatorFunction,
  comparing,
  predicate,
  ScriptFunction,
} from './functions.ts';
import { NO_METHOD, OptionalValue, optionalMethod, StreamValue, streamMethod } from './streams.ts';

export { NO_METHOD } from './streams.ts';

function listMethod(r: unknown[], name: string, a: unknown[]): unknown {
  switch (`${name}/${a.length}`) {
    case 'removeIf/1': {
      const test = predicate(a[0]);
      const keep = r.filter((v) => !test(v));
      const removed = keep.length !== r.length;
      r.length = 0;
      r.push(...keep);
      return removed;
    }
    case 'sort/1':
      r.sort(comparator(a[0]));
      return null;
    case 'forEach/1':
      for (const v of r.slice()) callFunction(a[0], [v]);
      return null;
    case 'replaceAll/1':
      for (let i = 0; i < r.length; i++) r[i] = callFunction(a[0], [r[i]]);
      return null;
    case 'stream/0':
      return new StreamValue(r.slice(), 'obj');
  }
  return NO_METHOD;
}

interface MapOps {
  has(k: unknown): boolean;
  get(k: unknown): unknown;
  set(k: unknown, v: unknown): void;
  delete(k: unknown): void;
  entries(): [unknown, unknown][];
}

function mapOps(m: Map<unknown, unknown> | Record<string, unknown>): MapOps {
  if (m instanceof Map) {
    return {
      has: (k) => m.has(k),
      get: (k) => m.get(k) ?? null,
      set: (k, v) => m.set(k, v),
      delete: (k) => m.delete(k),
      entries: () => [...m],
    };
  }
  const own = (k: unknown): k is string => typeof k === 'string' && Object.hasOwn(m, k);
  return {
    has: own,
    get: (k) => (own(k) ? (m[k] ?? null) : null),
    set: (k, v) => {
      Object.defineProperty(m, String(k), { value: v, writable: true, enumerable: true, configurable: true });
    },
    delete: (k) => {
      if (own(k)) delete m[k];
    },
    entries: () => Object.entries(m),
  };
}

function mapMethod(r: Map<unknown, unknown> | Record<string, unknown>, name: string, a: unknown[]): unknown {
  const m = mapOps(r);
  const k = a[0];
  switch (`${name}/${a.length}`) {
    case 'forEach/1':
      for (const [key, v] of m.entries()) callFunction(a[0], [key, v]);
      return null;
    case 'computeIfAbsent/2': {
      const old = m.get(k);
      if (old !== null) return old;
      const v = callFunction(a[1], [k]);
      if (v !== null && v !== undefined) m.set(k, v);
      return v ?? null;
    }
    case 'computeIfPresent/2': {
      const old = m.get(k);
      if (old === null) return null;
      const v = callFunction(a[1], [k, old]);
      if (v === null || v === undefined) m.delete(k);
      else m.set(k, v);
      return v ?? null;
    }
    case 'compute/2': {
      const v = callFunction(a[1], [k, m.get(k)]);
      if (v === null || v === undefined) m.delete(k);
      else m.set(k, v);
      return v ?? null;
    }
    case 'merge/3': {
      const old = m.get(k);
      const v = old === null ? a[1] : callFunction(a[2], [old, a[1]]);
      if (v === null || v === undefined) m.delete(k);
      else m.set(k, v);
      return v ?? null;
    }
    case 'replaceAll/1':
      for (const [key, v] of m.entries()) m.set(key, callFunction(a[0], [key, v]));
      return null;
  }
  return NO_METHOD;
}

const SINGLE_METHODS = new Set([
  'apply',
  'accept',
  'test',
  'compare',
  'get',
  'applyAsInt',
  'applyAsLong',
  'applyAsDouble',
  'run',
]);

function functionMethod(fn: ScriptFunction, name: string, a: unknown[]): unknown {
  if (SINGLE_METHODS.has(name)) return callFunction(fn, a);
  switch (`${name}/${a.length}`) {
    case 'reversed/0': {
      const cmp = comparator(fn);
      return comparatorFunction((x, y) => cmp(y, x));
    }
    case 'thenComparing/1': {
      const first = comparator(fn);
      const then =
        a[0] instanceof ScriptFunction && a[0].arity === 1 ? comparator(comparing(a[0])) : comparator(a[0]);
      return comparatorFunction((x, y) => first(x, y) || then(x, y));
    }
    case 'negate/0': {
      const test = predicate(fn);
      return new ScriptFunction(1, (args) => !test(args[0]));
    }
  }
  return NO_METHOD;
}

export function functionalMethod(r: unknown, name: string, a: unknown[], isMap: boolean): unknown {
  if (Array.isArray(r)) return listMethod(r, name, a);
  if (r instanceof StreamValue) return streamMethod(r, name, a);
  if (r instanceof OptionalValue) return optionalMethod(r, name, a);
  if (r instanceof ScriptFunction) return functionMethod(r, name, a);
  if (isMap) return mapMethod(r as Map<unknown, unknown> | Record<string, unknown>, name, a);
  return NO_METHOD;
}
