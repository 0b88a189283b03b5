import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeAggregations } from './merge.ts';
import { parseAggregations } from './parse-aggs.ts';
import type { AggPartial } from './partial.ts';
import { dates, RAW, terms } from './reduce.test-support.ts';
import { renderAggregations } from './render.ts';

describe('merging', () => {
  const keyArb = fc.constantFrom('a', 'b', 'c', 'd', 'e');
  const termsArb = fc
    .uniqueArray(fc.tuple(keyArb, fc.integer({ min: 1, max: 50 })), { selector: (t) => t[0], maxLength: 5 })
    .map((buckets) => terms(buckets, 100));
  const histArb = fc
    .uniqueArray(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 1, max: 9 })), {
      selector: (t) => t[0],
    })
    .map(
      (bs): AggPartial => ({
        t: 'histogram',
        buckets: bs.sort((a, b) => a[0] - b[0]).map(([k, n]) => ({ key: k * 10, docCount: n, aggs: [] })),
        fmt: RAW,
      }),
    );
  const statsArb = fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 8 }).map(
    (vs): AggPartial => ({
      t: 'stats',
      count: vs.length,
      sum: vs.reduce((s, v) => s + v, 0),
      min: vs.length ? Math.min(...vs) : Infinity,
      max: vs.length ? Math.max(...vs) : -Infinity,
      sumOfSquares: 0,
      fmt: RAW,
    }),
  );
  const cardArb = fc
    .uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 10 })
    .map((vs): AggPartial => ({ t: 'cardinality', values: vs, precision: 14 }));
  const shardArb = fc.tuple(termsArb, histArb, statsArb, cardArb).map((t) => [...t] as AggPartial[]);
  const aggs = {
    t: { terms: { field: 'f', size: 100, shard_size: 100 } },
    h: { histogram: { field: 'n', interval: 10, min_doc_count: 1 } },
    s: { stats: { field: 'n' } },
    c: { cardinality: { field: 'n' } },
  };
  const specs = parseAggregations(aggs).aggs;

  it('is associative and commutative: any grouping and order of shards renders the same', () => {
    fc.assert(
      fc.property(
        fc.array(shardArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 4 }),
        (shards, cut) => {
          const all = renderAggregations(specs, mergeAggregations(specs, shards), { dates });
          const k = Math.min(cut, shards.length);
          const grouped = mergeAggregations(specs, [
            mergeAggregations(specs, shards.slice(k).reverse()),
            mergeAggregations(specs, shards.slice(0, k)),
          ]);
          expect(renderAggregations(specs, grouped, { dates })).toEqual(all);
        },
      ),
    );
  });
});
