/**
 * SourceValueFetcher: a mapped field's values read back from a document's `_source` and
 * parsed as its mapper parses them, each rendered as Elasticsearch writes it in `fields`.
 * Values the mapper would not index (keyword over `ignore_above`, malformed values) are the
 * field's ignored values (`ignored_field_values`).
 */
import { illegalArgument, javaDouble, javaFloat, notImplemented, stringifyJson } from '@shoal/protocol';
import { formatDate, parseDateValue } from '../dates/index.ts';
import { parseBooleanValue } from '../mapping/boolean-value.ts';
import type { MappedField } from '../mapping/compiled.ts';
import { parseGeoPoint } from '../mapping/geo-value.ts';
import { normalizeIp } from '../mapping/ip-value.ts';
import { type NumericType, parseNumber, scaledFloat, storedFloating } from '../mapping/number-values.ts';

/** One value's JSON text, or undefined when the mapper would have ignored it. */
export type ValueParser = (value: unknown) => string | undefined;

/**
 * XContentMapValues.extractValue: the value at a dotted path, trying dotted keys too; arrays
 * of objects give the list of what each holds; a null leaf gives `nullValue`.
 */
export function extractValue(parts: string[], index: number, node: unknown, nullValue: unknown): unknown {
  if (index === parts.length) return node ?? nullValue;
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    for (const item of node) {
      const v = extractValue(parts, index, item, nullValue);
      if (v !== undefined && v !== null) out.push(v);
    }
    return out;
  }
  if (typeof node === 'object' && node !== null) {
    const map = node as Record<string, unknown>;
    let key = '';
    for (let i = index; i < parts.length; i++) {
      key = i === index ? parts[i]! : `${key}.${parts[i]}`;
      if (Object.hasOwn(map, key)) {
        const v = extractValue(parts, i + 1, map[key], nullValue);
        if (v !== undefined && v !== null) return v;
      }
    }
  }
  return undefined;
}

function javaText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object') throw illegalArgument('an object is not a value of this field');
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : javaDouble(v);
  return String(v);
}

function numberJson(type: string, n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  switch (type) {
    case 'double':
    case 'scaled_float':
      return javaDouble(n);
    case 'float':
    case 'half_float':
      return javaFloat(n);
    default:
      return String(n);
  }
}

/** The field type's valueFetcher(format): throws as the mapper does for a format it refuses. */
export function sourceValueParser(f: MappedField, format: string | undefined): ValueParser {
  const noFormat = () => {
    if (format !== undefined)
      throw illegalArgument(`Field [${f.path}] of type [${f.type}] doesn't support formats.`);
  };
  switch (f.type) {
    case 'text':
      noFormat();
      return (v) => stringifyJson(javaText(v));
    case 'keyword': {
      noFormat();
      const limit = f.ignoreAbove ?? Number.POSITIVE_INFINITY;
      const lower = f.normalizer === 'lowercase';
      return (v) => {
        const s = javaText(v);
        if (s.length > limit) return undefined;
        return stringifyJson(lower ? s.toLowerCase() : s);
      };
    }
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float': {
      noFormat();
      const type = f.type;
      return (v) => {
        if (v === '') return f.nullValue === undefined ? undefined : numberJson(type, f.nullValue as number);
        const n = parseNumber(type as NumericType, v, true);
        if (n === null) return undefined;
        if (type === 'scaled_float') return numberJson(type, scaledFloat(Number(n), f.scalingFactor!));
        if (type === 'half_float') return numberJson(type, storedFloating(type, Number(n)));
        return numberJson(type, n);
      };
    }
    case 'boolean':
      noFormat();
      return (v) => (parseBooleanValue(v) ? 'true' : 'false');
    case 'ip':
      noFormat();
      return (v) => stringifyJson(normalizeIp(javaText(v)));
    case 'date':
    case 'date_nanos': {
      const resolution = f.type === 'date' ? 'millis' : 'nanos';
      const fieldFormat = f.format!;
      const out = format ?? fieldFormat;
      formatDate(0, resolution, out);
      return (v) =>
        stringifyJson(formatDate(parseDateValue(javaText(v), fieldFormat, resolution), resolution, out));
    }
    case 'geo_point': {
      const fmt = format ?? 'geojson';
      if (fmt !== 'geojson' && fmt !== 'wkt') throw notImplemented(`the [${fmt}] format of geo_point fields`);
      return (v) => {
        const p = parseGeoPoint(v, f.path, true);
        return fmt === 'wkt'
          ? stringifyJson(`POINT (${javaDouble(p.lon)} ${javaDouble(p.lat)})`)
          : `{"type":"Point","coordinates":[${javaDouble(p.lon)},${javaDouble(p.lat)}]}`;
      };
    }
  }
}

/**
 * The values of one field in one source: `paths` are where its values live (a multi-field
 * reads its parent's). Arrays nested in arrays are unwrapped; a value that fails to parse is
 * ignored, as it was when indexed.
 */
export function fetchSourceValues(
  source: unknown,
  paths: string[][],
  nullValue: unknown,
  parse: ValueParser,
  values: string[],
  ignored: unknown[],
): void {
  for (const parts of paths) {
    const raw = extractValue(parts, 0, source, nullValue);
    if (raw === undefined || raw === null) continue;
    const queue: unknown[] = [raw];
    while (queue.length > 0) {
      const v = queue.shift();
      if (Array.isArray(v)) {
        for (const x of v) queue.push(x ?? nullValue);
        continue;
      }
      if (v === undefined || v === null) continue;
      let text: string | undefined;
      try {
        text = parse(v);
      } catch {
        text = undefined;
      }
      if (text === undefined) ignored.push(v);
      else values.push(text);
    }
  }
}
