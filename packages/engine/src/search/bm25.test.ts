import { describe, expect, it } from 'vitest';
import { Bm25Scorer, idf } from './bm25.ts';
import { executeQuery } from './query-phase.ts';
import { corpus, ctx, q } from './test-corpus.test-support.ts';

/** Lucene's BM25 in plain double arithmetic, for hand-checking. */
function bm25(freq: number, dl: number, avgdl: number, df: number, n: number, boost = 1): number {
  const w = boost * Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return (w * freq) / (freq + 1.2 * (0.25 + (0.75 * dl) / avgdl));
}

describe('BM25 as Lucene 8+/Elasticsearch 7+ compute it', () => {
  it('gives the well-known single-document score 0.13076457', () => {
    const c = corpus({ title: { type: 'text' } }, [['1', { title: 'hello' }]]);
    const r = c.search(q.match('title', 'hello'));
    // ln(1 + 0.5/1.5) / 2.2: the (k1 + 1) factor of the textbook formula is not applied.
    expect(r.hits[0]!.score).toBe(0.13076457);
    expect(r.maxScore).toBe(0.13076457);
  });

  it('matches hand-computed values with term frequency, norms and idf', () => {
    const c = corpus({ title: { type: 'text' } }, [
      ['1', { title: 'quick brown fox' }],
      ['2', { title: 'quick quick dog' }],
      ['3', { title: 'lazy dog sleeps all day' }],
    ]);
    const avgdl = 11 / 3;
    const r = c.search(q.match('title', 'quick'));
    expect(r.hits.map((h) => h.doc)).toEqual([1, 0]);
    expect(r.hits[0]!.score).toBeCloseTo(bm25(2, 3, avgdl, 2, 3), 6);
    expect(r.hits[1]!.score).toBeCloseTo(bm25(1, 3, avgdl, 2, 3), 6);
    // Two terms add up; a boost multiplies.
    const both = c.search(q.match('title', 'quick dog', { boost: 2 }));
    const d2 = bm25(2, 3, avgdl, 2, 3, 2) + bm25(1, 3, avgdl, 2, 3, 2);
    expect(both.hits[0]!.score).toBeCloseTo(d2, 5);
    const d3 = both.hits.find((h) => h.doc === 2)!;
    expect(d3.score).toBeCloseTo(bm25(1, 5, avgdl, 2, 3, 2), 6);
  });

  it('scores keyword terms without norms (length 1)', () => {
    const c = corpus({ tag: { type: 'keyword' } }, [
      ['1', { tag: 'a' }],
      ['2', { tag: 'b' }],
      ['3', { tag: 'b' }],
    ]);
    const r = c.search(q.term('tag', 'a'));
    expect(r.hits[0]!.score).toBeCloseTo(bm25(1, 1, 1, 1, 3), 6);
  });

  it('uses float arithmetic like BM25Scorer', () => {
    const s = new Bm25Scorer(1, idf(1, 10), { docCount: 10, sumTotalTermFreq: 37 });
    const v = s.score(3, 7);
    expect(Math.fround(v)).toBe(v);
    expect(v).toBeCloseTo(bm25(3, 7, 3.7, 1, 10), 5);
  });

  it('counts deleted docs in the statistics until they are merged away', () => {
    const c = corpus({ title: { type: 'text' } }, [
      ['1', { title: 'a b' }],
      ['2', { title: 'a c' }],
    ]);
    c.engine.write([{ op: 'delete', id: '2' }]);
    c.engine.refresh();
    const reader = c.engine.acquireReader();
    const req = {
      query: q.match('title', 'a'),
      sort: [],
      k: 10,
      trackTotalHitsUpTo: 10000,
      trackScores: false,
      shardIndex: 0,
    };
    const r = executeQuery(reader, c.mapping, req, ctx);
    expect(r.totalHits).toBe(1);
    expect(r.hits[0]!.score).toBeCloseTo(bm25(1, 2, 2, 2, 2), 6);
    c.engine.forceMerge(1);
    const merged = c.engine.acquireReader();
    expect(executeQuery(merged, c.mapping, req, ctx).hits[0]!.score).toBeCloseTo(bm25(1, 2, 2, 1, 1), 6);
    reader.release();
    merged.release();
  });
});
