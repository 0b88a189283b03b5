import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  { num: { type: 'integer' } },
  [
    ['1', { num: [1, 2] }],
    ['2', { num: [2, 3] }],
    ['3', { num: [3, 4] }],
    ['4', { num: [1, 2, 4] }],
  ],
  2,
);

const term = (n: number) => ({ term: { num: n } });

describe('adjacency_matrix collector', () => {
  it('counts each filter and each intersection, lists the non-empty ones by key', () => {
    const out = aggregate(c, {
      m: {
        adjacency_matrix: { filters: { 4: term(4), 1: term(1), 2: term(2) } },
        aggs: { n: { value_count: { field: 'num' } } },
      },
    });
    expect(bucketsOf(out, 'm').map((b) => [b.key, b.doc_count, (b.n as { value: number }).value])).toEqual([
      ['1', 2, 5],
      ['1&2', 2, 5],
      ['1&4', 1, 3],
      ['2', 3, 7],
      ['2&4', 1, 3],
      ['4', 2, 5],
    ]);
  });

  it('joins keys with the separator, inside another bucket aggregation', () => {
    const out = aggregate(c, {
      f: {
        filter: { range: { num: { gte: 3 } } },
        aggs: { m: { adjacency_matrix: { separator: '+', filters: { a: term(3), b: term(4) } } } },
      },
    });
    const m = (out.f as Record<string, Record<string, unknown>>).m!;
    expect((m.buckets as Record<string, unknown>[]).map((b) => [b.key, b.doc_count])).toEqual([
      ['a', 2],
      ['a+b', 1],
      ['b', 2],
    ]);
  });
});
