import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketBounds, bucketOf, HdrBuilder, hdrPercentile, hdrRank, mergeHdr } from './hdr-histogram.ts';

const build = (values: number[], digits = 3) => {
  const b = new HdrBuilder(digits);
  for (const v of values) b.add(v);
  return b.build();
};

describe('hdr histogram', () => {
  it('answers the highest equivalent values Elasticsearch pins', () => {
    const h = build([1, 51, 101, 151]);
    const got = [1, 25, 50, 75, 95].map((p) => hdrPercentile(h, p));
    const want = [1, 1, 51.03, 101.06, 151.12];
    for (const [i, v] of got.entries()) expect(Math.abs(v - want[i]!)).toBeLessThan(0.01);
    expect(hdrRank(h, 50)).toBe(25);
    expect(hdrRank(h, 200)).toBe(100);
  });

  it('refuses negative values', () => {
    expect(() => build([-1])).toThrow(RangeError);
  });

  it('property: a value lies in its bucket, whose width is within 10^-digits of it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e12, noNaN: true }),
        fc.integer({ min: 0, max: 5 }),
        (v, digits) => {
          const [low, high] = bucketBounds(bucketOf(v, digits), digits);
          expect(low).toBeLessThanOrEqual(v * (1 + 1e-12));
          expect(high).toBeGreaterThan(v * (1 - 1e-12));
          if (digits > 0) expect((high - low) / v).toBeLessThanOrEqual(2 * 10 ** -digits + 1e-12);
        },
      ),
    );
  });

  it('property: merging shard histograms equals one histogram of all values', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100000 }), { maxLength: 300 }), (values) => {
        const a = build(values.filter((_, i) => i % 2 === 0));
        const b = build(values.filter((_, i) => i % 2 === 1));
        const all = build(values);
        const merged = mergeHdr([a, b], 3);
        expect(merged.zeros).toBe(all.zeros);
        expect(merged.buckets).toEqual(all.buckets);
        expect(merged.counts).toEqual(all.counts);
      }),
    );
  });
});
