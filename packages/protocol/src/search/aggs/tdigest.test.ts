import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cdf, DigestBuilder, digestCount, digestOf, mergeDigests, quantile } from './tdigest.ts';

const build = (values: number[], compression = 100) => {
  const b = new DigestBuilder(compression);
  for (const v of values) b.add(v);
  return b.build();
};

/** The rank of `v` among sorted values, as a fraction of them. */
const rankOf = (sorted: number[], v: number) => {
  let lo = 0;
  let hi = 0;
  for (const x of sorted) {
    if (x < v) lo++;
    if (x <= v) hi++;
  }
  return [lo / sorted.length, hi / sorted.length] as const;
};

describe('tdigest', () => {
  it('is exact for a few values, as Elasticsearch answers 1, 51, 101, 151', () => {
    const d = build([151, 1, 101, 51]);
    expect([1, 5, 25, 50, 75, 95, 99].map((p) => quantile(d, p / 100))).toEqual([
      1, 1, 51, 101, 151, 151, 151,
    ]);
    expect([50, 100, 150, 200].map((x) => cdf(d, x) * 100)).toEqual([25, 50, 75, 100]);
    const f = build([51, 101, 151]);
    expect([1, 25, 50, 75].map((p) => quantile(f, p / 100))).toEqual([51, 51, 101, 151]);
  });

  it('answers NaN when empty and the one value when single', () => {
    expect(quantile(build([]), 0.5)).toBeNaN();
    expect(quantile(build([7]), 0.99)).toBe(7);
    expect(cdf(build([7]), 7)).toBe(0.5);
  });

  it('keeps its centroids bounded past the exact limit', () => {
    const d = build(Array.from({ length: 50_000 }, (_, i) => i));
    expect(digestCount(d)).toBe(50_000);
    expect(d.means.length).toBeLessThan(200);
    expect(d.min).toBe(0);
    expect(d.max).toBe(49_999);
  });

  it('property: a quantile lies within the rank error TDigest documents, however the values were split into shards', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 6000 }),
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, shards, q) => {
          const parts = Array.from({ length: shards }, (_, s) =>
            build(values.filter((_, i) => i % shards === s)),
          );
          const d = mergeDigests(parts, 100);
          const sorted = [...values].sort((a, b) => a - b);
          const v = quantile(d, q);
          expect(v).toBeGreaterThanOrEqual(sorted[0]!);
          expect(v).toBeLessThanOrEqual(sorted[sorted.length - 1]!);
          // The answer's rank is within a few percent of q (tighter at the tails).
          const [lo, hi] = rankOf(sorted, v);
          const tolerance = 0.03 + 1 / sorted.length;
          expect(lo - tolerance).toBeLessThanOrEqual(q);
          expect(hi + tolerance).toBeGreaterThanOrEqual(q);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: cdf is monotone and between 0 and 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 5000 }),
        (values) => {
          const d = build(values);
          let last = 0;
          for (let x = -1001; x <= 1001; x += 37) {
            const c = cdf(d, x);
            expect(c).toBeGreaterThanOrEqual(last - 1e-12);
            expect(c).toBeLessThanOrEqual(1);
            last = c;
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('takes values one by one or many at once alike', () => {
    const values = Float64Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5000);
    const many = new DigestBuilder(100);
    many.addAll(values.subarray(0, 100));
    many.addAll(values.subarray(100));
    expect(many.build()).toEqual(build(Array.from(values)));
  });

  it('property: sorted runs (or runs that are not) added at once build the digest of the values one by one', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
      fc.integer({ min: -50, max: 50 }),
      fc.constantFrom(0, -0, Number.NaN),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(value, { maxLength: 600 }), fc.boolean()), { maxLength: 8 }),
        fc.constantFrom(10, 100),
        (runs, compression) => {
          const b = new DigestBuilder(compression);
          for (const [vs, sorted] of runs) {
            const a = Float64Array.from(vs);
            b.addSorted(sorted ? a.sort() : a);
          }
          const one = new DigestBuilder(compression);
          for (const [vs] of runs) for (const v of vs) one.add(v);
          // Object.is tells -0 from +0 in the kept values.
          const got = b.build();
          const want = one.build();
          expect(got.means.length).toBe(want.means.length);
          for (const [i, m] of got.means.entries()) expect(Object.is(m, want.means[i])).toBe(true);
          expect(got.weights).toEqual(want.weights);
          expect([got.min, got.max]).toEqual([want.min, want.max]);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('merges sorted runs in the order Float64Array.sort gives: -0 before +0', () => {
    // Enough values, not all integers, for the merge rather than a comparison or counting sort.
    const halves = (from: number) => Array.from({ length: 300 }, (_, i) => from + i + 0.5);
    const b = new DigestBuilder(100);
    b.addSorted(Float64Array.from([0, ...halves(0)]));
    b.addSorted(Float64Array.from([-0, ...halves(1)]));
    const { means } = b.build();
    expect(Object.is(means[0], -0) && Object.is(means[1], 0)).toBe(true);
  });

  it('digestOf and the builder agree', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    expect(digestOf(Float64Array.from(values), values.length, 100)).toEqual(build(values));
  });
});
