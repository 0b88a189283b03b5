import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';
import { resolveRegexpFlags } from './regexp.ts';

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return `${e.type}: ${e.reason}`;
    throw e;
  }
  throw new Error('expected an error');
}

describe('the regexp query', () => {
  it('short form: the defaults of RegexpQueryBuilder', () => {
    expect(parseQuery({ regexp: { user: 'k.*y' } })).toEqual({
      type: 'regexp',
      field: 'user',
      value: 'k.*y',
      flags: 0xff,
      caseInsensitive: false,
      maxDeterminizedStates: 10000,
      boost: 1,
    });
  });

  it('long form: every option', () => {
    expect(
      parseQuery({
        regexp: {
          user: {
            value: 'k.*y',
            flags: 'INTERSECTION|complement|EMPTY',
            case_insensitive: true,
            max_determinized_states: '20000',
            rewrite: 'constant_score_boolean',
            boost: 2,
            _name: 'r',
          },
        },
      }),
    ).toEqual({
      type: 'regexp',
      field: 'user',
      value: 'k.*y',
      flags: 0x07,
      caseInsensitive: true,
      maxDeterminizedStates: 20000,
      rewrite: 'constant_score_boolean',
      boost: 2,
      queryName: 'r',
    });
    expect(parseQuery({ regexp: { user: { value: 'a', flags_value: 4 } } })).toMatchObject({ flags: 4 });
    expect(parseQuery({ regexp: { user: { value: 'a', flags: null } } })).toMatchObject({ flags: 0xff });
    // A number is text to the parser.
    expect(parseQuery({ regexp: { n: 12 } })).toMatchObject({ value: '12' });
  });

  it('RegexpFlag.resolveValue: names separated by |, any case; ALL wins; NONE adds nothing', () => {
    expect(resolveRegexpFlags('')).toBe(0xff);
    expect(resolveRegexpFlags('NONE')).toBe(0);
    expect(resolveRegexpFlags('NONE|ANYSTRING')).toBe(0x08);
    expect(resolveRegexpFlags('interval||EMPTY')).toBe(0x24);
    expect(resolveRegexpFlags('EMPTY|ALL|bogus')).toBe(0xff);
    expect(reason(() => resolveRegexpFlags('EMPTY|bogus'))).toBe(
      'illegal_argument_exception: Unknown regexp flag [bogus]',
    );
  });

  it('errors of RegexpQueryBuilder.fromXContent and its constructor', () => {
    expect(reason(() => parseQuery({ regexp: { user: { value: 'a', flags: 'FOO' } } }))).toBe(
      'illegal_argument_exception: Unknown regexp flag [FOO]',
    );
    expect(reason(() => parseQuery({ regexp: { user: { value: 'a', slop: 1 } } }))).toBe(
      'parsing_exception: [regexp] query does not support [slop]',
    );
    expect(reason(() => parseQuery({ regexp: { a: 'x', b: 'y' } }))).toBe(
      "parsing_exception: [regexp] query doesn't support multiple fields, found [a] and [b]",
    );
    expect(reason(() => parseQuery({ regexp: {} }))).toBe(
      'illegal_argument_exception: field name is null or empty',
    );
    expect(reason(() => parseQuery({ regexp: { user: null } }))).toBe(
      'illegal_argument_exception: value cannot be null',
    );
    expect(reason(() => parseQuery({ regexp: { user: { boost: 2 } } }))).toBe(
      'illegal_argument_exception: value cannot be null',
    );
    expect(reason(() => parseQuery({ regexp: { user: ['a'] } }))).toMatch(
      /^illegal_state_exception: Can't get text on a START_ARRAY/,
    );
  });
});
