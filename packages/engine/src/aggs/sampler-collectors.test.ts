import { describe, expect, it } from 'vitest';
import { docs } from '../search/matches.ts';
import { corpus } from '../search/test-corpus.test-support.ts';
import type { AggDocs } from './aggregate-shard.ts';
import { aggregate } from './aggs.test-support.ts';

const c = corpus(
  { author: { type: 'keyword' }, number: { type: 'integer' }, cls: { type: 'integer' } },
  [
    ['1', { author: 'alice', number: 1, cls: 1 }],
    ['2', { author: 'bob', number: 2, cls: 1 }],
    ['3', { author: 'alice', number: 3, cls: 2 }],
    ['4', { author: 'alice', number: 4, cls: 1 }],
  ],
  2,
);

/** Every doc, scored as the sampler tests' query scores them: the last doc best, the others tied. */
const SCORED: AggDocs = {
  docs: () => null,
  excluded: () => null,
  scored: (rs) => {
    const n = rs.segment.maxDoc;
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const scores = Float64Array.from(ids, (d) => (rs.docBase + d === 3 ? 2 : 1));
    return docs(ids, scores);
  },
};

const MIN_MAX = { lo: { min: { field: 'number' } }, hi: { max: { field: 'number' } } };
const sample = (agg: Record<string, unknown>) => {
  const out = aggregate(c, { s: { ...agg, aggs: MIN_MAX } }, SCORED).s!;
  return [out.doc_count, (out.lo as { value: number }).value, (out.hi as { value: number }).value];
};

describe('sampler collector', () => {
  it('gives its sub-aggregations the best-scoring shard_size docs, ties to the earlier doc', () => {
    expect(sample({ sampler: { shard_size: 1 } })).toEqual([1, 4, 4]);
    expect(sample({ sampler: { shard_size: 2 } })).toEqual([2, 1, 4]);
    expect(sample({ sampler: {} })).toEqual([4, 1, 4]);
  });
});

describe('diversified_sampler collector', () => {
  it('keeps at most max_docs_per_value docs per value', () => {
    expect(sample({ diversified_sampler: { field: 'author', shard_size: 1 } })).toEqual([1, 4, 4]);
    expect(sample({ diversified_sampler: { field: 'author' } })).toEqual([2, 2, 4]);
    expect(sample({ diversified_sampler: { field: 'author', max_docs_per_value: 3 } })).toEqual([4, 1, 4]);
    expect(sample({ diversified_sampler: { field: 'cls' } })).toEqual([2, 3, 4]);
    expect(sample({ diversified_sampler: { field: 'unmapped' } })).toEqual([0, null, null]);
  });
});
