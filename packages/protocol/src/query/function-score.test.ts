import { describe, expect, it } from 'vitest';
import { parseQuery } from './parse-query.ts';

const fail = (q: unknown) => {
  try {
    parseQuery(q);
  } catch (e) {
    return e as { type: string; reason: string; status: number };
  }
  throw new Error('expected a failure');
};

describe('function_score parsing', () => {
  it('reads a single inline function with its weight, modes and bounds', () => {
    expect(
      parseQuery({
        function_score: {
          query: { term: { a: 'x' } },
          field_value_factor: { field: 'n', factor: '1.5', modifier: 'LOG1P', missing: 2 },
          score_mode: 'sum',
          boost_mode: 'Replace',
          max_boost: 3,
          min_score: 0.5,
          boost: 2,
        },
      }),
    ).toEqual({
      type: 'function_score',
      query: { type: 'term', field: 'a', value: 'x', boost: 1, caseInsensitive: false },
      functions: [
        { fn: { kind: 'field_value_factor', field: 'n', factor: 1.5, modifier: 'log1p', missing: 2 } },
      ],
      scoreMode: 'sum',
      boostMode: 'replace',
      maxBoost: 3,
      minScore: 0.5,
      boost: 2,
    });
  });

  it('reads the functions array: filters (match_all is none), weights, decay bodies', () => {
    const node = parseQuery({
      function_score: {
        functions: [
          { filter: { match_all: {} }, weight: 2 },
          {
            filter: { term: { a: 'x' } },
            gauss: { d: { origin: 'now', scale: '1d' }, multi_value_mode: 'avg' },
          },
          { random_score: { seed: 'abc', field: 'k' }, weight: 0.5 },
        ],
      },
    });
    expect(node.type === 'function_score' && node.functions).toEqual([
      { weight: 2, fn: { kind: 'weight' } },
      {
        filter: { type: 'term', field: 'a', value: 'x', boost: 1, caseInsensitive: false },
        fn: {
          kind: 'decay',
          curve: 'gauss',
          field: 'd',
          params: { origin: 'now', scale: '1d' },
          multiValueMode: 'avg',
        },
      },
      // Java's "abc".hashCode().
      { weight: 0.5, fn: { kind: 'random_score', seed: 96354, field: 'k' } },
    ]);
  });

  it('hashes a long seed as Long.hashCode', () => {
    const node = parseQuery({ function_score: { random_score: { seed: 4294967297 } } });
    expect(node.type === 'function_score' && node.functions[0]!.fn).toEqual({
      kind: 'random_score',
      seed: 0,
    });
  });

  it('fails as FunctionScoreQueryBuilder and the function parsers fail', () => {
    expect(fail({ function_score: { weight: -1 } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: '[weight] cannot be negative for a filtering function',
    });
    expect(fail({ function_score: { functions: [{ filter: { match_all: {} } }] } }).reason).toBe(
      'failed to parse [function_score] query. an entry in functions list is missing a function.',
    );
    expect(fail({ function_score: { weight: 1, exp: { n: { scale: 1 } } } }).reason).toBe(
      'failed to parse [function_score] query. already found function [weight], now encountering [exp]. use [functions] array if you want to define several functions.',
    );
    // An object under `functions` is a function named `functions`.
    expect(fail({ function_score: { functions: {} } }).reason).toBe('[1:32] unknown field [functions]');
    expect(fail({ function_score: { nope: {} } })).toMatchObject({
      type: 'named_object_not_found_exception',
    });
    expect(fail({ function_score: { field_value_factor: { factor: 2 } } }).reason).toBe(
      "[field_value_factor] required field 'field' missing",
    );
    expect(fail({ function_score: { field_value_factor: { field: 'n', modifier: 'cube' } } }).reason).toBe(
      'No enum constant org.elasticsearch.common.lucene.search.function.FieldValueFactorFunction.Modifier.CUBE',
    );
    expect(fail({ function_score: { random_score: { seed: 1.5 } } }).reason).toBe(
      "random_score seed must be an int, long or string, not 'VALUE_NUMBER'",
    );
    expect(fail({ function_score: { linear: { multi_value_mode: 'min' } } }).reason).toBe(
      'malformed score function score parameters.',
    );
    expect(fail({ function_score: { linear: { n: {}, multi_value_mode: 'mean' } } }).reason).toBe(
      'Illegal sort mode: mean',
    );
    expect(fail({ function_score: { script_score: { script: 'x', lang: 'p' } } }).reason).toBe(
      'script_score query does not support [lang]',
    );
  });
});

describe('boosting parsing', () => {
  it('reads positive, negative, negative_boost and boost', () => {
    expect(
      parseQuery({
        boosting: { positive: { match_all: {} }, negative: { match_none: {} }, negative_boost: '0.5' },
      }),
    ).toEqual({
      type: 'boosting',
      positive: { type: 'match_all', boost: 1 },
      negative: { type: 'match_none' },
      negativeBoost: 0.5,
      boost: 1,
    });
  });

  it('refuses unknown keys and a missing positive', () => {
    expect(fail({ boosting: { positive: { match_all: {} }, other: {} } }).reason).toBe(
      '[boosting] query does not support [other]',
    );
    expect(fail({ boosting: { negative: { match_all: {} }, negative_boost: 1 } }).reason).toBe(
      "[boosting] query requires 'positive' query to be set'",
    );
  });
});
