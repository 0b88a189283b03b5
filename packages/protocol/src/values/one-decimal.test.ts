import { describe, expect, it } from 'vitest';
import { formatOneDecimal } from './one-decimal.ts';

describe('formatOneDecimal', () => {
  it('truncates to one decimal and drops .0', () => {
    expect(formatOneDecimal(1.5)).toBe('1.5');
    expect(formatOneDecimal(1.99)).toBe('1.9');
    expect(formatOneDecimal(2.3)).toBe('2.3');
    expect(formatOneDecimal(3)).toBe('3');
    expect(formatOneDecimal(1.04)).toBe('1');
    expect(formatOneDecimal(1e21)).toBe('1E21');
  });
});
