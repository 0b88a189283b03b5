import { describe, expect, it } from 'vitest';
import { decimalFormat } from './decimal-format.ts';

describe('decimalFormat', () => {
  it('formats as Java DecimalFormat does', () => {
    expect(decimalFormat(1.005, '#.##')).toBe('1');
    expect(decimalFormat(2.5, '#')).toBe('2');
    expect(decimalFormat(3.5, '#')).toBe('4');
    expect(decimalFormat(1234567.891, '#,##0.00')).toBe('1,234,567.89');
    expect(decimalFormat(0.5, '0.000')).toBe('0.500');
    expect(decimalFormat(12, '$#,##0.00')).toBe('$12.00');
    expect(decimalFormat(0.256, '#%')).toBe('26%');
    expect(decimalFormat(-3.14259, '#.##')).toBe('-3.14');
    // Java leaves out the integer zero where the pattern asks no integer digit.
    expect(decimalFormat(0.25, '#.#')).toBe('.2');
    expect(decimalFormat(0, '#')).toBe('0');
  });
});
