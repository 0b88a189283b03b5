import { describe, expect, it } from 'vitest';
import { applySourceFilter } from './source-filter.ts';

const doc = {
  title: 'a',
  user: { name: 'kimchy', age: 42, address: { city: 'x', zip: '1' } },
  tags: ['t1', 't2'],
  comments: [
    { author: 'a', text: 'x', votes: 1 },
    { author: 'b', text: 'y' },
  ],
  'obj.dotted': 1,
};

const f = (includes: string[], excludes: string[] = []) => ({ enabled: true, includes, excludes });

describe('applySourceFilter', () => {
  it('returns the source as is without patterns, and nothing when disabled', () => {
    expect(applySourceFilter(doc, f([]))).toBe(doc);
    expect(applySourceFilter(doc, { enabled: false, includes: [], excludes: [] })).toBeUndefined();
  });

  it('includes whole objects by name and leaves by dotted path', () => {
    expect(applySourceFilter(doc, f(['user']))).toEqual({ user: doc.user });
    expect(applySourceFilter(doc, f(['user.address.city', 'title']))).toEqual({
      title: 'a',
      user: { address: { city: 'x' } },
    });
  });

  it('matches `*` across levels and dotted keys', () => {
    expect(applySourceFilter(doc, f(['u*.a*']))).toEqual({ user: { age: 42, address: doc.user.address } });
    expect(applySourceFilter(doc, f(['*.city']))).toEqual({ user: { address: { city: 'x' } } });
    expect(applySourceFilter(doc, f(['obj']))).toEqual({ 'obj.dotted': 1 });
  });

  it('walks arrays of objects', () => {
    expect(applySourceFilter(doc, f(['comments.author']))).toEqual({
      comments: [{ author: 'a' }, { author: 'b' }],
    });
    expect(applySourceFilter(doc, f(['comments.votes']))).toEqual({ comments: [{ votes: 1 }] });
    expect(applySourceFilter(doc, f(['tags']))).toEqual({ tags: ['t1', 't2'] });
  });

  it('applies excludes after includes, inside included objects too', () => {
    expect(applySourceFilter(doc, f([], ['user', 'comments.text']))).toEqual({
      title: 'a',
      tags: doc.tags,
      comments: [{ author: 'a', votes: 1 }, { author: 'b' }],
      'obj.dotted': 1,
    });
    expect(applySourceFilter(doc, f(['user'], ['user.address.*', 'user.age']))).toEqual({
      user: { name: 'kimchy', address: {} },
    });
    expect(applySourceFilter(doc, f(['*'], ['*.zip', 'comments']))).toEqual({
      title: 'a',
      user: { name: 'kimchy', age: 42, address: { city: 'x' } },
      tags: doc.tags,
      'obj.dotted': 1,
    });
  });

  it('keeps key order and never mutates its input', () => {
    const before = JSON.stringify(doc);
    const out = applySourceFilter(doc, f(['tags', 'title'])) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['title', 'tags']);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('reuses its compiled patterns for the same filter', () => {
    const filter = f(['user.*'], ['user.age']);
    for (let i = 0; i < 3; i++) {
      expect(applySourceFilter(doc, filter)).toEqual({ user: { name: 'kimchy', address: doc.user.address } });
    }
  });
});
