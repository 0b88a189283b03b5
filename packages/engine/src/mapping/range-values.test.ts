import { describe, expect, it } from 'vitest';
import { decodeRange, nextValue, rangeMatches, rangeTerm } from './range-values.ts';

describe('range values', () => {
  it('keeps inclusive bounds, moving exclusive ones to the next value', () => {
    expect(rangeTerm('r', 'long_range', { gt: 1, lt: 5 }, true, '')).toBe('2:4');
    expect(rangeTerm('r', 'integer_range', { gte: 3 }, true, '')).toBe('3:2147483647');
    expect(decodeRange('double_range', rangeTerm('r', 'double_range', { lte: 2 }, true, ''))).toEqual([
      Number.NEGATIVE_INFINITY,
      2,
    ]);
    expect(rangeTerm('r', 'ip_range', '10.0.0.0/8', true, '')).toBe(`${0xffff0a000000n}:${0xffff0affffffn}`);
    expect(rangeTerm('r', 'date_range', { gte: '2024-01-01', lt: '2024-01-02' }, true, 'yyyy-MM-dd')).toBe(
      '1704067200000:1704153599999',
    );
  });

  it('steps doubles and floats to their neighbours', () => {
    expect(nextValue('double_range', 1, true)).toBe(1 + Number.EPSILON);
    expect(nextValue('double_range', 0, false)).toBe(-Number.MIN_VALUE);
    expect(nextValue('float_range', 1, true)).toBe(Math.fround(1 + 2 ** -23));
    expect(nextValue('float_range', -1, true)).toBe(Math.fround(-1 + 2 ** -24));
  });

  it('refuses inverted ranges and unknown keys', () => {
    expect(() => rangeTerm('r', 'long_range', { gte: 5, lte: 1 }, true, '')).toThrow(
      'min value (5) is greater than max value (1)',
    );
    expect(() => rangeTerm('r', 'long_range', { gte: 5, foo: 1 }, true, '')).toThrow(
      'error parsing field [r], with unknown parameter [foo]',
    );
  });

  it('tests each relation', () => {
    expect(rangeMatches('intersects', 1n, 5n, 5n, 9n)).toBe(true);
    expect(rangeMatches('intersects', 1n, 5n, 6n, 9n)).toBe(false);
    expect(rangeMatches('contains', 1n, 5n, 2n, 4n)).toBe(true);
    expect(rangeMatches('contains', 1n, 5n, 2n, 6n)).toBe(false);
    expect(rangeMatches('within', 2n, 4n, 1n, 5n)).toBe(true);
    expect(rangeMatches('within', 2n, 6n, 1n, 5n)).toBe(false);
  });
});
