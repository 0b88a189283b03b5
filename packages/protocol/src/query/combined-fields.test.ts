import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, cause: e.causedBy?.reason };
    throw e;
  }
  throw new Error('expected an error');
}

describe('combined_fields', () => {
  it('reads the query, fields with boosts and the options', () => {
    expect(
      parseQuery({
        combined_fields: {
          query: 'a b',
          fields: ['title^2', 'body', 'title^1.5'],
          operator: 'AND',
          minimum_should_match: 2,
          zero_terms_query: 'ALL',
          auto_generate_synonyms_phrase_query: false,
          boost: 2,
          _name: 'n',
        },
      }),
    ).toEqual({
      type: 'combined_fields',
      query: 'a b',
      fields: [
        { field: 'title', boost: 3 },
        { field: 'body', boost: 1 },
      ],
      operator: 'and',
      minimumShouldMatch: '2',
      zeroTermsQuery: 'all',
      boost: 2,
      queryName: 'n',
    });
    expect(parseQuery({ combined_fields: { query: 'a', fields: 'body' } })).toMatchObject({
      fields: [{ field: 'body', boost: 1 }],
    });
  });

  it('refuses what its ObjectParser and the builder refuse', () => {
    expect(err(() => parseQuery({ combined_fields: { fields: ['a'] } }))).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[1:35] Required [query]',
    });
    expect(err(() => parseQuery({ combined_fields: { query: 1 } }))).toMatchObject({
      reason: "[1:29] [combined_fields] query doesn't support values of type: VALUE_NUMBER",
    });
    expect(err(() => parseQuery({ combined_fields: { query: 'a', fields: ['a^0.9'] } }))).toMatchObject({
      reason: '[1:50] [combined_fields] failed to parse field [fields]',
      cause: '[combined_fields] requires field boosts to be >= 1.0',
    });
    expect(
      err(() => parseQuery({ combined_fields: { query: 'a', zero_terms_query: 'some' } })),
    ).toMatchObject({
      cause: 'Unsupported [zero_terms_query] value [some]',
    });
    expect(err(() => parseQuery({ combined_fields: { query: 'a', operator: 'xor' } }))).toMatchObject({
      reason: '[1:44] [combined_fields] failed to parse field [operator]',
    });
  });
});
