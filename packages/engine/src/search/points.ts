/**
 * A segment's points index of one numeric field (numbers, dates): every (value, doc) pair of
 * the field's doc values sorted by value, then doc — the one-dimensional form of Lucene's BKD
 * tree, whose leaves are exactly such sorted runs. A `term`, `terms` or `range` query finds its
 * matches by two binary searches instead of reading every doc's value, and counts them from
 * the positions alone when each doc has one value. Built on first use and cached on the
 * immutable segment (dropped with it).
 */
import type { NumericValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';

export interface PointsIndex {
  /** Every value of the field, ascending (ties in doc order). */
  values: Float64Array | BigInt64Array;
  /** docs[i] holds values[i]. */
  docs: Int32Array;
  /** Each doc holds at most one value: a run of the index is a set of distinct docs. */
  singleValued: boolean;
  maxDoc: number;
}

/** The field's points index in the segment, or null when the segment has no numeric values for it. */
export function pointsIndex(rs: ReaderSegment, field: string): PointsIndex | null {
  const sf = rs.segment.field(field);
  const n = sf?.numeric;
  if (!n) return null;
  return rs.segment.cached(`points:${field}`, () => buildPoints(n, rs.segment.maxDoc));
}

export function buildPoints(n: NumericValues, maxDoc: number): PointsIndex {
  const count = n.values.length;
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const docOf = new Int32Array(count);
  for (let d = 0; d < maxDoc; d++) for (let j = n.starts[d]!, e = n.starts[d + 1]!; j < e; j++) docOf[j] = d;
  if (n.kind === 'double') {
    const v = n.values;
    order.sort((a, b) => v[a]! - v[b]! || a - b);
    const values = new Float64Array(count);
    const docs = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      values[i] = v[order[i]!]!;
      docs[i] = docOf[order[i]!]!;
    }
    return { values, docs, singleValued: n.singleValued, maxDoc };
  }
  const v = n.values;
  order.sort((a, b) => (v[a]! < v[b]! ? -1 : v[a]! > v[b]! ? 1 : a - b));
  const values = new BigInt64Array(count);
  const docs = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    values[i] = v[order[i]!]!;
    docs[i] = docOf[order[i]!]!;
  }
  return { values, docs, singleValued: n.singleValued, maxDoc };
}

/**
 * The first position whose value is above `bound` (`inclusive` false: at or above). Bounds
 * may be numbers against bigint values and the reverse: JavaScript compares them exactly.
 */
function search(values: Float64Array | BigInt64Array, bound: number | bigint, above: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = values[mid]!;
    if (above ? v <= bound : v < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The run [from, to) of positions whose values are inside the bounds (undefined: open). */
export function pointRange(
  p: PointsIndex,
  lo: number | bigint | undefined,
  loInc: boolean,
  hi: number | bigint | undefined,
  hiInc: boolean,
): [number, number] {
  const v = p.values;
  const from = lo === undefined ? 0 : search(v, lo, !loInc);
  const to = hi === undefined ? v.length : search(v, hi, hiInc);
  return [from, Math.max(from, to)];
}

const EMPTY = new Int32Array(0);

/**
 * The distinct docs of several runs of the index, ascending. A few docs are copied and sorted;
 * many are marked in a bitset that is then read in order, which also folds the docs of a
 * multi-valued field that fall in the runs more than once.
 */
export function runDocs(p: PointsIndex, runs: readonly [number, number][]): Int32Array {
  let n = 0;
  for (const [a, b] of runs) n += b - a;
  if (n === 0) return EMPTY;
  const docs = p.docs;
  if (runs.length === 1 && p.singleValued && n * 24 < p.maxDoc) {
    const out = docs.slice(runs[0]![0], runs[0]![1]);
    return out.sort();
  }
  if (n * 24 < p.maxDoc) {
    const out = new Int32Array(n);
    let k = 0;
    for (const [a, b] of runs) for (let i = a; i < b; i++) out[k++] = docs[i]!;
    out.sort();
    if (p.singleValued) return out;
    let w = 0;
    for (let i = 0; i < k; i++) if (i === 0 || out[i] !== out[i - 1]) out[w++] = out[i]!;
    return out.subarray(0, w);
  }
  const bits = new Uint32Array((p.maxDoc + 31) >>> 5);
  for (const [a, b] of runs)
    for (let i = a; i < b; i++) {
      const d = docs[i]!;
      bits[d >>> 5]! |= 1 << (d & 31);
    }
  return bitsToDocs(bits, n);
}

/** The set bits of `bits`, ascending (at most `max` of them). */
export function bitsToDocs(bits: Uint32Array, max: number): Int32Array {
  const out = new Int32Array(max);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w]!;
    const base = w << 5;
    while (x !== 0) {
      const bit = x & -x;
      out[k++] = base + 31 - Math.clz32(bit);
      x ^= bit;
    }
  }
  return k === max ? out : out.subarray(0, k);
}

/** Sets the bits of the docs of the runs. */
export function markRuns(p: PointsIndex, runs: readonly [number, number][], bits: Uint32Array): void {
  const docs = p.docs;
  for (const [a, b] of runs)
    for (let i = a; i < b; i++) {
      const d = docs[i]!;
      bits[d >>> 5]! |= 1 << (d & 31);
    }
}

/** The runs of the index holding each of `values` (sorted, merged when adjacent). */
export function pointSetRuns(p: PointsIndex, values: Iterable<number | bigint>): [number, number][] {
  const runs: [number, number][] = [];
  for (const v of values) {
    const r = pointRange(p, v, true, v, true);
    if (r[1] > r[0]) runs.push(r);
  }
  runs.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of runs) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** How many docs the runs hold, when each doc has one value (and none is excluded); else -1. */
export function runCount(p: PointsIndex, runs: readonly [number, number][]): number {
  if (!p.singleValued) return -1;
  let n = 0;
  for (const [a, b] of runs) n += b - a;
  return n;
}
