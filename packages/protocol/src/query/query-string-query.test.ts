import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';
import { escapeQueryString } from './query-string-query.ts';

const qs = (body: Record<string, unknown>) => parseQuery({ query_string: body });

function chain(e: ShoalError): string[] {
  const out = [`${e.type}: ${e.reason}`];
  if (e.causedBy) out.push(...chain(e.causedBy));
  return out;
}
function err(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
}

const match = (field: string, query: string, extra: Record<string, unknown> = {}) => ({
  type: 'match',
  field,
  query,
  operator: 'or',
  zeroTermsQuery: 'none',
  lenient: false,
  boost: 1,
  ...extra,
});
const multi = (
  fields: { field: string; boost: number; indexDefault?: true }[],
  query: string,
  extra: Record<string, unknown> = {},
) => ({
  type: 'multi_match',
  fields,
  query,
  matchType: 'best_fields',
  operator: 'or',
  tieBreaker: 0,
  slop: 0,
  lenient: false,
  zeroTermsQuery: 'none',
  boost: 1,
  ...extra,
});
const bool = (parts: Record<string, unknown>) => ({
  type: 'bool',
  must: [],
  filter: [],
  should: [],
  mustNot: [],
  boost: 1,
  ...parts,
});

describe('query_string: what the text becomes', () => {
  it('parses the text with the q= parser, on default_field', () => {
    expect(qs({ query: 'title:quick AND fox~', default_field: 'title' })).toEqual(
      bool({ must: [match('title', 'quick'), match('title', 'fox', { fuzziness: 'AUTO' })] }),
    );
    // No default field: every field, leniently, as index.query.default_field `*`.
    expect(qs({ query: 'fox' })).toEqual(
      multi([{ field: '*', boost: 1, indexDefault: true }], 'fox', { lenient: true }),
    );
    expect(qs({ query: 'fox', default_field: '*' })).toEqual(
      multi([{ field: '*', boost: 1 }], 'fox', { lenient: true }),
    );
  });

  it('combines `fields` with their boosts per type, with the type tie breaker', () => {
    const fields = [
      { field: 'title', boost: 2 },
      { field: 'body', boost: 1 },
    ];
    expect(qs({ query: 'quick brown', fields: ['title^2', 'body'] })).toEqual(multi(fields, 'quick brown'));
    expect(qs({ query: 'quick', fields: ['title^2', 'body'], type: 'most_fields' })).toEqual(
      multi(fields, 'quick', { matchType: 'most_fields', tieBreaker: 1 }),
    );
    expect(
      qs({ query: 'quick', fields: ['title^2', 'body'], type: 'cross_fields', tie_breaker: 0.5 }),
    ).toEqual(multi(fields, 'quick', { matchType: 'cross_fields', tieBreaker: 0.5 }));
    // `phrase` makes unquoted text a phrase too, even on one named field.
    expect(qs({ query: 'title:(quick fox)', type: 'phrase' })).toEqual(
      multi([{ field: 'title', boost: 1 }], 'quick fox', { matchType: 'phrase', lenient: true }),
    );
    // A `*` among the fields makes the query lenient.
    expect(qs({ query: 'fox', fields: ['*', 'title^3'] }).type).toBe('multi_match');
    expect((qs({ query: 'fox', fields: ['*', 'title^3'] }) as { lenient: boolean }).lenient).toBe(true);
  });

  it('quoted text is a phrase on every field, with phrase_slop and quote_analyzer', () => {
    expect(
      qs({ query: '"quick fox"', default_field: 'title', phrase_slop: 2, quote_analyzer: 'simple' }),
    ).toEqual({
      type: 'match_phrase',
      field: 'title',
      query: 'quick fox',
      slop: 2,
      zeroTermsQuery: 'none',
      analyzer: 'simple',
      boost: 1,
    });
    expect(
      qs({ query: '"quick fox"~1', fields: ['title', 'body'], phrase_slop: 2, type: 'most_fields' }),
    ).toEqual(
      multi(
        [
          { field: 'title', boost: 1 },
          { field: 'body', boost: 1 },
        ],
        'quick fox',
        { matchType: 'phrase', slop: 1, tieBreaker: 1 },
      ),
    );
  });

  it('gives bare `~` terms the fuzzy options, and several fields a dis_max', () => {
    expect(
      qs({
        query: 'fox~ dog~2',
        default_field: 'title',
        fuzziness: 1,
        fuzzy_prefix_length: 1,
        fuzzy_max_expansions: 10,
        fuzzy_transpositions: false,
        fuzzy_rewrite: 'constant_score',
      }),
    ).toEqual(
      bool({
        should: ['1', '2'].map((edits, i) =>
          match('title', i === 0 ? 'fox' : 'dog', {
            fuzziness: edits,
            prefixLength: 1,
            maxExpansions: 10,
            fuzzyTranspositions: false,
            fuzzyRewrite: 'constant_score',
          }),
        ),
      }),
    );
    expect(qs({ query: 'fox~', fields: ['title', 'body'], type: 'phrase' })).toEqual(
      multi(
        [
          { field: 'title', boost: 1 },
          { field: 'body', boost: 1 },
        ],
        'fox',
        { fuzziness: 'AUTO' },
      ),
    );
  });

  it('applies minimum_should_match to a top-level bool or one field, as Lucene does', () => {
    expect(qs({ query: 'a b c', default_field: 'title', minimum_should_match: '2' })).toEqual(
      match('title', 'a b c', { minimumShouldMatch: '2' }),
    );
    expect(qs({ query: 'a OR b', default_field: 'title', minimum_should_match: '2' })).toEqual(
      bool({ should: [match('title', 'a'), match('title', 'b')], minimumShouldMatch: '2' }),
    );
    // Several fields: a dis_max, which has no minimum_should_match.
    expect(qs({ query: 'a b', fields: ['title', 'body'], minimum_should_match: '2' })).not.toHaveProperty(
      'minimumShouldMatch',
    );
  });

  it('multiplies the boost, keeps ranges, prefixes and wildcards per field', () => {
    expect(qs({ query: 'fox^2', default_field: 'title', boost: 3 })).toEqual(
      match('title', 'fox', { boost: 6 }),
    );
    expect(qs({ query: 'date:[2020 TO now]', time_zone: '+01:00' })).toEqual({
      type: 'range',
      field: 'date',
      gte: '2020',
      lte: 'now',
      timeZone: '+01:00',
      boost: 1,
    });
    const prefix = { type: 'prefix', field: '', value: 'qui', boost: 1, caseInsensitive: false };
    expect(qs({ query: 'qui*', fields: ['title^2', 'tag'] })).toEqual({
      type: 'per_field',
      fields: [
        { field: 'title', boost: 2 },
        { field: 'tag', boost: 1 },
      ],
      template: prefix,
      tieBreaker: 0,
      lenient: false,
      boost: 1,
    });
    // A pattern (the default `*` too) is resolved by the shard, leniently for `*`.
    expect(qs({ query: 'qui*' })).toEqual({
      type: 'per_field',
      fields: [{ field: '*', boost: 1, indexDefault: true }],
      template: prefix,
      tieBreaker: 0,
      lenient: true,
      boost: 1,
    });
    expect(qs({ query: '*', fields: ['title', 'tag'], type: 'most_fields' })).toMatchObject({
      type: 'per_field',
      template: { type: 'exists', field: '', boost: 1 },
      tieBreaker: 1,
    });
    expect(qs({ query: 'f?x', default_field: 'title', allow_leading_wildcard: false })).toMatchObject({
      type: 'wildcard',
    });
  });

  it('escape makes every operator plain text', () => {
    expect(escapeQueryString('a+b:(c)~"d"*')).toBe('a\\+b\\:\\(c\\)\\~\\"d\\"\\*');
    expect(qs({ query: 'title:(fox', default_field: 'body', escape: true })).toEqual(
      match('body', 'title:(fox'),
    );
  });
});

