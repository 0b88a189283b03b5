import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  { tag: { type: 'keyword' }, n: { type: 'long' }, d: { type: 'double' }, ip: { type: 'ip' } },
  [
    ['1', { tag: ['a', 'b'], n: [1, 2], d: 1.5, ip: '10.0.0.2' }],
    ['2', { tag: 'a', n: 1, d: 1.5, ip: '10.0.0.10' }],
    ['3', { tag: 'c', n: 1 }],
    ['4', { tag: 'a' }],
  ],
  1,
);

const rows = (out: Record<string, Record<string, unknown>>, name: string) =>
  bucketsOf(out, name).map((b) => [b.key, b.key_as_string, b.doc_count]);

describe('multi_terms collector', () => {
  it('counts every combination of a multi-valued doc once, skipping docs without a value', () => {
    const out = aggregate(c, { m: { multi_terms: { terms: [{ field: 'tag' }, { field: 'n' }] } } });
    expect(rows(out, 'm')).toEqual([
      [['a', 1], 'a|1', 2],
      [['a', 2], 'a|2', 1],
      [['b', 1], 'b|1', 1],
      [['b', 2], 'b|2', 1],
      [['c', 1], 'c|1', 1],
    ]);
    expect(out.m!.sum_other_doc_count).toBe(0);
  });

  it('fills a source without a value with its missing value, typed as the field', () => {
    const out = aggregate(c, {
      m: { multi_terms: { terms: [{ field: 'tag' }, { field: 'd', missing: 0 }], order: { _key: 'asc' } } },
    });
    expect(rows(out, 'm')).toEqual([
      [['a', 0], 'a|0.0', 1],
      [['a', 1.5], 'a|1.5', 2],
      [['b', 1.5], 'b|1.5', 1],
      [['c', 0], 'c|0.0', 1],
    ]);
  });

  it('orders ips by their bytes and reports the left-out docs and the doc-count error', () => {
    const out = aggregate(c, {
      m: {
        multi_terms: {
          terms: [{ field: 'ip' }, { field: 'tag' }],
          size: 1,
          shard_size: 1,
          order: { _key: 'asc' },
        },
      },
    });
    expect(rows(out, 'm')).toEqual([[['10.0.0.2', 'a'], '10.0.0.2|a', 1]]);
    expect(out.m!.sum_other_doc_count).toBe(2);
    expect(out.m!.doc_count_error_upper_bound).toBe(0);
  });

  it('orders by a sub-aggregation, ties by key', () => {
    const out = aggregate(c, {
      m: {
        multi_terms: { terms: [{ field: 'tag' }, { field: 'n' }], order: { s: 'asc' } },
        aggs: { s: { sum: { field: 'd' } } },
      },
    });
    expect(rows(out, 'm').map((r) => r[1])).toEqual(['c|1', 'a|2', 'b|1', 'b|2', 'a|1']);
  });
});
