import { describe, expect, it } from 'vitest';
import { parseBooleanValue } from './boolean-value.ts';
import { parseGeoPoint } from './geo-value.ts';
import { normalizeIp } from './ip-value.ts';
import { lineCol, locateValue, numberLiteralAt, parseJsonExact, parseJsonSource } from './json-text.ts';
import { halfFloat, halfFloatBits, parseNumber, scaledFloat } from './number-values.ts';
import { thrown } from './test-helpers.ts';

describe('number coercion', () => {
  it('follows NumberFieldMapper rules', () => {
    expect(parseNumber('long', 5.9, true)).toBe(5);
    expect(parseNumber('long', -5.9, true)).toBe(-5);
    expect(parseNumber('long', '1e3', true)).toBe(1000);
    expect(parseNumber('long', '', true)).toBeNull();
    expect(parseNumber('long', 2n ** 62n, true)).toBe(2n ** 62n);
    expect(parseNumber('integer', ' 42 ', true)).toBe(42);
    expect(parseNumber('byte', '127', true)).toBe(127);
    expect(parseNumber('double', '1.5e3', true)).toBe(1500);
    expect(parseNumber('float', 0.1, true)).toBe(Math.fround(0.1));
    expect(thrown(() => parseNumber('long', '1.5', false)).reason).toBe('Long value passed as String');
    expect(thrown(() => parseNumber('long', 1.5, false)).reason).toBe(
      '1.5 cannot be converted to Long without data loss',
    );
    expect(thrown(() => parseNumber('byte', '200', true)).reason).toBe(
      'Value [200] is out of range for a byte',
    );
    expect(thrown(() => parseNumber('integer', 3e9, true)).reason).toBe(
      'Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)',
    );
    expect(thrown(() => parseNumber('double', 'NaN', true)).reason).toBe(
      '[double] supports only finite values, but got [NaN]',
    );
    expect(thrown(() => parseNumber('float', 1e39, true)).reason).toBe(
      '[float] supports only finite values, but got [Infinity]',
    );
    expect(thrown(() => parseNumber('long', true, true)).reason).toBe(
      'Current token (VALUE_TRUE) not numeric, can not use numeric value accessors',
    );
  });
});

describe('half floats', () => {
  it('round to the nearest half-precision value, ties to even, and overflow past 65504', () => {
    expect(halfFloat(1.1)).toBe(1.099609375);
    expect(halfFloat(3.3)).toBe(3.30078125);
    expect(halfFloat(1000.7)).toBe(1000.5);
    expect(halfFloat(2049)).toBe(2048);
    expect(halfFloat(2051)).toBe(2052);
    expect(halfFloat(-0.1)).toBe(-0.0999755859375);
    expect(halfFloat(65504)).toBe(65504);
    expect(halfFloat(65519)).toBe(65504);
    expect(halfFloat(65520)).toBe(Number.POSITIVE_INFINITY);
    expect(halfFloat(2 ** -24)).toBe(2 ** -24);
    expect(halfFloat(2 ** -26)).toBe(0);
    expect(halfFloat(0)).toBe(0);
  });

  it('have the bits of IEEE 754 binary16', () => {
    expect(halfFloatBits(1)).toBe(0x3c00);
    expect(halfFloatBits(-2)).toBe(0xc000);
    expect(halfFloatBits(65504)).toBe(0x7bff);
    expect(halfFloatBits(2 ** -24)).toBe(0x0001);
    expect(halfFloatBits(2 ** -14)).toBe(0x0400);
    expect(halfFloatBits(halfFloat(1.1))).toBe(0x3c66);
  });

  it('parse as a float, then round, refusing what overflows', () => {
    expect(parseNumber('half_float', '1.1', true)).toBe(1.099609375);
    expect(thrown(() => parseNumber('half_float', 70000, true)).reason).toBe(
      '[half_float] supports only finite values, but got [70000.0]',
    );
    expect(thrown(() => parseNumber('half_float', '1.5', false)).reason).toBe('Float value passed as String');
  });
});

