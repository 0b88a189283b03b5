/**
 * The t-digest of Elasticsearch's percentiles, percentile_ranks, boxplot and
 * median_absolute_deviation (TDigestState over its HybridDigest): every value is kept as a
 * centroid of weight 1 — so small samples are exact — until there are more than
 * 20 × `compression` of them; then centroids merge as Dunning's MergingDigest merges them
 * (the k1 scale function, at most about π/2 × compression centroids). Quantiles and ranks
 * interpolate between centroid centres as MergingDigest.quantile and .cdf do, weight-1
 * centroids standing for their exact value.
 *
 * A digest is plain data (means and weights ascending by mean, min, max), so a shard's digest
 * travels as it is, and digests merge in any order and grouping.
 */

import { sortDoubles } from './sort-doubles.ts';

export interface TDigestData {
  readonly compression: number;
  /** Centroid means, ascending. */
  readonly means: readonly number[];
  /** Centroid weights, aligned with `means`. */
  readonly weights: readonly number[];
  /** +Infinity / -Infinity when empty. */
  readonly min: number;
  readonly max: number;
}

/** HybridDigest switches from exact values to merged centroids past this many per compression unit. */
const EXACT_PER_COMPRESSION = 20;

export function emptyDigest(compression: number): TDigestData {
  return { compression, means: [], weights: [], min: Infinity, max: -Infinity };
}

export function digestCount(d: TDigestData): number {
  let n = 0;
  for (const w of d.weights) n += w;
  return n;
}

/**
 * A digest from unsorted values: `values[0, n)` (the array is sorted in place). The values
 * are taken as they are when few; merged into centroids past the exact limit.
 */
export function digestOf(values: Float64Array, n: number, compression: number): TDigestData {
  const sorted = sortDoubles(values.subarray(0, n));
  if (n === 0) return emptyDigest(compression);
  const ones = new Array<number>(n).fill(1);
  return compress(compression, Array.from(sorted), ones, sorted[0]!, sorted[n - 1]!);
}

/** Merges digests (of shards, or of earlier merges) into one. */
export function mergeDigests(parts: readonly TDigestData[], compression: number): TDigestData {
  const live = parts.filter((p) => p.means.length > 0);
  if (live.length === 0) return emptyDigest(compression);
  if (live.length === 1 && live[0]!.compression === compression) return live[0]!;
  const idx: number[] = [];
  const means: number[] = [];
  const weights: number[] = [];
  let min = Infinity;
  let max = -Infinity;
  for (const p of live) {
    for (let i = 0; i < p.means.length; i++) {
      idx.push(means.length);
      means.push(p.means[i]!);
      weights.push(p.weights[i]!);
    }
    if (p.min < min) min = p.min;
    if (p.max > max) max = p.max;
  }
  idx.sort((a, b) => means[a]! - means[b]!);
  return compress(
    compression,
    idx.map((i) => means[i]!),
    idx.map((i) => weights[i]!),
    min,
    max,
  );
}

/** k1 scale function: k(q) = δ / 2π · asin(2q − 1), and its inverse. */
function k1(q: number, compression: number): number {
  return (compression / (2 * Math.PI)) * Math.asin(2 * q - 1);
}

function k1Inverse(k: number, compression: number): number {
  return (Math.sin((k * 2 * Math.PI) / compression) + 1) / 2;
}

/** Sorted centroids merged so that no centroid spans more than one unit of k1 (kept as they are while exact). */
function compress(
  compression: number,
  means: number[],
  weights: number[],
  min: number,
  max: number,
): TDigestData {
  let total = 0;
  for (const w of weights) total += w;
  if (total <= EXACT_PER_COMPRESSION * compression) return { compression, means, weights, min, max };
  const c = new Compressor(compression, total);
  for (let i = 0; i < means.length; i++) c.add(means[i]!, weights[i]!);
  return c.finish(min, max);
}

function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  const lo = Math.min(x1, x2);
  const hi = Math.max(x1, x2);
  const v = (x1 * w1 + x2 * w2) / (w1 + w2);
  return Math.max(lo, Math.min(hi, v));
}

