import { mergeAggregations, renderAggregations } from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggDates } from './agg-dates.ts';
import { partialsOf, specsOf } from './aggs.test-support.ts';

const FIELDS = {
  tag: { type: 'keyword' },
  n: { type: 'integer' },
  price: { type: 'long' },
  ts: { type: 'date' },
} as const;

const docArb = fc.record(
  {
    tag: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 2 }),
    n: fc.array(fc.integer({ min: -30, max: 60 }), { maxLength: 2 }),
    price: fc.integer({ min: 0, max: 1000 }),
    ts: fc.integer({ min: 0, max: 20 }).map((d) => new Date(Date.UTC(2020, 0, 1 + d, d % 24)).toISOString()),
  },
  { requiredKeys: [] },
);

const AGGS = {
  tags: {
    terms: { field: 'tag', size: 50, shard_size: 1000 },
    aggs: { p: { avg: { field: 'price' } }, n: { max: { field: 'n' } } },
  },
  hist: { histogram: { field: 'n', interval: 7, offset: 2 }, aggs: { c: { cardinality: { field: 'tag' } } } },
  days: {
    date_histogram: { field: 'ts', calendar_interval: 'day' },
    aggs: { s: { stats: { field: 'price' } } },
  },
  stats: { stats: { field: 'price' } },
  distinct: { cardinality: { field: 'n' } },
  ranges: { range: { field: 'price', ranges: [{ to: 100 }, { from: 100, to: 500 }, { from: 400 }] } },
  filters: {
    filters: {
      filters: { a: { term: { tag: 'a' } }, cheap: { range: { price: { lt: 50 } } } },
      other_bucket: true,
    },
  },
  pairs: {
    composite: {
      size: 1000,
      sources: [
        { t: { terms: { field: 'tag', missing_bucket: true } } },
        { n: { histogram: { field: 'n', interval: 20 } } },
      ],
    },
  },
};

/** Docs as [id, source], without the empty arrays a doc would not have sent. */
function sources(docs: Record<string, unknown>[]): [string, Record<string, unknown>][] {
  return docs.map((d, i) => [
    String(i),
    Object.fromEntries(Object.entries(d).filter(([, v]) => !(Array.isArray(v) && v.length === 0))),
  ]);
}

describe('shards reduce to what one shard holding every doc computes', () => {
  it('terms, histograms, stats, cardinality, ranges, filters and composite', () => {
    const specs = specsOf(AGGS);
    fc.assert(
      fc.property(fc.array(docArb, { maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (docs, shards) => {
        const all = sources(docs);
        const whole = corpus(FIELDS, all, 7);
        const expected = renderAggregations(specs, [...partialsOf(whole, specs)], { dates: aggDates });
        const parts = [];
        for (let s = 0; s < shards; s++) {
          const mine = all.filter((_, i) => i % shards === s);
          parts.push(structuredClone(partialsOf(corpus(FIELDS, mine, 3), specs)));
        }
        const reduced = renderAggregations(specs, mergeAggregations(specs, parts), { dates: aggDates });
        expect(reduced).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});
