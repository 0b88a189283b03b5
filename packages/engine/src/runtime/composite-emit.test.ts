import { describe, expect, it } from 'vitest';
import { compositeValues } from './composite-emit.ts';

describe('compositeValues', () => {
  it('reads a key of an emitted map, nested maps as dotted keys, lists as several values', () => {
    const m = new Map<unknown, unknown>([
      ['a', 1],
      ['b', [2, null, 3]],
      ['c', { d: 'x' }],
    ]);
    expect(compositeValues([m], 'a')).toEqual([1]);
    expect(compositeValues([m], 'b')).toEqual([2, 3]);
    expect(compositeValues([m], 'c.d')).toEqual(['x']);
    expect(compositeValues([m], 'c')).toEqual([]);
    expect(compositeValues([m], 'z')).toEqual([]);
  });

  it('takes emit(key, value), and refuses what is not a map', () => {
    expect(compositeValues(['a', 5], 'a')).toEqual([5]);
    expect(compositeValues(['b', 5], 'a')).toEqual([]);
    expect(() => compositeValues([5], 'a')).toThrow('Cannot cast java.lang.Integer to java.util.Map');
    expect(() => compositeValues([1, 2, 3], 'a')).toThrow('Unknown call [emit] with [3] arguments.');
  });
});