describe('query_string: errors', () => {
  it('rejects keys and tokens as QueryStringQueryBuilder.fromXContent does', () => {
    expect(err(() => qs({ query: 'a', foo: 1 }))).toEqual([
      'parsing_exception: [query_string] query does not support [foo]',
    ]);
    expect(err(() => qs({ query: 'a', analyzer: ['x'] }))).toEqual([
      'parsing_exception: [query_string] query does not support [analyzer]',
    ]);
    expect(err(() => qs({ query: 'a', fields: 'title' }))).toEqual([
      'parsing_exception: [query_string] query does not support [fields]',
    ]);
    expect(err(() => qs({ query: { a: 1 } }))).toEqual([
      'parsing_exception: [query_string] unknown token [START_OBJECT] after [query]',
    ]);
    expect(err(() => qs({ query: null }))).toEqual([
      'parsing_exception: [query_string] unknown token [VALUE_NULL] after [query]',
    ]);
    expect(err(() => qs({ default_field: 'title' }))).toEqual([
      'parsing_exception: [query_string] must be provided with a [query]',
    ]);
    expect(err(() => qs({ query: 'a', type: 'nope' }))).toEqual([
      'parse_exception: failed to parse [multi_match] query type [nope]. unknown type.',
    ]);
    expect(err(() => qs({ query: 'a', default_operator: 'xor' }))).toEqual([
      'illegal_argument_exception: No enum constant org.elasticsearch.index.query.Operator.XOR',
    ]);
    expect(err(() => qs({ query: 'a', time_zone: 'Mars/Olympus' }))).toEqual([
      'zone_rules_exception: Unknown time-zone ID: Mars/Olympus',
    ]);
  });

  it('fails the text as the shards do, with the q= shape', () => {
    expect(err(() => qs({ query: 'title:', default_field: 'x' }))).toEqual([
      'query_shard_exception: Failed to parse query [title:]',
      `parse_exception: Cannot parse 'title:': Encountered "<EOF>" at line 1, column 6.\nWas expecting one of:\n    <BAREOPER> ...\n    "(" ...\n    "*" ...\n    <QUOTED> ...\n    <TERM> ...\n    <PREFIXTERM> ...\n    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    `,
      `parse_exception: Encountered "<EOF>" at line 1, column 6.\nWas expecting one of:\n    <BAREOPER> ...\n    "(" ...\n    "*" ...\n    <QUOTED> ...\n    <TERM> ...\n    <PREFIXTERM> ...\n    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    `,
    ]);
    expect(err(() => qs({ query: '*ox', default_field: 'title', allow_leading_wildcard: false }))).toEqual([
      'query_shard_exception: Failed to parse query [*ox]',
      "parse_exception: Cannot parse '*ox': '*' or '?' not allowed as first character in WildcardQuery",
      "parse_exception: '*' or '?' not allowed as first character in WildcardQuery",
    ]);
    expect(err(() => qs({ query: 'a', fields: ['title'], default_field: 'body' }))).toEqual([
      'query_shard_exception: failed to create query: Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];',
      'query_validation_exception: Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];',
    ]);
  });

  it('refuses what Shoal cannot honour with a 501', () => {
    for (const body of [
      { query: 'a', quote_field_suffix: '.exact' },
      { query: 'a', analyze_wildcard: true },
      { query: 'a', enable_position_increments: false },
      { query: 'a', rewrite: 'scoring_boolean' },
    ]) {
      const e = err(() => qs(body));
      expect(e[0]).toMatch(/^unsupported_operation_exception: .* is not implemented in Shoal$/);
    }
    // What changes nothing Shoal runs is accepted.
    expect(
      qs({
        query: 'a',
        default_field: 'title',
        max_determinized_states: 100,
        rewrite: 'constant_score',
        auto_generate_synonyms_phrase_query: false,
        analyze_wildcard: false,
        _name: 'n',
      }),
    ).toEqual({ ...match('title', 'a'), queryName: 'n' });
  });
});
