import { describe, expect, it } from 'vitest';
import { didYouMean, levenshteinSimilarity, similarKeys } from './similarity.ts';

describe('similarity', () => {
  it('is Lucene LevenshteinDistance', () => {
    expect(levenshteinSimilarity('abc', 'abc')).toBe(1);
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('a', '')).toBe(0);
    expect(levenshteinSimilarity('sizee', 'size')).toBeCloseTo(0.8, 6);
  });

  it('suggests close keys, best first', () => {
    expect(similarKeys('index.number_of_shard', ['index.number_of_shards', 'index.hidden'], 0.7)).toEqual([
      'index.number_of_shards',
    ]);
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a', 'b'])).toBe(' did you mean any of [a, b]?');
  });
});
