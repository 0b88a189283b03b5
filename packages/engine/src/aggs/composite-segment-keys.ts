/**
 * A composite source's keys in one segment, for the columnar loop: each doc's key as a rank
 * among the segment's distinct keys in ascending key order (-1: the doc has none), and the key
 * of each rank. A keyword's ranks are its term ordinals; a number's keys (the value, or its
 * histogram or date_histogram bucket) come from walking the field's points index in value
 * order, one rounding per bucket. Only for sources whose docs hold one value at most.
 *
 * Tables are cached on the immutable segment, a few per field (a histogram's interval or a
 * date rounding names one), the least recently made dropped first.
 */
import { type CompositeValue, compareKeys } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { pointsIndex } from '../search/points.ts';

export interface SegmentKeys {
  /** Names the table in the segment's cache. */
  readonly name: string;
  /** Per doc: the rank of its key, or -1. */
  readonly ids: Int32Array;
  /** The key of each rank, ascending. */
  readonly keys: readonly CompositeValue[];
}

/** Tables kept per segment before the oldest is dropped. */
const KEPT = 16;

function cache(rs: ReaderSegment): Map<string, unknown> {
  return rs.segment.cached('agg:composite-keys', () => new Map<string, unknown>());
}

function cached<T>(rs: ReaderSegment, name: string, build: () => T): T {
  const tables = cache(rs);
  let t = tables.get(name) as T | undefined;
  if (t === undefined) {
    t = build();
    if (tables.size >= KEPT) tables.delete(tables.keys().next().value!);
    tables.set(name, t);
  }
  return t;
}

/**
 * The number of docs of the whole segment per packed key of some sources (named by `name`),
 * kept with the segment's tables: a composite over every doc of a segment without deletes
 * reads its page from them.
 */
export function segmentCounts(rs: ReaderSegment, name: string, build: () => Int32Array): Int32Array {
  return cached(rs, `counts:${name}`, build);
}

/**
 * A keyword or ip source: `keys` are the terms' keys by ordinal (ip addresses as their sort
 * keys); ranks are the ordinals when those keys ascend, else their order is sorted once.
 */
export function ordinalKeys(
  rs: ReaderSegment,
  name: string,
  starts: Uint32Array,
  ords: Int32Array,
  keys: readonly string[],
): SegmentKeys | null {
  return cached(rs, name, (): SegmentKeys | null => {
    const maxDoc = rs.segment.maxDoc;
    let rankOf: Int32Array | null = null;
    let sorted = keys;
    for (let i = 1; i < keys.length; i++) {
      if (compareKeys(keys[i - 1]!, keys[i]!) >= 0) {
        const order = Array.from(keys.keys()).sort((a, b) => compareKeys(keys[a]!, keys[b]!));
        rankOf = new Int32Array(keys.length);
        order.forEach((ord, rank) => {
          rankOf![ord] = rank;
        });
        sorted = order.map((ord) => keys[ord]!);
        break;
      }
    }
    for (let i = 1; i < sorted.length; i++) if (compareKeys(sorted[i - 1]!, sorted[i]!) === 0) return null;
    const ids = new Int32Array(maxDoc).fill(-1);
    for (let d = 0; d < maxDoc; d++) {
      const s = starts[d]!;
      const e = starts[d + 1]!;
      if (e - s > 1) return null;
      if (s < e) ids[d] = rankOf === null ? ords[s]! : rankOf[ords[s]!]!;
    }
    return { name, ids, keys: sorted };
  });
}

/**
 * A numeric source: each value's key is `key(v)` — `v` the doc value as the source reads it
 * (`exact`: a 64-bit long as a number when safe, else a bigint; otherwise a double, date_nanos
 * in millis) — which must not decrease as the value grows. Null when a doc has several values
 * or a key is NaN.
 */
export function numericKeys(
  rs: ReaderSegment,
  path: string,
  name: string,
  read: (v: number | bigint) => CompositeValue,
): SegmentKeys | null {
  return cached(rs, name, (): SegmentKeys | null => {
    const p = pointsIndex(rs, path);
    if (p === null || !p.singleValued) return null;
    const ids = new Int32Array(rs.segment.maxDoc).fill(-1);
    const keys: CompositeValue[] = [];
    const { values, docs } = p;
    let previousValue: number | bigint | undefined;
    let previous: CompositeValue = null;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (v !== previousValue) {
        previousValue = v;
        const k = read(v);
        if (k === null || (typeof k === 'number' && Number.isNaN(k))) return null;
        if (keys.length === 0 || compareKeys(previous!, k) < 0) keys.push(k);
        else if (compareKeys(previous!, k) > 0) return null;
        previous = k;
      }
      ids[docs[i]!] = keys.length - 1;
    }
    return { name, ids, keys };
  });
}
