/**
 * The HDR histogram of percentiles and percentile_ranks with `hdr` (Elasticsearch's
 * DoubleHistogram with number_of_significant_value_digits): values fall into log-linear
 * buckets — each power of two split in 2^⌈log2(2·10^digits)⌉⁻¹ equal parts — so a value is
 * known to within 10^-digits of itself. A percentile answers the highest value equivalent to
 * the bucket it falls in, a rank the share of values in buckets at or below the value's, as
 * HdrHistogram's getValueAtPercentile and getPercentileAtOrBelowValue do.
 *
 * The histogram is plain data (bucket indexes ascending and their counts), merged by adding
 * counts, so shard histograms merge in any order.
 */

export interface HdrData {
  readonly digits: number;
  /** Bucket indexes, ascending (see bucketOf). */
  readonly buckets: readonly number[];
  readonly counts: readonly number[];
  /** Values equal to 0 (they have no power of two). */
  readonly zeros: number;
}

/** Sub-buckets in each half power of two, for `digits` significant digits. */
function halfCount(digits: number): number {
  const magnitude = Math.ceil(Math.log2(2 * 10 ** digits));
  return 2 ** Math.max(magnitude - 1, 0);
}

/** The bucket of a positive value: its power of two and its part of it, as one integer. */
export function bucketOf(v: number, digits: number): number {
  const h = halfCount(digits);
  const exp = Math.floor(Math.log2(v));
  let sub = Math.floor((v / 2 ** exp - 1) * h);
  // log2 rounding can put a value just below a power of two one band too high or low.
  if (sub < 0) return bucketOf(v * (1 + Number.EPSILON), digits);
  if (sub >= h) sub = h - 1;
  return exp * h + sub;
}

/** The lowest and the highest value a bucket holds. */
export function bucketBounds(bucket: number, digits: number): [number, number] {
  const h = halfCount(digits);
  const exp = Math.floor(bucket / h);
  const sub = bucket - exp * h;
  const width = 2 ** exp / h;
  const low = 2 ** exp + sub * width;
  return [low, low + width];
}

export function emptyHdr(digits: number): HdrData {
  return { digits, buckets: [], counts: [], zeros: 0 };
}

export function hdrCount(d: HdrData): number {
  let n = d.zeros;
  for (const c of d.counts) n += c;
  return n;
}

/** Collects values; negative values are refused as Elasticsearch's histogram refuses them. */
export class HdrBuilder {
  private readonly byBucket = new Map<number, number>();
  private zeros = 0;

  constructor(private readonly digits: number) {}

  add(v: number): void {
    if (v === 0) {
      this.zeros++;
      return;
    }
    if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`value ${v} outside the histogram's range`);
    const b = bucketOf(v, this.digits);
    this.byBucket.set(b, (this.byBucket.get(b) ?? 0) + 1);
  }

  build(): HdrData {
    const buckets = [...this.byBucket.keys()].sort((a, b) => a - b);
    return {
      digits: this.digits,
      buckets,
      counts: buckets.map((b) => this.byBucket.get(b)!),
      zeros: this.zeros,
    };
  }
}

export function mergeHdr(parts: readonly HdrData[], digits: number): HdrData {
  const live = parts.filter((p) => p.counts.length > 0 || p.zeros > 0);
  if (live.length === 0) return emptyHdr(digits);
  if (live.length === 1) return live[0]!;
  const m = new Map<number, number>();
  let zeros = 0;
  for (const p of live) {
    zeros += p.zeros;
    for (let i = 0; i < p.buckets.length; i++)
      m.set(p.buckets[i]!, (m.get(p.buckets[i]!) ?? 0) + p.counts[i]!);
  }
  const buckets = [...m.keys()].sort((a, b) => a - b);
  return { digits, buckets, counts: buckets.map((b) => m.get(b)!), zeros };
}

/** The value at percentile `p` (0–100); NaN when empty. */
export function hdrPercentile(d: HdrData, p: number): number {
  const total = hdrCount(d);
  if (total === 0) return Number.NaN;
  const requested = Math.min(Math.max(p, 0), 100);
  const target = Math.max(Math.ceil((requested / 100) * total - 1e-9), 1);
  let seen = d.zeros;
  if (seen >= target) return 0;
  for (let i = 0; i < d.buckets.length; i++) {
    seen += d.counts[i]!;
    if (seen >= target) {
      const [low, high] = bucketBounds(d.buckets[i]!, d.digits);
      if (p === 0) return low;
      // HdrHistogram's highestEquivalentValue: the last value before the next bucket.
      return high - (high - low) / 1024;
    }
  }
  const [, high] = bucketBounds(d.buckets[d.buckets.length - 1]!, d.digits);
  return high;
}

/** The percentage (0–100) of values at or below `v`; NaN when empty. */
export function hdrRank(d: HdrData, v: number): number {
  const total = hdrCount(d);
  if (total === 0) return Number.NaN;
  if (v < 0) return 0;
  let below = d.zeros;
  if (v > 0) {
    const target = bucketOf(v, d.digits);
    for (let i = 0; i < d.buckets.length && d.buckets[i]! <= target; i++) below += d.counts[i]!;
  }
  return (100 * below) / total;
}