describe('booleans, ips and geo points', () => {
  it('parses booleans strictly', () => {
    expect(parseBooleanValue('true')).toBe(true);
    expect(parseBooleanValue('')).toBe(false);
    expect(thrown(() => parseBooleanValue('TRUE')).reason).toBe(
      'Failed to parse value [TRUE] as only [true] or [false] are allowed.',
    );
  });

  it('normalises IP literals', () => {
    expect(normalizeIp('010.1.2.3'.replace('010', '10'))).toBe('10.1.2.3');
    expect(normalizeIp('2001:0db8:0000:0000:0000:ff00:0042:8329')).toBe('2001:db8::ff00:42:8329');
    expect(normalizeIp('::1')).toBe('::1');
    expect(normalizeIp('::')).toBe('::');
    expect(normalizeIp('1:0:0:1:0:0:0:1')).toBe('1:0:0:1::1');
    expect(normalizeIp('::ffff:192.168.1.1')).toBe('192.168.1.1');
    expect(thrown(() => normalizeIp('256.1.1.1')).reason).toBe("'256.1.1.1' is not an IP string literal.");
    expect(() => normalizeIp('1::2::3')).toThrow();
  });

  it('parses geo points and validates ranges', () => {
    expect(parseGeoPoint({ type: 'Point', coordinates: [10, 20] }, 'g', true)).toEqual({ lat: 20, lon: 10 });
    expect(parseGeoPoint({ lat: '1.5', lon: '2' }, 'g', true)).toEqual({ lat: 1.5, lon: 2 });
    expect(thrown(() => parseGeoPoint({ lat: 95, lon: 0 }, 'g', true)).reason).toBe(
      'illegal latitude value [95] for g',
    );
    expect(thrown(() => parseGeoPoint('1,2,3', 'g', false)).reason).toBe(
      'found Z value but [ignore_z_value] parameter is [false]',
    );
  });
});

describe('source JSON', () => {
  it('keeps big integers exact', () => {
    expect(parseJsonSource('{"a":12345678901234567890,"b":1.5,"c":"x"}')).toEqual({
      a: 12345678901234567890n,
      b: 1.5,
      c: 'x',
    });
    expect(parseJsonSource('{"a":1234567890123456}')).toEqual({ a: 1234567890123456 });
    expect(parseJsonExact('{"__proto__":1,"s":"\\u00e9"}')).toEqual(
      JSON.parse('{"__proto__":1,"s":"\\u00e9"}'),
    );
  });

  it('locates values for error messages', () => {
    const text = '{"a": {"b": [1, 2.0, {"c": "x"}]},\n "d": 3, "d": 4}';
    expect(text.slice(locateValue(text, ['a', 'b', 2, 'c']))).toMatch(/^"x"/);
    expect(numberLiteralAt(text, ['a', 'b', 1])).toBe('2.0');
    expect(numberLiteralAt(text, ['d'])).toBe('4');
    expect(lineCol(text, locateValue(text, ['d']))).toBe('2:15');
    expect(locateValue(text, ['zz'])).toBe(-1);
  });
});

describe('scaled floats', () => {
  it('keep round(value × factor) / factor, rounding halves up as Math.round does', () => {
    expect(scaledFloat(1.234, 100)).toBe(1.23);
    expect(scaledFloat(0.29, 100)).toBe(0.29);
    expect(scaledFloat(2.5, 1)).toBe(3);
    expect(scaledFloat(-2.5, 1)).toBe(-2);
    expect(scaledFloat(0.125, 10)).toBe(0.1);
  });

  it('parse as doubles and refuse what is not finite', () => {
    expect(parseNumber('scaled_float', '1.5', true)).toBe(1.5);
    expect(thrown(() => parseNumber('scaled_float', 'NaN', true)).reason).toBe(
      '[scaled_float] only supports finite values, but got [NaN]',
    );
  });
});
