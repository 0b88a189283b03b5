import type { QueryNode } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { decodeFeature, featureFreq } from './rank-feature.ts';
import { corpus } from './test-corpus.test-support.ts';

const c = corpus(
  {
    pagerank: { type: 'rank_feature' as 'keyword' },
    url_length: { type: 'rank_feature' as 'keyword', params: { positive_score_impact: false } },
    tags: { type: 'rank_features' as 'keyword' },
    tag: { type: 'keyword' },
  },
  [
    ['1', { pagerank: 10, url_length: 50, tags: { foo: 3, bar: 5 } }],
    ['2', { pagerank: 100, url_length: 20, tags: { bar: 6, quux: 10 } }],
    ['3', { tag: 'none' }],
  ],
  2,
);
const rf = (field: string, fn: unknown, boost = 1) =>
  ({ type: 'rank_feature', field, fn, boost }) as QueryNode;
const scores = (q: QueryNode) => c.search(q).hits.map((h) => h.score);
/** Scores come back as floats. */
const near = (got: number[], want: number[]) => {
  expect(got).toHaveLength(want.length);
  got.forEach((g, i) => {
    expect(g).toBeCloseTo(want[i]!, 6);
  });
};

describe('rank_feature', () => {
  it('keeps values to the 9 mantissa bits of a FeatureField frequency', () => {
    expect(decodeFeature(featureFreq(10))).toBe(10);
    expect(decodeFeature(featureFreq(0.1))).toBeLessThan(0.1);
    expect(decodeFeature(featureFreq(0.1))).toBeCloseTo(0.1, 3);
  });

  it('scores linear, saturation, log and sigmoid as FeatureField does', () => {
    expect(c.ids(rf('pagerank', { kind: 'linear' }))).toEqual(['2', '1']);
    expect(scores(rf('pagerank', { kind: 'linear' }, 2))).toEqual([200, 20]);
    near(scores(rf('pagerank', { kind: 'saturation', pivot: 20 })), [1 - 20 / 120, 1 - 20 / 30]);
    near(scores(rf('pagerank', { kind: 'log', scalingFactor: 3 })), [Math.log(103), Math.log(13)]);
    const kPa = 20 ** Math.fround(0.6);
    near(scores(rf('pagerank', { kind: 'sigmoid', pivot: 20, exponent: Math.fround(0.6) })).slice(0, 1), [
      1 - kPa / (100 ** Math.fround(0.6) + kPa),
    ]);
  });

  it('takes the average as the default saturation pivot, and reverses a negative impact', () => {
    // Frequencies of 10 and 100 averaged, then decoded.
    const pivot = decodeFeature(Math.fround((featureFreq(10) + featureFreq(100)) / 2));
    near(scores(rf('pagerank', { kind: 'saturation' })).slice(0, 1), [1 - pivot / (100 + pivot)]);
    expect(c.ids(rf('url_length', { kind: 'saturation', pivot: 20 }))).toEqual(['2', '1']);
    expect(() => c.search(rf('url_length', { kind: 'log', scalingFactor: 3 }))).toThrow(
      /Cannot use the \[log\] function with a field that has a negative score impact/,
    );
  });

  it('reads the features of a rank_features field, and refuses other field types', () => {
    expect(c.ids(rf('tags.bar', { kind: 'linear' }))).toEqual(['2', '1']);
    expect(scores(rf('tags.bar', { kind: 'linear' }))).toEqual([6, 5]);
    expect(c.ids(rf('tags.quux', { kind: 'linear' }))).toEqual(['2']);
    expect(c.ids(rf('tags.none', { kind: 'linear' }))).toEqual([]);
    expect(c.ids(rf('nothing', { kind: 'linear' }))).toEqual([]);
    expect(() => c.search(rf('tag', { kind: 'linear' }))).toThrow(
      '[rank_feature] query only works on [rank_feature] fields and features of [rank_features] fields, not [keyword]',
    );
  });
});
