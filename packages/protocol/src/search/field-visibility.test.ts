import { describe, expect, it } from 'vitest';
import { fieldPredicate, visibleSource } from './field-visibility.ts';

describe('field visibility', () => {
  it('grants by full path, with wildcards and exceptions', () => {
    const p = fieldPredicate([[{ include: ['a', 'c.*', '_*'], exclude: ['c.secret'] }]]);
    expect(p('a')).toBe(true);
    expect(p('a.keyword')).toBe(false);
    expect(p('c.x')).toBe(true);
    expect(p('c.secret')).toBe(false);
    expect(p('_id')).toBe(true);
    expect(p('b')).toBe(false);
    const all = fieldPredicate([[{ include: ['*'], exclude: ['_own'] }]]);
    expect([all('_own'), all('_id'), all('x')]).toEqual([false, true, true]);
  });

  it('takes the union of rules in a layer and the intersection of layers', () => {
    const union = fieldPredicate([
      [
        { include: ['a'], exclude: [] },
        { include: ['b'], exclude: [] },
      ],
    ]);
    expect([union('a'), union('b'), union('c')]).toEqual([true, true, false]);
    const both = fieldPredicate([
      [{ include: ['*'], exclude: ['b'] }],
      [{ include: ['a', 'b'], exclude: [] }],
    ]);
    expect([both('a'), both('b'), both('c')]).toEqual([true, false, false]);
  });

  it('filters _source to the visible leaves, dropping emptied objects and arrays', () => {
    const p = fieldPredicate([[{ include: ['name', 'addr.city', 'tags', 'items.k'], exclude: [] }]]);
    const src = {
      name: 'n',
      secret: 's',
      addr: { city: 'c', zip: 'z' },
      other: { x: 1 },
      tags: ['a', 'b'],
      items: [{ k: 1, v: 2 }, { v: 3 }],
      hidden: [1, 2],
    };
    expect(visibleSource(src, p)).toEqual({
      name: 'n',
      addr: { city: 'c' },
      tags: ['a', 'b'],
      items: [{ k: 1 }],
    });
    expect(src.addr).toEqual({ city: 'c', zip: 'z' });
  });
});
