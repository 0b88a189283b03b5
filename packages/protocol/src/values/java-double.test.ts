import { describe, expect, it } from 'vitest';
import { javaDouble, javaFloat, shortestFloatDecimal } from './java-double.ts';

describe('javaDouble', () => {
  it('prints as Double.toString', () => {
    expect(javaDouble(100)).toBe('100.0');
    expect(javaDouble(0.1)).toBe('0.1');
    expect(javaDouble(1e7)).toBe('1.0E7');
    expect(javaDouble(0.0001)).toBe('1.0E-4');
    expect(javaDouble(-0)).toBe('-0.0');
  });
});

describe('javaFloat', () => {
  it('prints the float32 nearest the value as Float.toString', () => {
    expect(javaFloat(2)).toBe('2.0');
    expect(javaFloat(0.1)).toBe('0.1');
    // The half float nearest 1.1, held as a Float.
    expect(javaFloat(1.099609375)).toBe('1.0996094');
    expect(javaFloat(0.1307645738124847)).toBe('0.13076457');
    expect(javaFloat(3e7)).toBe('3.0E7');
  });

  it('finds the shortest decimal that reads back as the same float', () => {
    for (const x of [0.3, 1 / 3, 123.456, 1e-20, 3.4e38]) {
      const d = shortestFloatDecimal(x);
      expect(Math.fround(d)).toBe(Math.fround(x));
      expect(
        String(d)
          .replace(/[-.]|e.*$/g, '')
          .replace(/^0+/, '').length,
      ).toBeLessThanOrEqual(9);
    }
    expect(shortestFloatDecimal(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(shortestFloatDecimal(0)).toBe(0);
  });
});
