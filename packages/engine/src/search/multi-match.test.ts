import { describe, expect, it } from 'vitest';
import { encodeNorm } from '../index/norms.ts';
import { Bm25Scorer, idf } from './bm25.ts';
import { fieldStats } from './term-stats.ts';
import { corpus, q } from './test-corpus.test-support.ts';

/** Hits carry the float score in its shortest decimal form; this is the float it stands for. */
const float = Math.fround;
const crossFields = (fields: string[], query: string, extra: Record<string, unknown> = {}) =>
  q.multi(fields, query, { matchType: 'cross_fields', ...extra });

describe('multi_match cross_fields blends term statistics as BlendedTermQuery.blend does', () => {
  // "smith" is in 3 docs' first, 2 docs' last and 1 doc's nick; every field value is one token.
  const people = corpus({ first: { type: 'text' }, last: { type: 'text' }, nick: { type: 'text' } }, [
    ['f1', { first: 'smith', last: 'a', nick: 'p' }],
    ['f2', { first: 'smith', last: 'b', nick: 'q' }],
    ['f3', { first: 'smith', last: 'c', nick: 'r' }],
    ['l1', { first: 'x', last: 'smith', nick: 's' }],
    ['l2', { first: 'y', last: 'smith', nick: 't' }],
    ['n1', { first: 'z', last: 'd', nick: 'smith' }],
  ]);
  /** BM25 of one occurrence in a one-token field, with the given document frequency. */
  const expected = (df: number, boost = 1) =>
    new Bm25Scorer(boost, idf(df, 6), fieldStats(people.reader, 'first')).score(1, encodeNorm(1));
  const scoresById = (r: ReturnType<typeof people.search>) => {
    const ids = people.ids(crossFields(['first', 'last', 'nick'], 'smith'));
    return Object.fromEntries(r.hits.map((h, i) => [ids[i], h.score]));
  };

  it('gives the most frequent field the highest df and each rarer field one more per step', () => {
    const r = people.search(crossFields(['first', 'last', 'nick'], 'smith'));
    const s = scoresById(r);
    // first keeps 3; last (2 < 3) gets 3 + 1; nick (1 < 2) gets 3 + 2.
    expect(float(s.f1)).toBe(expected(3));
    expect(float(s.f2)).toBe(expected(3));
    expect(float(s.l1)).toBe(expected(4));
    expect(float(s.n1)).toBe(expected(5));
    expect(expected(3)).toBeGreaterThan(expected(4));
    expect(people.ids(crossFields(['first', 'last', 'nick'], 'smith'))).toEqual([
      'f1',
      'f2',
      'f3',
      'l1',
      'l2',
      'n1',
    ]);
  });

  it('ranks fields of equal document frequency equally', () => {
    const twins = corpus({ a: { type: 'text' }, b: { type: 'text' } }, [
      ['1', { a: 'smith', b: 'x' }],
      ['2', { a: 'y', b: 'smith' }],
    ]);
    const hits = twins.search(crossFields(['a', 'b'], 'smith')).hits;
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBe(hits[1]!.score);
  });

  it('keeps the statistics of a group of one field', () => {
    const alone = people.search(crossFields(['nick'], 'smith')).hits[0]!.score;
    expect(alone).toBe(people.search(q.match('nick', 'smith')).hits[0]!.score);
    expect(float(alone)).toBe(expected(1));
  });

  it('applies field boosts after blending', () => {
    const r = people.search(crossFields(['first', 'last^2'], 'smith'));
    const byId = Object.fromEntries(
      people.ids(crossFields(['first', 'last^2'], 'smith')).map((id, i) => [id, r.hits[i]!.score]),
    );
    expect(float(byId.l1!)).toBe(expected(4, 2));
    expect(float(byId.f1!)).toBe(expected(3));
  });

  it('caps the df at maxDoc lowered to the smallest sum of term frequencies of the matching fields', () => {
    // `code` has one token in the whole shard: maxDoc becomes 1, so every blended df is 1.
    const c = corpus({ body: { type: 'text' }, code: { type: 'text' } }, [
      ['1', { body: 'smith one two', code: 'smith' }],
      ['2', { body: 'smith three' }],
      ['3', { body: 'smith four five' }],
      ['4', { body: 'other words here' }],
    ]);
    const r = c.search(crossFields(['body', 'code'], 'smith'));
    const ids = c.ids(crossFields(['body', 'code'], 'smith'));
    const score = (id: string) => r.hits[ids.indexOf(id)]!.score;
    const body = fieldStats(c.reader, 'body');
    expect(float(score('2'))).toBe(new Bm25Scorer(1, idf(1, body.docCount), body).score(1, encodeNorm(2)));
    expect(float(score('3'))).toBe(new Bm25Scorer(1, idf(1, body.docCount), body).score(1, encodeNorm(3)));
    // A field without the term does not lower maxDoc.
    const other = c.search(crossFields(['body', 'code'], 'three')).hits[0]!.score;
    expect(other).toBe(c.search(q.match('body', 'three')).hits[0]!.score);
  });
});
