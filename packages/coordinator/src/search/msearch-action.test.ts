import { describe, expect, it } from 'vitest';
import { defaultMaxConcurrentSearches } from './msearch-action.ts';

describe('defaultMaxConcurrentSearches', () => {
  it('is the data nodes times the search pool size, at most 10 a node (TransportMultiSearchAction)', () => {
    expect(defaultMaxConcurrentSearches(1, 1)).toBe(2);
    expect(defaultMaxConcurrentSearches(1, 2)).toBe(4);
    expect(defaultMaxConcurrentSearches(1, 4)).toBe(7);
    expect(defaultMaxConcurrentSearches(1, 6)).toBe(10);
    expect(defaultMaxConcurrentSearches(3, 10)).toBe(30);
  });

  it('is at least 1, even without a data node', () => {
    expect(defaultMaxConcurrentSearches(0, 8)).toBe(1);
  });
});
