import type { QueryNode, SortSpec } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import type { ScrollPosition, ShardQueryRequest } from '../contract.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { queryShard } from './query-phase.ts';
import { parseSearchAfter } from './search-after.ts';
import { LONG_MAX, LONG_MIN } from './sort-values.ts';
import { corpus, ctx, q, sortBy } from './test-corpus.test-support.ts';

const docs: [string, Record<string, unknown>][] = Array.from({ length: 80 }, (_, i) => [
  `d${i}`,
  {
    n: i % 9 === 0 ? undefined : i % 5,
    title: i % 4 === 0 ? 'red fox' : i % 4 === 1 ? 'red red fox jumps' : 'blue whale',
    tag: `t${i % 3}`,
  },
]);
const props = {
  n: { type: 'long' as const },
  title: { type: 'text' as const },
  tag: { type: 'keyword' as const },
};
const c = corpus(props, docs, 13);

function req(query: QueryNode, sort: SortSpec[], k: number, extra: Partial<ShardQueryRequest> = {}) {
  return { query, sort, k, trackTotalHitsUpTo: 2147483647, trackScores: false, shardIndex: 0, ...extra };
}

function idOf(reader: ShardReader, doc: number): string {
  for (const s of reader.segments) {
    if (doc >= s.docBase && doc < s.docBase + s.segment.maxDoc) return s.segment.stored.ids[doc - s.docBase]!;
  }
  throw new Error(`no doc ${doc}`);
}

/** A scroll's walk: each page resumes strictly after the last position of the previous one. */
function walk(query: QueryNode, sort: SortSpec[], page: number): string[] {
  const out: string[] = [];
  let after: ScrollPosition | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const r = queryShard(
      c.reader,
      c.mapping,
      req(query, sort, page, after ? { resumeAfter: after } : {}),
      ctx,
    );
    if (r.result.hits.length === 0) return out;
    out.push(...r.result.hits.map((h) => idOf(c.reader, h.doc)));
    after = r.positions[r.positions.length - 1];
  }
  throw new Error('walk did not end');
}

describe('resuming after a position (scroll pages)', () => {
  const cases: [string, QueryNode, SortSpec[]][] = [
    ['field with ties and missing values', q.all(), [sortBy.field('n')]],
    ['field desc, missing first', q.all(), [sortBy.field('n', 'desc', { missing: '_first' })]],
    ['two keys', q.match('title', 'red'), [sortBy.field('tag', 'desc'), sortBy.field('n')]],
    ['score (ties)', q.match('title', 'red fox'), [sortBy.score()]],
    ['doc order', q.match('title', 'fox'), [sortBy.doc()]],
    ['doc order, match_all', q.all(), [sortBy.doc('desc')]],
  ];
  for (const [name, query, sort] of cases) {
    it(`walks every hit once, in the one-page order: ${name}`, () => {
      const whole = queryShard(c.reader, c.mapping, req(query, sort, 1000), ctx).result.hits.map((h) =>
        idOf(c.reader, h.doc),
      );
      expect(whole.length).toBeGreaterThan(10);
      for (const page of [1, 3, 7]) expect(walk(query, sort, page)).toEqual(whole);
    });
  }
});

describe('the lone _doc / _shard_doc sort', () => {
  it('reads from the search_after position and stops early when the total is not tracked', () => {
    const query = q.match('title', 'fox');
    const whole = queryShard(
      c.reader,
      c.mapping,
      req(query, [sortBy.shardDoc()], 1000, { shardIndex: 1 }),
      ctx,
    );
    const all = whole.result.hits;
    expect(whole.result.totalHits).toBe(all.length);
    const after = all[9]!.sort[0] as bigint;
    expect(after >> 32n).toBe(1n);
    const page = queryShard(
      c.reader,
      c.mapping,
      req(query, [sortBy.shardDoc()], 5, { shardIndex: 1, searchAfter: [after], trackTotalHitsUpTo: -1 }),
      ctx,
    ).result;
    expect(page.hits.map((h) => h.doc)).toEqual(all.slice(10, 15).map((h) => h.doc));
    expect(Number.isNaN(page.maxScore)).toBe(true);
    // Past a later shard's value there is nothing here; before an earlier shard's, everything.
    const later = req(query, [sortBy.shardDoc()], 5, { shardIndex: 1, searchAfter: [(2n << 32n) | 0n] });
    expect(queryShard(c.reader, c.mapping, later, ctx).result.hits).toEqual([]);
    const earlier = req(query, [sortBy.shardDoc('desc')], 3, {
      shardIndex: 1,
      searchAfter: [(2n << 32n) | 5n],
    });
    expect(queryShard(c.reader, c.mapping, earlier, ctx).result.hits.map((h) => h.doc)).toEqual(
      all
        .slice(-3)
        .map((h) => h.doc)
        .reverse(),
    );
  });

  it('counts only as far as track_total_hits asks, then says gte', () => {
    const r = queryShard(
      c.reader,
      c.mapping,
      req(q.match('title', 'fox'), [sortBy.doc()], 2, { trackTotalHitsUpTo: 3 }),
      ctx,
    ).result;
    expect(r.hits).toHaveLength(2);
    expect(r.totalRelation).toBe('gte');
    expect(r.totalHits).toBeGreaterThan(3);
  });
});

describe('search_after long values', () => {
  it('saturate as Java does, so a Long.MAX read back as a double still means Long.MAX', () => {
    const sort = [sortBy.field('n')];
    expect(parseSearchAfter([9223372036854776000], sort, c.mapping)).toEqual([LONG_MAX]);
    expect(parseSearchAfter([92233720368547758070n], sort, c.mapping)).toEqual([LONG_MAX]);
    expect(parseSearchAfter(['-99999999999999999999'], sort, c.mapping)).toEqual([LONG_MIN]);
  });
});
