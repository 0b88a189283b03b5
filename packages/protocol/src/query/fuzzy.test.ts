import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return `${e.type}: ${e.reason}`;
    throw e;
  }
  throw new Error('expected an error');
}

describe('the fuzzy query', () => {
  it('short form: the defaults of FuzzyQueryBuilder', () => {
    expect(parseQuery({ fuzzy: { user: 'ki' } })).toEqual({
      type: 'fuzzy',
      field: 'user',
      value: 'ki',
      fuzziness: 'AUTO',
      prefixLength: 0,
      maxExpansions: 50,
      transpositions: true,
      boost: 1,
    });
  });

  it('long form: every option, `term` as an alias of `value`', () => {
    expect(
      parseQuery({
        fuzzy: {
          user: {
            term: 'ki',
            fuzziness: '1.5',
            prefix_length: '2',
            max_expansions: 10,
            transpositions: 'false',
            rewrite: 'top_terms_5',
            boost: 2,
            _name: 'q',
          },
        },
      }),
    ).toEqual({
      type: 'fuzzy',
      field: 'user',
      value: 'ki',
      fuzziness: '1',
      prefixLength: 2,
      maxExpansions: 10,
      transpositions: false,
      rewrite: 'top_terms_5',
      boost: 2,
      queryName: 'q',
    });
    expect(parseQuery({ fuzzy: { n: { value: 12, fuzziness: 'auto:2,5' } } })).toMatchObject({
      value: 12,
      fuzziness: 'AUTO:2,5',
    });
  });

  it('refuses what FuzzyQueryBuilder.fromXContent refuses', () => {
    expect(reason(() => parseQuery({ fuzzy: { user: { value: 'ki', slop: 1 } } }))).toBe(
      'parsing_exception: [fuzzy] query does not support [slop]',
    );
    expect(reason(() => parseQuery({ fuzzy: { user: { value: ['ki'] } } }))).toBe(
      'parsing_exception: [fuzzy] unexpected token [START_ARRAY] after [value]',
    );
    expect(reason(() => parseQuery({ fuzzy: { a: 'x', b: 'y' } }))).toBe(
      "parsing_exception: [fuzzy] query doesn't support multiple fields, found [a] and [b]",
    );
    expect(reason(() => parseQuery({ fuzzy: {} }))).toBe(
      'illegal_argument_exception: field name cannot be null or empty',
    );
    expect(reason(() => parseQuery({ fuzzy: { user: { boost: 2 } } }))).toBe(
      'illegal_argument_exception: query value cannot be null',
    );
    expect(reason(() => parseQuery({ fuzzy: { user: { value: 'ki', fuzziness: -1 } } }))).toMatch(
      /Invalid fuzziness value: -1/,
    );
  });
});
