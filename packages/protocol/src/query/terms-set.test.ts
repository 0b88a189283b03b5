import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

describe('terms_set', () => {
  it('reads the field, its terms, minimum_should_match_field and boost', () => {
    expect(
      parseQuery({
        terms_set: { tags: { terms: ['a', 1], minimum_should_match_field: 'n', boost: 2, _name: 'q' } },
      }),
    ).toEqual({
      type: 'terms_set',
      field: 'tags',
      values: ['a', 1],
      minimumShouldMatchField: 'n',
      boost: 2,
      queryName: 'q',
    });
    expect(parseQuery({ terms_set: { tags: {} } })).toEqual({
      type: 'terms_set',
      field: 'tags',
      values: [],
      boost: 1,
    });
  });

  it('refuses malformed bodies as TermsSetQueryBuilder.fromXContent does', () => {
    expect(err(() => parseQuery({ terms_set: {} }))).toMatchObject({
      type: 'parsing_exception',
      reason: '[terms_set] unknown token [END_OBJECT]',
    });
    expect(err(() => parseQuery({ terms_set: { tags: 'a' } }))).toMatchObject({
      reason: '[terms_set] unknown token [VALUE_STRING]',
    });
    expect(err(() => parseQuery({ terms_set: { tags: { terms: ['a'] }, other: {} } }))).toMatchObject({
      reason: '[terms_set] unknown token [FIELD_NAME]',
    });
    expect(err(() => parseQuery({ terms_set: { tags: { values: ['a'] } } }))).toMatchObject({
      reason: '[terms_set] query does not support [values]',
    });
    expect(err(() => parseQuery({ terms_set: { tags: { terms: ['a', null] } } }))).toMatchObject({
      reason: 'No value specified for terms query',
    });
    expect(err(() => parseQuery({ terms_set: { tags: { terms: ['a'], boost: null } } }))).toMatchObject({
      reason: '[terms_set] unknown token [VALUE_NULL] after [boost]',
    });
    expect(
      err(() =>
        parseQuery({
          terms_set: {
            tags: { minimum_should_match_field: 'n', minimum_should_match_script: { source: 'x' } },
          },
        }),
      ),
    ).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'A field has already been specified. Cannot specify both a field and script',
    });
    expect(
      err(() => parseQuery({ terms_set: { tags: { minimum_should_match_script: { source: 'x' } } } })),
    ).toMatchObject({
      status: 501,
    });
  });
});
