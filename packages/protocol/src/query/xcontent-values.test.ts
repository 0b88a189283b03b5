import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { newCtx } from './parse-context.ts';
import { booleanValue, floatValue, intValue, javaParseDouble, objectText, text } from './xcontent-values.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

const ctx = () => newCtx({ v: null }, []);

describe('javaParseDouble', () => {
  it('accepts Java literals', () => {
    expect(javaParseDouble(' 1.5 ')).toBe(1.5);
    expect(javaParseDouble('2f')).toBe(2);
    expect(javaParseDouble('1e3')).toBe(1000);
    expect(javaParseDouble('.5')).toBe(0.5);
    expect(javaParseDouble('NaN')).toBeNaN();
  });
  it('rejects others like NumberFormatException', () => {
    expect(err(() => javaParseDouble('abc'))).toEqual({
      type: 'number_format_exception',
      reason: 'For input string: "abc"',
      status: 400,
    });
    expect(err(() => javaParseDouble('  ')).reason).toBe('empty String');
  });
});

describe('value accessors', () => {
  it('floatValue rounds to float and coerces strings', () => {
    expect(floatValue(ctx(), 1.1, 'v')).toBe(Math.fround(1.1));
    expect(floatValue(ctx(), '2', 'v')).toBe(2);
    expect(err(() => floatValue(ctx(), true, 'v'))).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:6] Current token (VALUE_TRUE) not numeric, can not use numeric value accessors',
      status: 400,
    });
  });

  it('intValue truncates and range-checks', () => {
    expect(intValue(ctx(), 2.9, 'v')).toBe(2);
    expect(intValue(ctx(), '7', 'v')).toBe(7);
    expect(err(() => intValue(ctx(), '3000000000', 'v')).reason).toBe(
      'Value [3000000000] is out of range for an integer',
    );
    expect(err(() => intValue(ctx(), 3000000000, 'v')).reason).toBe(
      '[1:6] Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)',
    );
  });

  it('booleanValue accepts true/false strings only', () => {
    expect(booleanValue(ctx(), 'true', 'v')).toBe(true);
    expect(booleanValue(ctx(), false, 'v')).toBe(false);
    expect(err(() => booleanValue(ctx(), 'yes', 'v'))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Failed to parse value [yes] as only [true] or [false] are allowed.',
      status: 400,
    });
    expect(err(() => booleanValue(ctx(), 1, 'v')).reason).toBe(
      '[1:6] Current token (VALUE_NUMBER_INT) not of boolean type',
    );
  });

  it('text works on scalars only', () => {
    expect(text(ctx(), 12, 'v')).toBe('12');
    expect(err(() => text(ctx(), [1], 'v'))).toEqual({
      type: 'illegal_state_exception',
      reason: "Can't get text on a START_ARRAY at 1:6",
      status: 400,
    });
  });

  it('objectText keeps numbers and bigints', () => {
    expect(objectText(ctx(), 5n, 'v')).toBe(5n);
    expect(objectText(ctx(), null, 'v')).toBeNull();
  });
});
