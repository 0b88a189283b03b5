import { describe, expect, it } from 'vitest';
import { MAX_ORGANIC_SCORE, pinScores } from './pinned.ts';
import { corpus } from './test-corpus.test-support.ts';

const c = corpus({ title: { type: 'text' } }, [
  ['1', { title: 'fox' }],
  ['2', { title: 'fox fox' }],
  ['3', { title: 'dog' }],
  ['4', { title: 'cat' }],
]);
const organic = {
  type: 'match',
  field: 'title',
  query: 'fox',
  operator: 'or',
  zeroTermsQuery: 'none',
  lenient: false,
  boost: 1,
} as const;

describe('pinned', () => {
  it('gives pins the float values just above 2^127, first pin highest', () => {
    expect(MAX_ORGANIC_SCORE).toBe(2 ** 127);
    const s = pinScores(3);
    expect(s[0]).toBeGreaterThan(s[1]!);
    expect(s[1]).toBeGreaterThan(s[2]!);
    expect(s[2]).toBeGreaterThan(MAX_ORGANIC_SCORE);
    expect(Math.fround(s[2]!)).toBe(s[2]);
  });

  it('returns the pins in order, then the organic hits by score', () => {
    const r = c.ids({
      type: 'pinned',
      organic,
      docs: [{ id: '4' }, { id: '1' }, { id: 'none' }],
      boost: 1,
    });
    expect(r).toEqual(['4', '1', '2']);
    const inOtherIndex = c.ids({ type: 'pinned', organic, docs: [{ index: 'other', id: '4' }], boost: 1 });
    expect(inOtherIndex).toEqual(['2', '1']);
  });
});
