import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AggPartial, HistogramPartial, SumPartial } from './partial.ts';
import { RAW, reduce } from './reduce.test-support.ts';

/** Shards' histogram partials: per key, a doc count and the sum of a `v` metric. */
const histogramShards = fc
  .array(
    fc.uniqueArray(
      fc.tuple(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: -50, max: 50 }),
      ),
      {
        selector: (t) => t[0],
        maxLength: 8,
      },
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((shards) =>
    shards.map((bs): AggPartial[] => [
      {
        t: 'histogram',
        buckets: [...bs]
          .sort((a, b) => a[0] - b[0])
          .map(([k, n, sum]) => ({ key: k, docCount: n, aggs: [{ t: 'sum', sum, fmt: RAW }] })),
        fmt: RAW,
      },
    ]),
  );

type Bucket = { key: number; doc_count: number } & Record<string, { value: number | null; keys?: string[] }>;

/** The parent buckets as the reduce renders them: empty keys filled, sums merged. */
function parentBuckets(shards: AggPartial[][]): { key: number; count: number; sum: number }[] {
  const byKey = new Map<number, { count: number; sum: number }>();
  for (const s of shards) {
    const h = s[0] as HistogramPartial;
    for (const b of h.buckets) {
      const acc = byKey.get(b.key) ?? { count: 0, sum: 0 };
      acc.count += b.docCount;
      acc.sum += (b.aggs[0] as SumPartial).sum;
      byKey.set(b.key, acc);
    }
  }
  if (byKey.size === 0) return [];
  const keys = [...byKey.keys()];
  const out = [];
  for (let k = Math.min(...keys); k <= Math.max(...keys); k++) {
    const b = byKey.get(k);
    out.push({ key: k, count: b?.count ?? 0, sum: b?.sum ?? 0 });
  }
  return out;
}

const AGGS = (subs: Record<string, unknown>, siblings: Record<string, unknown> = {}) => ({
  h: { histogram: { field: 'x', interval: 1 }, aggs: { v: { sum: { field: 'y' } }, ...subs } },
  ...siblings,
});

describe('pipelines equal their definitions over the parent buckets', () => {
  it('property: sibling bucket metrics', () => {
    fc.assert(
      fc.property(histogramShards, (shards) => {
        const out = reduce(
          AGGS(
            {},
            {
              avg: { avg_bucket: { buckets_path: 'h>v' } },
              sum: { sum_bucket: { buckets_path: 'h>v' } },
              max: { max_bucket: { buckets_path: 'h>v' } },
              min: { min_bucket: { buckets_path: 'h>_count' } },
              stats: { stats_bucket: { buckets_path: 'h>v', gap_policy: 'insert_zeros' } },
              p50: { percentiles_bucket: { buckets_path: 'h>v', percents: [50] } },
            },
          ),
          shards,
        ) as Record<string, Record<string, unknown>>;
        const parents = parentBuckets(shards);
        // Empty buckets are gaps, skipped by default.
        const present = parents.filter((b) => b.count > 0);
        const sums = present.map((b) => b.sum);
        const total = sums.reduce((s, v) => s + v, 0);
        expect(out.sum!.value).toBe(total);
        if (present.length === 0) {
          expect(out.avg!.value).toBeNull();
          expect(out.max!.value).toBeNull();
          return;
        }
        expect(out.avg!.value).toBeCloseTo(total / present.length, 9);
        const max = Math.max(...sums);
        expect(out.max).toEqual({
          value: max,
          keys: present.filter((b) => b.sum === max).map((b) => String(b.key)),
        });
        const minCount = Math.min(...parents.map((b) => b.count));
        expect(out.min!.value).toBe(minCount);
        // insert_zeros: every parent bucket counts, an empty one as 0.
        expect(out.stats!.count).toBe(parents.length);
        expect(out.stats!.sum).toBe(total);
        const sorted = [...sums].sort((a, b) => a - b);
        expect((out.p50!.values as Record<string, number>)['50.0']).toBe(
          sorted[Math.round(0.5 * (sorted.length - 1))],
        );
      }),
      { numRuns: 100 },
    );
  });

  it('property: cumulative_sum, derivative, serial_diff, bucket_sort, normalize', () => {
    fc.assert(
      fc.property(histogramShards, fc.integer({ min: 1, max: 3 }), (shards, lag) => {
        const out = reduce(
          AGGS({
            cum: { cumulative_sum: { buckets_path: 'v' } },
            d: { derivative: { buckets_path: '_count' } },
            sd: { serial_diff: { buckets_path: 'v', lag, gap_policy: 'insert_zeros' } },
            n: { normalize: { buckets_path: '_count', method: 'rescale_0_1' } },
          }),
          shards,
        ) as Record<string, { buckets: Bucket[] }>;
        const parents = parentBuckets(shards);
        const buckets = out.h!.buckets;
        expect(buckets.map((b) => b.key)).toEqual(parents.map((b) => b.key));
        const counts = parents.map((b) => b.count);
        const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
        let cum = 0;
        buckets.forEach((b, i) => {
          cum += parents[i]!.sum;
          expect(b.cum!.value).toBe(cum);
          if (i === 0) expect(b.d).toBeUndefined();
          else expect(b.d!.value).toBe(parents[i]!.count - parents[i - 1]!.count);
          if (i < lag) expect(b.sd).toBeUndefined();
          else expect(b.sd!.value).toBe(parents[i]!.sum - parents[i - lag]!.sum);
          const norm = (parents[i]!.count - lo) / (hi - lo);
          if (Number.isFinite(norm)) expect(b.n!.value).toBeCloseTo(norm, 12);
          else expect(b.n!.value).toBeNull();
        });
        const sorted = reduce(
          AGGS({ s: { bucket_sort: { sort: [{ _count: 'desc' }], size: 2 } } }),
          shards,
        ) as Record<string, { buckets: Bucket[] }>;
        const want = [...parents]
          .sort((a, b) => b.count - a.count)
          .slice(0, 2)
          .map((b) => b.count);
        expect(sorted.h!.buckets.map((b) => b.doc_count)).toEqual(want);
      }),
      { numRuns: 100 },
    );
  });
});
