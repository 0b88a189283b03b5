import { describe, expect, it } from 'vitest';
import { jsonScalar, scoreJson } from './json-scalars.ts';

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
