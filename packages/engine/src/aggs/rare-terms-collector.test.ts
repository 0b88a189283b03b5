import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  { tag: { type: 'keyword' }, n: { type: 'long' }, d: { type: 'double' } },
  [
    ['1', { tag: ['a', 'b'], n: 1, d: 1.5 }],
    ['2', { tag: 'a', n: 2 }],
    ['3', { tag: 'c', n: 2 }],
    ['4', { tag: 'a', n: 3 }],
    ['5', { tag: 'd' }],
  ],
  1,
);

describe('rare_terms collector', () => {
  it('keeps the terms at most max_doc_count docs hold, with their sub-aggregations', () => {
    const out = aggregate(c, { r: { rare_terms: { field: 'tag' }, aggs: { s: { sum: { field: 'n' } } } } });
    expect(bucketsOf(out, 'r')).toEqual([
      { key: 'b', doc_count: 1, s: { value: 1 } },
      { key: 'c', doc_count: 1, s: { value: 2 } },
      { key: 'd', doc_count: 1, s: { value: 0 } },
    ]);
  });

  it('counts docs without a value under missing', () => {
    const out = aggregate(c, { r: { rare_terms: { field: 'n', missing: 9 } } });
    expect(bucketsOf(out, 'r').map((b) => [b.key, b.doc_count])).toEqual([
      [1, 1],
      [3, 1],
      [9, 1],
    ]);
  });

  it('filters numbers with include and exclude, and refuses floating-point fields', () => {
    const out = aggregate(c, { r: { rare_terms: { field: 'n', max_doc_count: 2, exclude: [3] } } });
    expect(bucketsOf(out, 'r').map((b) => [b.key, b.doc_count])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(() => aggregate(c, { r: { rare_terms: { field: 'd' } } })).toThrow(
      'RareTerms aggregation does not support floating point fields.',
    );
  });
});
