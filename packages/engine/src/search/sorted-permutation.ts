/**
 * The sort fast path's index: a segment's docs that have a value, ordered by one field's
 * min (or max) value in one direction, ties by doc id ascending, plus the docs without a
 * value. Computed once per (field, mode, direction) and cached on the immutable segment, so a
 * sorted match_all walks the first k entries instead of visiting every doc.
 */
import type { SortValue } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { ordValue } from './sort-doc-values.ts';
import type { FieldSort } from './sort-keys.ts';

interface PermData {
  order: Int32Array;
  keys: Float64Array | BigInt64Array | Int32Array;
  missing: Int32Array;
}

export interface SortedPermutation {
  /** Docs with a value, in sort order (ties by doc ascending). */
  order: Int32Array;
  /** Docs without a value, ascending. */
  missing: Int32Array;
  /** Comparable value of order[i]. */
  value(i: number): SortValue;
}

const EMPTY = new Int32Array(0);

/** The segment-cache key of a permutation (a search computes it once for all its segments). */
export function permutationKey(fs: FieldSort, reverse: boolean): string {
  return `perm:${fs.path}:${fs.mode === 'max' ? 'max' : 'min'}:${reverse ? 'desc' : 'asc'}`;
}

export function sortedPermutation(
  rs: ReaderSegment,
  fs: FieldSort,
  reverse: boolean,
  key = permutationKey(fs, reverse),
): SortedPermutation {
  const sf = fs.unmapped ? undefined : rs.segment.field(fs.path);
  const useMax = fs.mode === 'max';
  const data = rs.segment.cached(key, () => build(rs, fs, useMax, reverse));
  if (fs.source === 'numeric' || !sf?.sortedSet) {
    return new NumericPermutation(data.order, data.missing, data.keys as Float64Array | BigInt64Array);
  }
  return new OrdPermutation(
    data.order,
    data.missing,
    data.keys as Int32Array,
    ordValue(fs, sf.sortedSet.terms, rs),
  );
}

/** Classes rather than object literals with arrow functions: one is made per segment and search. */
class NumericPermutation implements SortedPermutation {
  constructor(
    readonly order: Int32Array,
    readonly missing: Int32Array,
    private readonly keys: Float64Array | BigInt64Array,
  ) {}
  value(i: number): SortValue {
    return this.keys[i]!;
  }
}

class OrdPermutation implements SortedPermutation {
  constructor(
    readonly order: Int32Array,
    readonly missing: Int32Array,
    private readonly keys: Int32Array,
    private readonly toValue: (ord: number) => SortValue,
  ) {}
  value(i: number): SortValue {
    return this.toValue(this.keys[i]!);
  }
}

function build(rs: ReaderSegment, fs: FieldSort, useMax: boolean, reverse: boolean): PermData {
  const maxDoc = rs.segment.maxDoc;
  const sf = fs.unmapped ? undefined : rs.segment.field(fs.path);
  const withValue = sf?.docsWithField ?? EMPTY;
  const missing = complement(withValue, maxDoc);
  const n = withValue.length;
  if (fs.source === 'ords' && sf?.sortedSet) {
    // Counting sort by ordinal: stable, so equal terms keep doc order.
    const ss = sf.sortedSet;
    const nOrds = ss.terms.length;
    const ordOf = new Int32Array(n);
    const bucket = new Int32Array(nOrds + 1);
    for (let i = 0; i < n; i++) {
      const d = withValue[i]!;
      const o = ss.ords[useMax ? ss.starts[d + 1]! - 1 : ss.starts[d]!]!;
      const b = reverse ? nOrds - 1 - o : o;
      ordOf[i] = o;
      bucket[b + 1]!++;
    }
    for (let b = 0; b < nOrds; b++) bucket[b + 1]! += bucket[b]!;
    const order = new Int32Array(n);
    const keys = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const o = ordOf[i]!;
      const at = bucket[reverse ? nOrds - 1 - o : o]!++;
      order[at] = withValue[i]!;
      keys[at] = o;
    }
    return { order, keys, missing };
  }
  const num = sf?.numeric;
  if (!num) return { order: EMPTY, keys: new Float64Array(0), missing };
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const pos = (d: number) => (useMax ? num.starts[d + 1]! - 1 : num.starts[d]!);
  const dir = reverse ? -1 : 1;
  if (num.kind === 'long') {
    const raw = new BigInt64Array(n);
    for (let i = 0; i < n; i++) raw[i] = num.values[pos(withValue[i]!)]!;
    idx.sort((a, b) => (raw[a]! < raw[b]! ? -dir : raw[a]! > raw[b]! ? dir : a - b));
    const keys = new BigInt64Array(n);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      keys[i] = raw[idx[i]!]!;
      order[i] = withValue[idx[i]!]!;
    }
    return { order, keys, missing };
  }
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = num.values[pos(withValue[i]!)]!;
  idx.sort((a, b) => (raw[a]! - raw[b]!) * dir || a - b);
  const keys = new Float64Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    keys[i] = raw[idx[i]!]!;
    order[i] = withValue[idx[i]!]!;
  }
  return { order, keys, missing };
}

function complement(sorted: Int32Array, maxDoc: number): Int32Array {
  if (sorted.length === maxDoc) return EMPTY;
  const out = new Int32Array(maxDoc - sorted.length);
  let j = 0;
  let k = 0;
  for (let d = 0; d < maxDoc; d++) {
    if (j < sorted.length && sorted[j] === d) j++;
    else out[k++] = d;
  }
  return out;
}
