import { describe, expect, it } from 'vitest';
import { shingleTokens } from './shingles.ts';

const tokens = ['quick', 'brown', 'fox'].map((term, position) => ({
  term,
  position,
  startOffset: position * 6,
  endOffset: position * 6 + term.length,
}));

describe('search_as_you_type shingles', () => {
  it('makes the shingles of one size at each position', () => {
    expect(shingleTokens(tokens, { kind: 'gram', size: 2 }).map((t) => [t.term, t.position])).toEqual([
      ['quick brown', 0],
      ['brown fox', 1],
    ]);
    expect(shingleTokens(tokens, { kind: 'gram', size: 4 })).toEqual([]);
  });

  it('makes the edge n-grams of the longest shingle at each position', () => {
    const terms = shingleTokens(tokens, { kind: 'prefix', max: 2 })
      .filter((t) => t.position === 2)
      .map((t) => t.term);
    expect(terms).toEqual(['f', 'fo', 'fox']);
    const first = shingleTokens(tokens, { kind: 'prefix', max: 2 }).filter((t) => t.position === 0);
    expect(first.at(-1)!.term).toBe('quick brown');
  });
});