/** The value at quantile `q` (0–1): NaN for an empty digest (MergingDigest.quantile). */
export function quantile(d: TDigestData, q: number): number {
  const { means, weights, min, max } = d;
  const n = means.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return means[0]!;
  const total = digestCount(d);
  const index = q * total;
  if (index < 1) return min;
  // The first and last centroids hold min and max: interpolate towards them.
  if (weights[0]! > 1 && index < weights[0]! / 2) {
    return min + ((index - 1) / (weights[0]! / 2 - 1)) * (means[0]! - min);
  }
  if (index > total - 1) return max;
  if (weights[n - 1]! > 1 && total - index <= weights[n - 1]! / 2) {
    return max - ((total - index - 1) / (weights[n - 1]! / 2 - 1)) * (max - means[n - 1]!);
  }
  let soFar = weights[0]! / 2;
  for (let i = 0; i < n - 1; i++) {
    const dw = (weights[i]! + weights[i + 1]!) / 2;
    if (soFar + dw > index) {
      // A weight-1 centroid is an exact value: within half a unit of it, it is the answer.
      let leftUnit = 0;
      if (weights[i] === 1) {
        if (index - soFar < 0.5) return means[i]!;
        leftUnit = 0.5;
      }
      let rightUnit = 0;
      if (weights[i + 1] === 1) {
        if (soFar + dw - index <= 0.5) return means[i + 1]!;
        rightUnit = 0.5;
      }
      const z1 = index - soFar - leftUnit;
      const z2 = soFar + dw - index - rightUnit;
      return weightedAverage(means[i]!, z2, means[i + 1]!, z1);
    }
    soFar += dw;
  }
  const z1 = index - total - weights[n - 1]! / 2;
  const z2 = weights[n - 1]! / 2 - z1;
  return weightedAverage(means[n - 1]!, z1, max, z2);
}

/** The fraction of values at or below `x` (MergingDigest.cdf); NaN for an empty digest. */
export function cdf(d: TDigestData, x: number): number {
  const { means, weights, min, max } = d;
  const n = means.length;
  if (n === 0) return Number.NaN;
  if (x < min) return 0;
  if (x > max) return 1;
  if (n === 1) return max - min === 0 ? 0.5 : (x - min) / (max - min);
  const total = digestCount(d);
  if (x < means[0]!) {
    if (means[0]! - min <= 0) return 0;
    if (x === min) return 0.5 / total;
    return (1 + ((x - min) / (means[0]! - min)) * (weights[0]! / 2 - 1)) / total;
  }
  if (x > means[n - 1]!) {
    if (max - means[n - 1]! <= 0) return 1;
    if (x === max) return 1 - 0.5 / total;
    const dq = (1 + ((max - x) / (max - means[n - 1]!)) * (weights[n - 1]! / 2 - 1)) / total;
    return 1 - dq;
  }
  let soFar = 0;
  for (let i = 0; i < n - 1; i++) {
    if (means[i] === x) {
      let dw = 0;
      while (i < n && means[i] === x) {
        dw += weights[i]!;
        i++;
      }
      return (soFar + dw / 2) / total;
    }
    if (means[i]! <= x && x < means[i + 1]!) {
      const wl = weights[i]!;
      const wr = weights[i + 1]!;
      if (means[i + 1]! - means[i]! > 0) {
        let leftExcluded = 0;
        let rightExcluded = 0;
        if (wl === 1) {
          if (wr === 1) return (soFar + 1) / total;
          leftExcluded = 0.5;
        } else if (wr === 1) rightExcluded = 0.5;
        const dw = (wl + wr) / 2 - leftExcluded - rightExcluded;
        const base = soFar + wl / 2 + leftExcluded;
        return (base + (dw * (x - means[i]!)) / (means[i + 1]! - means[i]!)) / total;
      }
      return (soFar + (wl + wr) / 2) / total;
    }
    soFar += weights[i]!;
  }
  return 1 - 0.5 / total;
}

/**
 * Collects values into a digest: the values are kept as they come and sorted once when the
 * digest is built; past a million of them they are folded into the centroids (a linear merge
 * of two sorted runs), so a shard's memory stays bounded however many values it sees.
 */
export class DigestBuilder {
  private buf = new Float64Array(16);
  private n = 0;
  /** Where each sorted run of the buffer ends, while it holds nothing but such runs. */
  private runs: number[] | null = [];
  private digest: TDigestData;

  constructor(private readonly compression: number) {
    this.digest = emptyDigest(compression);
  }

  add(v: number): void {
    if (this.n === this.buf.length) {
      if (this.n >= FOLD_AT) this.fold();
      else {
        const next = new Float64Array(this.buf.length * 2);
        next.set(this.buf);
        this.buf = next;
      }
    }
    this.runs = null;
    this.buf[this.n++] = v;
  }

