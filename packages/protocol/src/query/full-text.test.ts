import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, ...e.metadata };
    throw e;
  }
  throw new Error('expected an error');
}

describe('match', () => {
  it('parses the short form', () => {
    expect(parseQuery({ match: { title: 'quick fox' } })).toEqual({
      type: 'match',
      field: 'title',
      query: 'quick fox',
      operator: 'or',
      zeroTermsQuery: 'none',
      lenient: false,
      boost: 1,
    });
  });

  it('parses the long form with every option', () => {
    expect(
      parseQuery({
        match: {
          title: {
            query: 'quick fox',
            operator: 'AND',
            minimum_should_match: '75%',
            analyzer: 'english',
            zero_terms_query: 'ALL',
            lenient: 'true',
            boost: '2',
            fuzziness: 'auto',
            prefix_length: 1,
            max_expansions: 10,
            fuzzy_transpositions: false,
            auto_generate_synonyms_phrase_query: true,
            _name: 'n',
          },
        },
      }),
    ).toEqual({
      type: 'match',
      field: 'title',
      query: 'quick fox',
      operator: 'and',
      minimumShouldMatch: '75%',
      analyzer: 'english',
      zeroTermsQuery: 'all',
      lenient: true,
      boost: 2,
      fuzziness: 'AUTO',
      prefixLength: 1,
      maxExpansions: 10,
      fuzzyTranspositions: false,
      queryName: 'n',
    });
  });

  it('reports Elasticsearch’s errors', () => {
    expect(err(() => parseQuery({ match: {} }))).toEqual({
      type: 'parsing_exception',
      reason: 'No text specified for text query',
      line: 1,
      col: 11,
    });
    expect(err(() => parseQuery({ match: { a: 'x', b: 'y' } })).reason).toBe(
      "[match] query doesn't support multiple fields, found [a] and [b]",
    );
    expect(err(() => parseQuery({ match: { a: { query: 'x', foo: 1 } } })).reason).toBe(
      '[match] query does not support [foo]',
    );
    expect(err(() => parseQuery({ match: { a: { query: null } } })).reason).toBe(
      '[match] unknown token [VALUE_NULL] after [query]',
    );
    expect(err(() => parseQuery({ match: { a: { query: 'x', operator: 'xor' } } }))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'No enum constant org.elasticsearch.index.query.Operator.XOR',
    });
    expect(err(() => parseQuery({ match: { a: { query: 'x', zero_terms_query: 'some' } } })).reason).toBe(
      'Unsupported zero_terms_query value [some]',
    );
    expect(err(() => parseQuery({ match: { a: { query: 'x', fuzziness: 'AUTO:1' } } }))).toEqual({
      type: 'parse_exception',
      reason: 'failed to find low and high distance values',
    });
  });
});

describe('match_phrase', () => {
  it('parses both forms', () => {
    expect(parseQuery({ match_phrase: { title: 'quick fox' } })).toEqual({
      type: 'match_phrase',
      field: 'title',
      query: 'quick fox',
      slop: 0,
      zeroTermsQuery: 'none',
      boost: 1,
    });
    expect(parseQuery({ match_phrase: { title: { query: 'a b', slop: 2, analyzer: 'std' } } })).toMatchObject(
      {
        slop: 2,
        analyzer: 'std',
      },
    );
  });

  it('applies the constructor checks', () => {
    expect(err(() => parseQuery({ match_phrase: {} }))).toEqual({
      type: 'illegal_argument_exception',
      reason: '[match_phrase] requires fieldName',
    });
    expect(err(() => parseQuery({ match_phrase: { a: { slop: 1 } } })).reason).toBe(
      '[match_phrase] requires query value',
    );
    expect(err(() => parseQuery({ match_phrase: { a: { query: 'x', slop: -1 } } })).reason).toBe(
      'No negative slop allowed.',
    );
  });
});

describe('multi_match', () => {
  it('parses fields with boosts, types and their default tie breakers', () => {
    expect(
      parseQuery({
        multi_match: { query: 'fox', fields: ['title^2', 'body', 'title^3'], type: 'most_fields' },
      }),
    ).toEqual({
      type: 'multi_match',
      fields: [
        { field: 'title', boost: 3 },
        { field: 'body', boost: 1 },
      ],
      query: 'fox',
      matchType: 'most_fields',
      operator: 'or',
      tieBreaker: 1,
      slop: 0,
      lenient: false,
      zeroTermsQuery: 'none',
      boost: 1,
    });
  });

  it('is lenient on all-field queries unless told otherwise', () => {
    expect(parseQuery({ multi_match: { query: 'x' } })).toMatchObject({
      fields: [],
      lenient: true,
      tieBreaker: 0,
    });
    expect(parseQuery({ multi_match: { query: 'x', fields: '*', lenient: false } })).toMatchObject({
      lenient: false,
    });
  });

  it('reports Elasticsearch’s errors', () => {
    expect(err(() => parseQuery({ multi_match: { fields: ['a'] } })).reason).toBe(
      'No text specified for multi_match query',
    );
    expect(err(() => parseQuery({ multi_match: { query: 'x', type: 'best' } }))).toEqual({
      type: 'parse_exception',
      reason: 'failed to parse [multi_match] query type [best]. unknown type.',
    });
    expect(err(() => parseQuery({ multi_match: { query: 'x', type: 'phrase', fuzziness: 1 } })).reason).toBe(
      'Fuzziness not allowed for type [phrase]',
    );
    expect(err(() => parseQuery({ multi_match: { query: 'x', type: 'bool_prefix', slop: 1 } })).reason).toBe(
      '[slop] not allowed for type [bool_prefix]',
    );
    expect(err(() => parseQuery({ multi_match: { query: 'x', fields: { a: 1 } } })).reason).toBe(
      '[multi_match] query does not support [fields]',
    );
    expect(err(() => parseQuery({ multi_match: { query: 'x', fields: ['a^x'] } })).type).toBe(
      'number_format_exception',
    );
  });
});

describe('simple_query_string', () => {
  it('parses its options', () => {
    expect(
      parseQuery({
        simple_query_string: {
          query: '"fried eggs" +(eggplant | potato)',
          fields: ['title^5', 'body'],
          default_operator: 'and',
          flags: 'OR|AND|PREFIX',
          analyze_wildcard: true,
          minimum_should_match: 2,
          quote_field_suffix: '.exact',
        },
      }),
    ).toEqual({
      type: 'simple_query_string',
      query: '"fried eggs" +(eggplant | potato)',
      fields: [
        { field: 'title', boost: 5 },
        { field: 'body', boost: 1 },
      ],
      defaultOperator: 'and',
      analyzeWildcard: true,
      minimumShouldMatch: '2',
      quoteFieldSuffix: '.exact',
      flags: 1 | 4 | 8,
      lenient: false,
      boost: 1,
    });
    expect(parseQuery({ simple_query_string: { query: 'x', flags: 'NONE' } })).toMatchObject({
      flags: 0,
      lenient: true,
    });
  });

  it('reports Elasticsearch’s errors', () => {
    expect(err(() => parseQuery({ simple_query_string: {} })).reason).toBe(
      '[simple_query_string] query text missing',
    );
    expect(err(() => parseQuery({ simple_query_string: { query: 'x', foo: 1 } })).reason).toBe(
      '[simple_query_string] unsupported field [foo]',
    );
    expect(err(() => parseQuery({ simple_query_string: { query: 'x', flags: 'AND|FOO' } })).reason).toBe(
      'Unknown simple_query_string flag [FOO]',
    );
  });
});
