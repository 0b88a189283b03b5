/**
 * Per-segment readers of a sort key's value for a doc: the multi-value mode applied to the
 * doc values (MultiValueMode: long-typed fields average and take medians in integer
 * arithmetic, rounding as Elasticsearch does), the numeric_type conversion, and the missing
 * substitute. `_shard_doc` is carried internally as the reader doc (a number: within one shard
 * it orders exactly like the packed long) and packed only on output.
 */
import type { SortMode, SortValue } from '@shoal/protocol';
import type { NumericValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { scriptSortReader } from '../script/script-sort.ts';
import { geoDistanceReader } from './geo-distance-sort.ts';
import { ipSortKey, parseIp } from './ip.ts';
import type { Conversion, FieldSort, SortKey } from './sort-keys.ts';
import { LONG_MAX } from './sort-values.ts';

export type ValueReader = (doc: number, score: number) => SortValue;

export function valueReader(key: SortKey, rs: ReaderSegment): ValueReader {
  switch (key.spec.kind) {
    case 'score':
      return (_doc, score) => score;
    case 'doc':
    case 'shard_doc': {
      const base = rs.docBase;
      return (doc) => base + doc;
    }
    case 'field':
      return fieldReader(key.field!, rs);
  }
}

function fieldReader(fs: FieldSort, rs: ReaderSegment): ValueReader {
  if (fs.source === 'geo') return geoDistanceReader(fs, rs);
  if (fs.source === 'script') return scriptSortReader(fs, rs);
  const missing = fs.missing;
  const sf = fs.unmapped ? undefined : rs.segment.field(fs.path);
  if (fs.source === 'numeric') {
    const n = sf?.numeric;
    if (!n) return () => missing;
    const convert = converter(fs.conversion);
    return (doc) => {
      const s = n.starts[doc]!;
      const e = n.starts[doc + 1]!;
      if (s === e) return missing;
      return convert(pickNumber(n, s, e, fs.mode, fs.longSemantics));
    };
  }
  const ss = sf?.sortedSet;
  if (!ss) return () => missing;
  const termValue = ordValue(fs, ss.terms, rs);
  const useMax = fs.mode === 'max';
  if (fs.kind === 'ip' && !ss.singleValued) {
    // Term order is text order; an ip's min/max is by address, so compare every value's key.
    return (doc) => {
      const s = ss.starts[doc]!;
      const e = ss.starts[doc + 1]!;
      if (s === e) return missing;
      let best = termValue(ss.ords[s]!) as string;
      for (let i = s + 1; i < e; i++) {
        const v = termValue(ss.ords[i]!) as string;
        if (useMax ? v > best : v < best) best = v;
      }
      return best;
    };
  }
  return (doc) => {
    const s = ss.starts[doc]!;
    const e = ss.starts[doc + 1]!;
    if (s === e) return missing;
    return termValue(ss.ords[useMax ? e - 1 : s]!);
  };
}

/** Comparable value of a term ordinal: the term, an ip's sort key, or a boolean's 0/1. */
export function ordValue(
  fs: FieldSort,
  terms: readonly string[],
  rs: ReaderSegment,
): (ord: number) => SortValue {
  if (fs.kind === 'ip') {
    const keys = rs.segment.cached(`ipkey:${fs.path}`, () =>
      terms.map((t) => {
        const v = parseIp(t);
        return v === undefined ? t : ipSortKey(v);
      }),
    );
    return (ord) => keys[ord]!;
  }
  if (fs.kind === 'bool') return (ord) => (terms[ord] === 'T' || terms[ord] === 'true' ? 1 : 0);
  return (ord) => terms[ord]!;
}

export function pickNumber(
  n: NumericValues,
  s: number,
  e: number,
  mode: SortMode,
  longSemantics: boolean,
): number | bigint {
  if (n.kind === 'long') return pickLong(n.values, s, e, mode);
  const v = n.values;
  const count = e - s;
  switch (mode) {
    case 'min':
      return v[s]!;
    case 'max':
      return v[e - 1]!;
    case 'sum': {
      let t = 0;
      for (let i = s; i < e; i++) t += v[i]!;
      return t;
    }
    case 'avg': {
      let t = 0;
      for (let i = s; i < e; i++) t += v[i]!;
      if (!longSemantics) return t / count;
      return count > 1 ? Math.round(t / count) : t;
    }
    case 'median': {
      if (!longSemantics) {
        const mid = s + (count >> 1);
        return count % 2 === 0 ? (v[mid - 1]! + v[mid]!) / 2 : v[mid]!;
      }
      if (count === 1) return v[s]!;
      const lower = v[s + ((count - 1) >> 1)]!;
      if (count % 2 === 1) return lower;
      const t = lower + v[s + ((count - 1) >> 1) + 1]!;
      return Math.floor(t / 2) + (((t % 2) + 2) % 2);
    }
  }
}

function pickLong(v: BigInt64Array, s: number, e: number, mode: SortMode): bigint {
  const count = e - s;
  switch (mode) {
    case 'min':
      return v[s]!;
    case 'max':
      return v[e - 1]!;
    case 'sum':
    case 'avg': {
      let t = 0n;
      for (let i = s; i < e; i++) t += v[i]!;
      if (mode === 'sum' || count === 1) return BigInt.asIntN(64, t);
      return BigInt(Math.round(Number(t) / count));
    }
    case 'median': {
      if (count === 1) return v[s]!;
      const lower = v[s + ((count - 1) >> 1)]!;
      if (count % 2 === 1) return lower;
      const t = lower + v[s + ((count - 1) >> 1) + 1]!;
      return (t >> 1n) + (t & 1n);
    }
  }
}

export function converter(c: Conversion): (v: number | bigint) => SortValue {
  switch (c) {
    case 'none':
      return (v) => v;
    case 'millisToNanos':
      return (v) => {
        const nanos = BigInt(Math.trunc(Number(v))) * 1_000_000n;
        return nanos < 0n ? 0n : nanos > LONG_MAX ? LONG_MAX : nanos;
      };
    case 'nanosToMillis':
      return (v) => Number(BigInt(v) / 1_000_000n);
    case 'toLong':
      return (v) => (typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));
    case 'toDouble':
      return (v) => Number(v);
    case 'truncate':
      return (v) => Math.trunc(Number(v));
  }
}
