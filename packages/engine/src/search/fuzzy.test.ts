import type { QueryNode } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { fuzzyEdits } from './fuzzy.ts';
import { corpus, q } from './test-corpus.test-support.ts';

const c = corpus(
  {
    title: { type: 'text' },
    tag: { type: 'keyword' },
    n: { type: 'integer' },
  },
  [
    ['1', { title: 'brown fox', tag: 'Brown', n: 1 }],
    ['2', { title: 'brawn', tag: 'brawn' }],
    ['3', { title: 'brown dog' }],
    ['4', { title: 'crown jewels' }],
    ['5', { title: 'quick brown' }],
    ['6', { title: 'borwn' }],
  ],
  2,
);
const ids = (query: QueryNode) => c.ids(query).sort();
const scores = (query: QueryNode) => {
  const hits = c.search(query).hits;
  const ids = c.ids(query);
  return new Map(hits.map((h, i) => [ids[i]!, h.score]));
};

const fuzzy = (field: string, value: string, extra: Record<string, unknown> = {}): QueryNode =>
  ({
    type: 'fuzzy',
    field,
    value,
    fuzziness: 'AUTO',
    prefixLength: 0,
    maxExpansions: 50,
    transpositions: true,
    boost: 1,
    ...extra,
  }) as QueryNode;

