/**
 * Range field values (RangeFieldMapper): `{"gte": 1, "lt": 5}` (also `gt`, `lte`, `from`/`to`
 * with `include_lower`/`include_upper`), or a CIDR for `ip_range`. A range is kept as the
 * inclusive bounds Elasticsearch stores (an exclusive bound moved to the next value, a missing
 * one at the type's end), encoded as one term `from:to`, so a document's ranges keep their
 * pairs and a query tests each distinct range of the term dictionary once.
 */
import { illegalArgument } from '@shoal/protocol';
import { parseDateValue } from '../dates/index.ts';
import { parseCidr, parseIp } from '../search/ip.ts';
import { javaToString } from './java-text.ts';
import { isPlainObject } from './nodes.ts';
import { parseNumber } from './number-values.ts';
import type { RangeType } from './special-types.ts';

export type RangeBound = number | bigint;

/** Whether the type's bounds are whole numbers (kept as bigint). */
export function isDiscreteRange(type: RangeType): boolean {
  return type !== 'float_range' && type !== 'double_range';
}

const LONG_MIN = -(1n << 63n);
const LONG_MAX = (1n << 63n) - 1n;

export function rangeMin(type: RangeType): RangeBound {
  switch (type) {
    case 'integer_range':
      return -2147483648n;
    case 'ip_range':
      return 0n;
    case 'float_range':
    case 'double_range':
      return Number.NEGATIVE_INFINITY;
    default:
      return LONG_MIN;
  }
}

export function rangeMax(type: RangeType): RangeBound {
  switch (type) {
    case 'integer_range':
      return 2147483647n;
    case 'ip_range':
      return (1n << 128n) - 1n;
    case 'float_range':
    case 'double_range':
      return Number.POSITIVE_INFINITY;
    default:
      return LONG_MAX;
  }
}

const view = new DataView(new ArrayBuffer(8));

/** Math.nextUp / nextDown for doubles, Math.nextUp(float) for floats. */
export function nextValue(type: RangeType, v: RangeBound, up: boolean): RangeBound {
  if (typeof v === 'bigint') return up ? v + 1n : v - 1n;
  if (!Number.isFinite(v)) return v;
  if (type === 'float_range') {
    if (v === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
    view.setFloat32(0, v);
    const bits = view.getInt32(0);
    view.setInt32(0, v > 0 === up ? bits + 1 : bits - 1);
    return view.getFloat32(0);
  }
  if (v === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  view.setFloat64(0, v);
  const bits = view.getBigInt64(0);
  view.setBigInt64(0, v > 0 === up ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** One bound of a range value or a query, in the type's terms. */
export function parseRangeBound(
  type: RangeType,
  value: unknown,
  coerce: boolean,
  format?: string,
): RangeBound {
  switch (type) {
    case 'integer_range':
    case 'long_range': {
      const n = parseNumber(type === 'integer_range' ? 'integer' : 'long', value, coerce);
      if (n === null) throw illegalArgument('null bound');
      return BigInt(n);
    }
    case 'float_range':
    case 'double_range': {
      const n = parseNumber(type === 'float_range' ? 'float' : 'double', value, coerce);
      if (n === null) throw illegalArgument('null bound');
      return Number(n);
    }
    case 'date_range':
      return BigInt(
        parseDateValue(javaToString(value), format ?? 'strict_date_optional_time||epoch_millis', 'millis'),
      );
    case 'ip_range': {
      const v = parseIp(javaToString(value));
      if (v === undefined) throw illegalArgument(`'${javaToString(value)}' is not an IP string literal.`);
      return v;
    }
  }
}

export function encodeRange(from: RangeBound, to: RangeBound): string {
  return `${String(from)}:${String(to)}`;
}

export function decodeRange(type: RangeType, term: string): [RangeBound, RangeBound] {
  const at = term.indexOf(':');
  const a = term.slice(0, at);
  const b = term.slice(at + 1);
  return isDiscreteRange(type) ? [BigInt(a), BigInt(b)] : [Number(a), Number(b)];
}

/** A document's range value as its encoded term. */
export function rangeTerm(
  path: string,
  type: RangeType,
  value: unknown,
  coerce: boolean,
  format: string,
): string {
  if (type === 'ip_range' && typeof value === 'string') {
    const r = parseCidr(value);
    if (!r) throw illegalArgument(`Expected [ip/prefix] but was [${value}]`);
    return encodeRange(r[0], r[1]);
  }
  if (!isPlainObject(value)) {
    throw illegalArgument(`error parsing field [${path}], expected an object but got ${javaToString(value)}`);
  }
  let from = rangeMin(type);
  let to = rangeMax(type);
  let includeFrom = true;
  let includeTo = true;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'include_lower') includeFrom = v === true || v === 'true';
    else if (key === 'include_upper') includeTo = v === true || v === 'true';
    else if (v === null) continue;
    else if (key === 'gte' || key === 'gt' || key === 'from') {
      from = parseRangeBound(type, v, coerce, format);
      if (key !== 'from') includeFrom = key === 'gte';
    } else if (key === 'lte' || key === 'lt' || key === 'to') {
      to = parseRangeBound(type, v, coerce, format);
      if (key !== 'to') includeTo = key === 'lte';
    } else {
      throw illegalArgument(`error parsing field [${path}], with unknown parameter [${key}]`);
    }
  }
  if (!includeFrom) from = nextValue(type, from, true);
  if (!includeTo) to = nextValue(type, to, false);
  if (from > to) {
    throw illegalArgument(`min value (${String(from)}) is greater than max value (${String(to)})`);
  }
  return encodeRange(from, to);
}

/** Whether a stored range [from, to] stands in `relation` to the query range [qFrom, qTo]. */
export function rangeMatches(
  relation: 'intersects' | 'contains' | 'within',
  from: RangeBound,
  to: RangeBound,
  qFrom: RangeBound,
  qTo: RangeBound,
): boolean {
  switch (relation) {
    case 'intersects':
      return from <= qTo && to >= qFrom;
    case 'contains':
      return from <= qFrom && to >= qTo;
    case 'within':
      return from >= qFrom && to <= qTo;
  }
}
