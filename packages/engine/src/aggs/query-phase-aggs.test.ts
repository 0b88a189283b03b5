import { mergeAggregations, type QueryNode, renderAggregations, type SortSpec } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import type { ShardQueryRequest } from '../contract.ts';
import { executeQuery } from '../search/query-phase.ts';
import { corpus, ctx, q, sortBy } from '../search/test-corpus.test-support.ts';
import { aggDates } from './agg-dates.ts';
import { specsOf } from './aggs.test-support.ts';

const docs: [string, Record<string, unknown>][] = [];
for (let i = 0; i < 40; i++) docs.push([`d${i}`, { tag: i % 3 === 0 ? 'x' : 'y', n: i }]);
const c = corpus({ tag: { type: 'keyword' }, n: { type: 'integer' } }, docs, 9);

const AGGS = {
  tags: { terms: { field: 'tag' } },
  total: { value_count: { field: 'n' } },
  all: { global: {}, aggs: { count: { value_count: { field: 'n' } } } },
};
const specs = specsOf(AGGS);

function run(extra: Partial<ShardQueryRequest> & { sort?: SortSpec[]; query?: QueryNode }) {
  const req: ShardQueryRequest = {
    query: q.all(),
    sort: [sortBy.score()],
    k: 10,
    trackTotalHitsUpTo: 10000,
    trackScores: false,
    shardIndex: 0,
    aggs: specs,
    ...extra,
  };
  return executeQuery(c.reader, c.mapping, req, ctx);
}

function rendered(result: ReturnType<typeof run>) {
  return renderAggregations(specs, mergeAggregations(specs, [result.aggregations!]), {
    dates: aggDates,
  }) as Record<string, Record<string, unknown>>;
}

const EVERY_DOC = {
  tags: {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: 0,
    buckets: [
      { key: 'y', doc_count: 26 },
      { key: 'x', doc_count: 14 },
    ],
  },
  total: { value: 40 },
  all: { doc_count: 40, count: { value: 40 } },
};

describe('aggregations in the query phase', () => {
  it('see every matching doc whatever the page, the sort and the fast path', () => {
    const cases: Partial<ShardQueryRequest>[] = [
      { k: 0 },
      { k: 3 },
      { k: 0, trackTotalHitsUpTo: -1 },
      { sort: [sortBy.doc()], k: 2, trackTotalHitsUpTo: -1 },
      { sort: [sortBy.doc()], k: 2, searchAfter: [30] },
      { sort: [sortBy.shardDoc('desc')], k: 1, searchAfter: [5] },
      { sort: [sortBy.field('n', 'desc')], k: 2 },
      { sort: [sortBy.field('n')], k: 2, searchAfter: [35] },
      { sort: [sortBy.field('n'), sortBy.doc()], k: 1, trackTotalHitsUpTo: 5 },
      { sort: [sortBy.score(), sortBy.field('n')], k: 2, searchAfter: [1, 20] },
    ];
    for (const extra of cases) {
      const r = run(extra);
      expect(rendered(r), JSON.stringify(extra)).toEqual(EVERY_DOC);
    }
  });

  it('follow the query, and the slice, but not the post_filter; global sees every live doc', () => {
    const matched = rendered(run({ query: q.term('tag', 'x'), k: 1 }));
    expect(matched.total).toEqual({ value: 14 });
    expect(matched.all).toEqual({ doc_count: 40, count: { value: 40 } });

    const filtered = run({ postFilter: q.range('n', { lt: 5 }), k: 100 });
    expect(filtered.totalHits).toBe(5);
    expect(filtered.hits.length).toBe(5);
    expect(rendered(filtered)).toEqual(EVERY_DOC);

    const halves = [0, 1].map((id) => run({ slice: { id, max: 2, context: 'pit' }, k: 0 }));
    const counts = halves.map((h) => rendered(h).total!.value as number);
    expect(counts[0]! + counts[1]!).toBe(40);
    expect(counts[0]).toBeGreaterThan(0);
    const outside = run({ slice: { id: 0, max: 0, context: 'pit' }, k: 0 });
    expect(rendered(outside).total).toEqual({ value: 0 });
  });

  it('leave the result as it was without aggregations', () => {
    const without = run({ aggs: undefined, k: 3 });
    expect('aggregations' in without).toBe(false);
    const withAggs = run({ k: 3 });
    const { aggregations, ...rest } = withAggs;
    expect(aggregations).toBeDefined();
    expect(rest).toEqual(without);
  });
});
