import type { QueryNode } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus, q } from './test-corpus.test-support.ts';

const c = corpus(
  { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'integer' } },
  [
    ['1', { title: 'quick brown fox', tag: 'quick-one', n: 1 }],
    ['2', { title: 'quick brawny dog', tag: 'quiet' }],
    ['3', { title: 'quiet brown cat', tag: 'brown' }],
    ['4', { title: 'brown quick fox jumps' }],
  ],
  2,
);
const ids = (query: QueryNode) => c.ids(query).sort();
const scores = (query: QueryNode) => c.search(query).hits.map((h) => h.score);

const phrasePrefix = (field: string, query: string, extra: Record<string, unknown> = {}): QueryNode =>
  ({
    type: 'match_phrase_prefix',
    field,
    query,
    slop: 0,
    maxExpansions: 50,
    zeroTermsQuery: 'none',
    boost: 1,
    ...extra,
  }) as QueryNode;
const boolPrefix = (field: string, query: string | number, extra: Record<string, unknown> = {}): QueryNode =>
  ({ type: 'match_bool_prefix', field, query, operator: 'or', boost: 1, ...extra }) as QueryNode;

describe('match_phrase_prefix', () => {
  it('is a phrase whose last term is a prefix', () => {
    expect(ids(phrasePrefix('title', 'quick br'))).toEqual(['1', '2']);
    expect(ids(phrasePrefix('title', 'quick brown f'))).toEqual(['1']);
    expect(ids(phrasePrefix('title', 'brown qu'))).toEqual(['4']);
    expect(ids(phrasePrefix('title', 'brown qu', { slop: 2 }))).toEqual(['1', '3', '4']);
    expect(ids(phrasePrefix('title', 'quick zz'))).toEqual([]);
  });

  it('max_expansions caps the terms of the prefix, smallest first', () => {
    // "brawny" sorts before "brown": one expansion keeps only it.
    expect(ids(phrasePrefix('title', 'quick br', { maxExpansions: 1 }))).toEqual(['2']);
  });

  it('one term is the OR of its expansions, each scored as a term query', () => {
    expect(ids(phrasePrefix('title', 'qui'))).toEqual(['1', '2', '3', '4']);
    const one = scores(phrasePrefix('title', 'quiet'));
    expect(one).toEqual(scores(q.match('title', 'quiet')));
  });

  it('a keyword field takes the whole value as the prefix', () => {
    expect(ids(phrasePrefix('tag', 'qui'))).toEqual(['1', '2']);
    expect(ids(phrasePrefix('tag', 'Qui'))).toEqual([]);
  });
});

describe('match_bool_prefix', () => {
  it('matches the terms, the last one as a prefix, with the operator', () => {
    expect(ids(boolPrefix('title', 'quick br'))).toEqual(['1', '2', '3', '4']);
    expect(ids(boolPrefix('title', 'quick br', { operator: 'and' }))).toEqual(['1', '2', '4']);
    expect(ids(boolPrefix('title', 'fox quick ju', { operator: 'and' }))).toEqual(['4']);
    expect(ids(boolPrefix('title', 'fox quick ca', { minimumShouldMatch: '2' }))).toEqual(['1', '4']);
  });

  it('fuzziness applies to every term but the last', () => {
    expect(ids(boolPrefix('title', 'quikc bra', { operator: 'and' }))).toEqual([]);
    expect(ids(boolPrefix('title', 'quikc bra', { operator: 'and', fuzziness: 'AUTO' }))).toEqual(['2']);
  });

  it('a keyword field is one prefix query; a number a term query', () => {
    expect(ids(boolPrefix('tag', 'qui'))).toEqual(['1', '2']);
    expect(scores(boolPrefix('tag', 'qui', { boost: 2 }))).toEqual([2, 2]);
    expect(ids(boolPrefix('n', 1))).toEqual(['1']);
  });
});
