import { describe, expect, it } from 'vitest';
import { jsonScalar, scoreJson, sortValueJson, sortValuesJson } from './json-scalars.ts';

describe('scoreJson', () => {
  it('writes scores as Float.toString does', () => {
    expect(scoreJson(1)).toBe('1.0');
    expect(scoreJson(0)).toBe('0.0');
    expect(scoreJson(3)).toBe('3.0');
    expect(scoreJson(0.2876821)).toBe('0.2876821');
    expect(scoreJson(12345678)).toBe('1.2345678E7');
    expect(scoreJson(0.0001)).toBe('1.0E-4');
    expect(scoreJson(Number.NaN)).toBe('null');
  });

  it('leaves other numbers as JSON writes them', () => {
    expect(jsonScalar(1)).toBe('1');
    expect(jsonScalar(10n ** 20n)).toBe('100000000000000000000');
  });
});

describe('sortValueJson', () => {
  it('writes floating keys as Java doubles and leaves the rest to jsonScalar', () => {
    expect(sortValueJson(2, true)).toBe('2.0');
    expect(sortValueJson(8.428572, true)).toBe('8.428572');
    expect(sortValueJson(1e10, true)).toBe('1.0E10');
    expect(sortValueJson(Number.NEGATIVE_INFINITY, true)).toBe('"-Infinity"');
    expect(sortValueJson(2, false)).toBe('2');
    expect(sortValueJson(5n, true)).toBe('5');
    expect(sortValueJson('a', true)).toBe('"a"');
    expect(sortValueJson(null, true)).toBe('null');
  });

  it('writes a hit sort values by the key bit mask', () => {
    expect(sortValuesJson([1, 2, 'x', 3n], 0b0101)).toBe('1.0,2,"x",3');
    expect(sortValuesJson([], 1)).toBe('');
  });
});
