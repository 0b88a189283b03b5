import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortDoubles } from './sort-doubles.ts';

/** Both orders element by element, telling -0 from +0 and every NaN alike. */
function expectSameOrder(values: number[]): void {
  const expected = Float64Array.from(values).sort();
  const actual = sortDoubles(Float64Array.from(values));
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(Object.is(actual[i], expected[i])).toBe(true);
}

const SPECIAL = [0, -0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, 2 ** 53];

describe('sortDoubles', () => {
  it('property: the order of Float64Array.prototype.sort for doubles, integers and floats', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true }),
      fc.integer({ min: -5000, max: 5000 }),
      fc.float({ noNaN: true }).map(Math.fround),
      fc.constantFrom(...SPECIAL),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 500, maxLength: 3000 }), (values) => expectSameOrder(values)),
      { numRuns: 60 },
    );
  });

  it('sorts integer-valued doubles of one sign and of both signs, with -0 before +0', () => {
    const ints = Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 3001) - 1000);
    expectSameOrder(ints);
    expectSameOrder(ints.map((x) => Math.abs(x)));
    expectSameOrder([...ints, -0, 0, -0]);
  });

  it('leaves NaN to the comparison sort (last)', () => {
    const values = Array.from({ length: 1000 }, (_, i) => (i % 97 === 0 ? Number.NaN : i * 0.37 - 100));
    expectSameOrder(values);
  });

  it('sorts a view inside a larger buffer without touching the rest', () => {
    const buf = new Float64Array(2000).map((_, i) => 2000 - i);
    const view = buf.subarray(500, 1500);
    sortDoubles(view);
    expect(buf[0]).toBe(2000);
    expect(buf[1999]).toBe(1);
    for (let i = 1; i < view.length; i++) expect(view[i - 1]! <= view[i]!).toBe(true);
  });
});
