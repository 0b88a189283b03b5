/**
 * Converting a JSON value (a `search_after` entry, or a custom `missing`) into the comparable
 * form of a sort key, as SearchAfterBuilder does: numbers to the key's numeric type (longs
 * truncate), strings parsed (dates with the sort `format` or the field's format), ips to
 * their sort key. Failures are Elasticsearch's #18 (or the date parser's own error).
 */
import { illegalArgument, type SortValue } from '@shoal/protocol';
import { parseDateValue } from '../dates/index.ts';
import { ipSortKey, parseIp } from './ip.ts';
import { LONG_MAX, LONG_MIN } from './sort-values.ts';

export interface ValueTarget {
  name: string;
  kind: 'long' | 'int' | 'double' | 'string' | 'ip' | 'bool' | 'score' | 'doc' | 'shard_doc';
  /** float fields and _score: values are float32. */
  float?: boolean;
  /** date / date_nanos keys: how strings are parsed. */
  date?: { format: string; resolution: 'millis' | 'nanos' };
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?Infinity$/;

export function toComparable(value: unknown, t: ValueTarget): SortValue {
  if (value === null || value === undefined) return null;
  const fail = () => illegalArgument(`Failed to parse search_after value for field [${t.name}].`);
  switch (t.kind) {
    case 'string':
      if (typeof value === 'object') throw fail();
      return String(value);
    case 'ip': {
      const v = typeof value === 'string' ? parseIp(value) : undefined;
      if (v === undefined) throw fail();
      return ipSortKey(v);
    }
    case 'bool':
      if (value === true || value === 'true') return 1;
      if (value === false || value === 'false') return 0;
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
      throw fail();
    case 'double':
    case 'score': {
      let n: number;
      if (typeof value === 'number') n = value;
      else if (typeof value === 'bigint') n = Number(value);
      else if (typeof value === 'string' && NUMBER.test(value.trim())) n = Number(value.trim());
      else throw fail();
      return t.float || t.kind === 'score' ? Math.fround(n) : n;
    }
    case 'doc':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      if (typeof value === 'string' && INTEGER.test(value)) return Number(value);
      throw fail();
    case 'shard_doc':
    case 'long':
    case 'int': {
      const big = toLong(value, t, fail);
      if (t.kind !== 'int') return big;
      // Keep values outside the exact double range (Long.MAX/MIN substitutes) as bigint.
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(big)
        : big;
    }
  }
}

/**
 * Java's long conversions saturate: a double beyond the long range casts to Long.MAX/MIN, and a
 * big integer (kept as text) goes through DocValueFormat.parseLong's double path. So a client
 * that read Long.MAX (a missing value's sort value) as a double and sends it back gets Long.MAX.
 */
function clampLong(v: bigint): bigint {
  return v > LONG_MAX ? LONG_MAX : v < LONG_MIN ? LONG_MIN : v;
}

function toLong(value: unknown, t: ValueTarget, fail: () => Error): bigint {
  if (typeof value === 'bigint') return clampLong(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw fail();
    return clampLong(BigInt(Math.trunc(value)));
  }
  if (typeof value === 'string') {
    const s = value.trim();
    if (INTEGER.test(s) && !t.date) return clampLong(BigInt(s));
    if (t.date) {
      const v = parseDateValue(s, t.date.format, t.date.resolution);
      return typeof v === 'bigint' ? v : BigInt(v);
    }
  }
  throw fail();
}
