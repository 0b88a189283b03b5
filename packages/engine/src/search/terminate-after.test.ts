import { type QueryNode, reduceAggregations, type SortSpec } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { aggDates } from '../aggs/agg-dates.ts';
import { specsOf } from '../aggs/aggs.test-support.ts';
import type { ShardQueryRequest } from '../contract.ts';
import { queryShard } from './query-phase.ts';
import { corpus, ctx, q, sortBy } from './test-corpus.test-support.ts';

// 20 docs in four segments of five: d0..d4, d5..d9, …; n = i, tag t0 on even docs.
const c = corpus(
  { n: { type: 'long' }, tag: { type: 'keyword' } },
  Array.from({ length: 20 }, (_, i) => [`d${i}`, { n: i, tag: `t${i % 2}` }]),
  5,
);

function run(extra: Partial<ShardQueryRequest> & { terminateAfter: number }, sort: SortSpec[] = []) {
  const req: ShardQueryRequest = {
    query: q.all(),
    sort: sort.length > 0 ? sort : [sortBy.score()],
    k: 10,
    trackTotalHitsUpTo: 10_000,
    trackScores: false,
    shardIndex: 0,
    ...extra,
  };
  const { result } = queryShard(c.reader, c.mapping, req, ctx);
  return { ...result, docs: result.hits.map((h) => h.doc) };
}

const even: QueryNode = q.term('tag', 't0');

describe('terminate_after in the query phase', () => {
  it('ranks only the first qualifying docs in index order', () => {
    const r = run({ terminateAfter: 3, postFilter: even }, [sortBy.field('n', 'desc')]);
    expect(r.docs).toEqual([4, 2, 0]);
    expect(r.terminatedEarly).toBe(true);
    expect([r.totalHits, r.totalRelation]).toEqual([3, 'eq']);
  });

  it('counts only docs that pass the post_filter and min_score', () => {
    const r = run({ terminateAfter: 2, postFilter: even, query: q.range('n', { gte: 10 }), minScore: 0 }, [
      sortBy.field('n'),
    ]);
    expect(r.docs).toEqual([10, 12]);
    expect(r.terminatedEarly).toBe(true);
  });

  it('stops at the start of a segment once the limit is reached there', () => {
    // d0, d2, d4 qualify, all in the first segment; the next segment starts at the limit.
    const first = run({ terminateAfter: 3, postFilter: q.bool({ filter: [even, q.range('n', { lt: 5 })] }) });
    expect(first.terminatedEarly).toBe(true);
    expect(first.totalHits).toBe(3);
    // d16 and d18 qualify in the last segment: nothing comes after them.
    const last = run({
      terminateAfter: 2,
      postFilter: q.bool({ filter: [even, q.range('n', { gte: 16 })] }),
    });
    expect(last.terminatedEarly).toBe(false);
    expect(last.totalHits).toBe(2);
  });

  it('stays false when fewer docs qualify than the limit', () => {
    const r = run({ terminateAfter: 50, postFilter: even }, [sortBy.field('n')]);
    expect(r.terminatedEarly).toBe(false);
    expect(r.docs).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });

  it('reports the index count when it is known and nothing filters (shortcutTotalHitCount)', () => {
    const r = run({ terminateAfter: 4 }, [sortBy.field('n', 'desc')]);
    expect(r.docs).toEqual([3, 2, 1, 0]);
    expect([r.totalHits, r.totalRelation, r.terminatedEarly]).toEqual([20, 'eq', true]);
  });

  it('marks the total gte as TopScoreDocCollector and TopFieldCollector do', () => {
    const all = { terminateAfter: 7, minScore: 0, trackTotalHitsUpTo: 3 };
    // Score order: gte only once the top k is full as well.
    expect(run({ ...all, k: 10 }).totalRelation).toBe('eq');
    const small = run({ ...all, k: 5 });
    expect([small.totalHits, small.totalRelation]).toEqual([7, 'gte']);
    // Field order: gte as soon as more than track_total_hits were collected.
    expect(run({ ...all, k: 10 }, [sortBy.field('n')]).totalRelation).toBe('gte');
    expect(run({ ...all, trackTotalHitsUpTo: 8 }, [sortBy.field('n')]).totalRelation).toBe('eq');
  });

  it('counts without hits as PartialHitCountCollector does', () => {
    // A known count is taken whole: terminate_after does not apply.
    const known = run({ terminateAfter: 1, k: 0 });
    expect([known.totalHits, known.totalRelation, known.terminatedEarly]).toEqual([20, 'eq', false]);
    const counted = run({ terminateAfter: 5, k: 0, minScore: 0 });
    expect([counted.totalHits, counted.totalRelation, counted.terminatedEarly]).toEqual([5, 'eq', true]);
    const capped = run({ terminateAfter: 5, k: 0, minScore: 0, trackTotalHitsUpTo: 3 });
    expect([capped.totalHits, capped.totalRelation, capped.terminatedEarly]).toEqual([3, 'gte', false]);
    const off = run({ terminateAfter: 5, k: 0, minScore: 0, trackTotalHitsUpTo: -1 });
    expect([off.totalHits, off.totalRelation, off.terminatedEarly]).toEqual([0, 'gte', false]);
  });

  it('aggregates every doc before the stop, the post_filter notwithstanding', () => {
    const aggs = specsOf({ c: { value_count: { field: 'n' } }, s: { sum: { field: 'n' } } });
    // d0 and d2 qualify; d4 would be the third, so the aggregations see d0..d3.
    const r = run({ terminateAfter: 2, postFilter: even, aggs });
    expect(r.terminatedEarly).toBe(true);
    const out = reduceAggregations(aggs, [structuredClone(r.aggregations!)], { dates: aggDates }) as Record<
      string,
      { value: number }
    >;
    expect([out.c!.value, out.s!.value]).toEqual([4, 6]);
  });

  it('leaves searches without terminate_after unmarked', () => {
    const { result } = queryShard(
      c.reader,
      c.mapping,
      {
        query: q.all(),
        sort: [sortBy.score()],
        k: 3,
        trackTotalHitsUpTo: 10,
        trackScores: false,
        shardIndex: 0,
      },
      ctx,
    );
    expect('terminatedEarly' in result).toBe(false);
  });
});