describe('fuzziness', () => {
  it('AUTO allows no edit below 3 characters, one below 6 and two from 6 on', () => {
    expect([fuzzyEdits('AUTO', 'ab'), fuzzyEdits('AUTO', 'abc'), fuzzyEdits('AUTO', 'abcde')]).toEqual([
      0, 1, 1,
    ]);
    expect(fuzzyEdits('AUTO', 'abcdef')).toBe(2);
    expect([
      fuzzyEdits('AUTO:2,4', 'a'),
      fuzzyEdits('AUTO:2,4', 'ab'),
      fuzzyEdits('AUTO:2,4', 'abcd'),
    ]).toEqual([0, 1, 2]);
    expect([fuzzyEdits('0', 'abcdef'), fuzzyEdits('1', 'a'), fuzzyEdits('2', 'ab')]).toEqual([0, 1, 2]);
  });

  it('match with fuzziness matches every term within the edits of an analysed term', () => {
    expect(ids(q.match('title', 'brwn'))).toEqual([]);
    expect(ids(q.match('title', 'Brwn', { fuzziness: 'AUTO' }))).toEqual(['1', '2', '3', '5', '6']);
    // "borwn" is one transposition from "brown"; "crown" one substitution.
    expect(ids(q.match('title', 'brown', { fuzziness: '1' }))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ids(q.match('title', 'brown', { fuzziness: '1', fuzzyTranspositions: false }))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(ids(q.match('title', 'brown', { fuzziness: '0' }))).toEqual(['1', '3', '5']);
    expect(ids(q.match('title', 'brwn fix', { fuzziness: 'AUTO', operator: 'and' }))).toEqual(['1']);
  });

  it('prefix_length keeps the first characters exact', () => {
    expect(ids(q.match('title', 'brown', { fuzziness: '1', prefixLength: 1 }))).toEqual([
      '1',
      '2',
      '3',
      '5',
      '6',
    ]);
    expect(ids(q.match('title', 'brown', { fuzziness: '1', prefixLength: 3 }))).toEqual(['1', '3', '5']);
    expect(ids(q.match('title', 'brawn', { fuzziness: '1', prefixLength: 5 }))).toEqual(['2']);
  });

  it('max_expansions keeps the closest terms, the smaller term first on a tie', () => {
    // From "brown": brown (boost 1), then borwn, brawn, crown at 0.8; one expansion is "brown".
    expect(ids(q.match('title', 'brown', { fuzziness: '1', maxExpansions: 1 }))).toEqual(['1', '3', '5']);
    expect(ids(q.match('title', 'brown', { fuzziness: '1', maxExpansions: 2 }))).toEqual([
      '1',
      '3',
      '5',
      '6',
    ]);
  });

  it('scores each expansion by its boost with the document frequency blended to the highest', () => {
    const s = scores(q.match('title', 'brown', { fuzziness: '1' }));
    const exact = scores(q.match('title', 'brown'));
    // "brown" is the most frequent expansion, so it keeps its own score.
    expect(s.get('1')).toBe(exact.get('1'));
    // "brawn" (df 1) is scored with the df of "brown" (3 of 6 documents) and the boost 0.8.
    const own = scores(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'top_terms_10' }));
    const idf = (n: number) => Math.log(1 + (6 - n + 0.5) / (n + 0.5));
    expect(s.get('2')! / own.get('2')!).toBeCloseTo(idf(3) / idf(1), 5);
    expect(s.get('2')).toBe(s.get('6'));
    // top_terms_N scores each term with its own document frequency: the rare term scores higher.
    expect(own.get('2')!).toBeGreaterThan(s.get('2')!);
    expect(own.get('1')).toBe(s.get('1'));
  });

  it('the other rewrite methods', () => {
    const constant = scores(
      q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'constant_score', boost: 2 }),
    );
    expect([...constant.values()]).toEqual([2, 2, 2, 2, 2, 2]);
    const boostOnly = scores(
      q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'top_terms_boost_10' }),
    );
    expect(boostOnly.get('1')).toBe(1);
    expect(boostOnly.get('2')).toBeCloseTo(0.8, 7);
    expect(
      scores(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'top_terms_boost_1' })).size,
    ).toBe(3);
    const scoring = scores(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'scoring_boolean' }));
    const topTerms = scores(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'top_terms_50' }));
    expect(scoring).toEqual(topTerms);
    const cb = scores(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'constant_score_boolean' }));
    expect([...cb.values()]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(() => c.search(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'nonsense' }))).toThrow(
      'Failed to parse rewrite_method [nonsense]',
    );
    expect(() =>
      c.search(q.match('title', 'brown', { fuzziness: '1', fuzzyRewrite: 'top_terms_1x' })),
    ).toThrow('For input string: "1x"');
  });

  it('keyword fields match the whole value within the edits; other types fail unless lenient', () => {
    expect(ids(q.match('tag', 'brown', { fuzziness: 'AUTO' }))).toEqual(['1', '2']);
    expect(ids(q.match('tag', 'brown', { fuzziness: '0' }))).toEqual([]);
    expect(() => c.search(q.match('n', 1, { fuzziness: 'AUTO' }))).toThrow(
      'Can only use fuzzy queries on keyword and text fields - not on [n] which is of type [integer]',
    );
    expect(ids(q.match('n', 1, { fuzziness: 'AUTO', lenient: true }))).toEqual([]);
  });

  it('the fuzzy query takes its value as the indexed term, without analysis', () => {
    expect(ids(fuzzy('title', 'brwn'))).toEqual(['1', '2', '3', '5', '6']);
    // Not lowercased: "Brwn" is two edits from "brown".
    expect(ids(fuzzy('title', 'Brwn'))).toEqual([]);
    expect(ids(fuzzy('title', 'Brwn', { fuzziness: '2' }))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ids(fuzzy('tag', 'brawn', { fuzziness: '0' }))).toEqual(['2']);
    expect(ids(fuzzy('missing', 'brown'))).toEqual([]);
    expect(scores(fuzzy('title', 'brwn', { boost: 3, rewrite: 'constant_score' })).get('1')).toBe(3);
    expect(() => c.search(fuzzy('title', 'brwn', { maxExpansions: 0 }))).toThrow(
      'maxExpansions must be positive.',
    );
    expect(() => c.search(fuzzy('title', 'brwn', { prefixLength: -1 }))).toThrow(
      'prefixLength cannot be negative.',
    );
  });

  it('multi_match best_fields and bool_prefix apply fuzziness per field', () => {
    expect(ids(q.multi(['title', 'tag'], 'brwn', { fuzziness: 'AUTO' }))).toEqual(['1', '2', '3', '5', '6']);
    expect(
      ids(q.multi(['title'], 'brwn qui', { fuzziness: 'AUTO', matchType: 'bool_prefix', operator: 'and' })),
    ).toEqual(['5']);
  });

  it('simple_query_string takes its fuzzy options', () => {
    const fields = [{ field: 'title', boost: 1 }];
    expect(ids(q.sqs('Brown~1', { fields }))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ids(q.sqs('Brown~1', { fields, fuzzyPrefixLength: 2 }))).toEqual(['1', '2', '3', '5']);
    expect(ids(q.sqs('Brown~1', { fields, fuzzyTranspositions: false }))).toEqual(['1', '2', '3', '4', '5']);
    expect(ids(q.sqs('Brown~1', { fields, fuzzyMaxExpansions: 1 }))).toEqual(['1', '3', '5']);
  });
});
