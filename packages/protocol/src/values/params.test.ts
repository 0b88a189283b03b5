import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { javaInt, parseBooleanParam, parseIntParam, parseLongParam } from './params.ts';

describe('parseBooleanParam', () => {
  it('reads true, false, empty and absent', () => {
    expect(parseBooleanParam('true', 'pretty')).toBe(true);
    expect(parseBooleanParam('false', 'pretty', true)).toBe(false);
    expect(parseBooleanParam('', 'pretty')).toBe(true);
    expect(parseBooleanParam(undefined, 'pretty')).toBe(false);
    expect(parseBooleanParam(undefined, 'x', true)).toBe(true);
    expect(parseBooleanParam('  ', 'x', true)).toBe(true);
  });

  it('rejects anything else with Elasticsearch message', () => {
    for (const v of ['yes', '1', 'TRUE', 'off']) {
      expect(() => parseBooleanParam(v, 'pretty')).toThrow(
        `Failed to parse value [${v}] as only [true] or [false] are allowed.`,
      );
    }
  });
});

describe('parseIntParam', () => {
  it('parses Java ints', () => {
    expect(parseIntParam('10', 'size')).toBe(10);
    expect(parseIntParam('-2', 'from')).toBe(-2);
    expect(parseIntParam('+3', 'from')).toBe(3);
    expect(parseIntParam(undefined, 'size', 10)).toBe(10);
    expect(javaInt('2147483647')).toBe(2147483647);
    expect(javaInt('2147483648')).toBeUndefined();
  });

  it('rejects non-integers with the NumberFormatException as cause', () => {
    try {
      parseIntParam('1.5', 'size');
      expect.unreachable();
    } catch (e) {
      expect(isShoalError(e)).toBe(true);
      if (!isShoalError(e)) return;
      expect(e.status).toBe(400);
      expect(e.reason).toBe('Failed to parse int parameter [size] with value [1.5]');
      expect(e.causedBy?.type).toBe('number_format_exception');
      expect(e.causedBy?.reason).toBe('For input string: "1.5"');
    }
    expect(() => parseIntParam('', 'size')).toThrow('Failed to parse int parameter [size] with value []');
    expect(() => parseIntParam('99999999999', 'size')).toThrow('with value [99999999999]');
  });

  it('parses longs exactly', () => {
    expect(parseLongParam('9223372036854775807', 'x')).toBe(9223372036854775807n);
    expect(() => parseLongParam('9223372036854775808', 'x')).toThrow(
      'Failed to parse long parameter [x] with value [9223372036854775808]',
    );
  });
});