  /**
   * Adds values already in ascending order (a segment's points): while every value held came
   * so, building merges the runs instead of sorting them all.
   */
  addSorted(values: Float64Array): void {
    const runs = this.runs;
    if (runs === null || this.n + values.length > FOLD_AT || !inSortOrder(values)) {
      this.addAll(values);
      return;
    }
    this.append(values);
    runs.push(this.n);
  }

  /** Adds many values at once (a segment's doc values). */
  addAll(values: Float64Array): void {
    this.runs = null;
    if (this.n + values.length > FOLD_AT) {
      for (let i = 0; i < values.length; i++) this.add(values[i]!);
      return;
    }
    this.append(values);
  }

  private append(values: Float64Array): void {
    if (this.n + values.length > this.buf.length) {
      let size = this.buf.length * 2;
      while (size < this.n + values.length) size *= 2;
      const next = new Float64Array(size);
      next.set(this.buf.subarray(0, this.n));
      this.buf = next;
    }
    this.buf.set(values, this.n);
    this.n += values.length;
  }

  /** Merges the sorted buffer with the centroids so far, in one pass without copies. */
  private fold(): void {
    const n = this.n;
    if (n === 0) return;
    const runs = this.runs;
    const sorted = sortDoubles(this.buf.subarray(0, n), runs ?? undefined);
    this.runs = [];
    const d = this.digest;
    const total = digestCount(d) + n;
    const min = Math.min(d.min, sorted[0]!);
    const max = Math.max(d.max, sorted[n - 1]!);
    if (total <= EXACT_PER_COMPRESSION * this.compression) {
      const means: number[] = [];
      const weights: number[] = [];
      mergeRuns(d, sorted, (m, w) => {
        means.push(m);
        weights.push(w);
      });
      this.digest = { compression: this.compression, means, weights, min, max };
    } else {
      const c = new Compressor(this.compression, total);
      mergeRuns(d, sorted, (m, w) => c.add(m, w));
      this.digest = c.finish(min, max);
    }
    this.n = 0;
  }

  build(): TDigestData {
    this.fold();
    return this.digest;
  }
}

/** Calls `emit` with the centroids of `d` and the sorted values, in ascending order. */
function mergeRuns(d: TDigestData, sorted: Float64Array, emit: (mean: number, weight: number) => void): void {
  const { means, weights } = d;
  let i = 0;
  for (let j = 0; j < sorted.length; j++) {
    const v = sorted[j]!;
    while (i < means.length && means[i]! <= v) {
      emit(means[i]!, weights[i]!);
      i++;
    }
    emit(v, 1);
  }
  for (; i < means.length; i++) emit(means[i]!, weights[i]!);
}

/** The k1 merge of compress(), fed one centroid at a time in ascending order. */
class Compressor {
  private readonly means: number[] = [];
  private readonly weights: number[] = [];
  private curMean = 0;
  private curWeight = 0;
  private soFar = 0;
  private limit: number;

  constructor(
    private readonly compression: number,
    private readonly total: number,
  ) {
    this.limit = total * k1Inverse(k1(0, compression) + 1, compression);
  }

  add(mean: number, weight: number): void {
    if (this.curWeight === 0) {
      this.curMean = mean;
      this.curWeight = weight;
    } else if (this.soFar + this.curWeight + weight <= this.limit) {
      this.curWeight += weight;
      this.curMean += ((mean - this.curMean) * weight) / this.curWeight;
    } else {
      this.means.push(this.curMean);
      this.weights.push(this.curWeight);
      this.soFar += this.curWeight;
      const q = Math.min(this.soFar / this.total, 1);
      this.limit = this.total * k1Inverse(k1(q, this.compression) + 1, this.compression);
      this.curMean = mean;
      this.curWeight = weight;
    }
  }

  finish(min: number, max: number): TDigestData {
    if (this.curWeight > 0) {
      this.means.push(this.curMean);
      this.weights.push(this.curWeight);
      this.curWeight = 0;
    }
    return { compression: this.compression, means: this.means, weights: this.weights, min, max };
  }
}

/** Values held unsorted before they are folded into the centroids. */
const FOLD_AT = 1 << 20;

/** Whether `a` is in the order of Float64Array.prototype.sort (-0 before +0, no NaN). */
function inSortOrder(a: Float64Array): boolean {
  for (let i = 1; i < a.length; i++) {
    const x = a[i - 1]!;
    const y = a[i]!;
    if (x < y) continue;
    if (x !== y || (x === 0 && 1 / x > 0 && 1 / y < 0)) return false;
  }
  return a.length === 0 || !Number.isNaN(a[0]!);
}
