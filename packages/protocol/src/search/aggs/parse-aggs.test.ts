import { describe, expect, it } from 'vitest';
import { toShoalError } from '../../errors/error-body.ts';
import { failure, one } from './parse.test-support.ts';
import { parseAggregations } from './parse-aggs.ts';

describe('the aggregation tree', () => {
  it('parses sub-aggregations under aggs or aggregations, in request order, with meta', () => {
    const { aggs } = parseAggregations({
      by_tag: {
        terms: { field: 'tag' },
        meta: { color: 'blue' },
        aggregations: {
          avg_price: { avg: { field: 'price' } },
          hist: { histogram: { field: 'n', interval: 5 } },
        },
      },
      total: { sum: { field: 'price' } },
    });
    expect(aggs.map((a) => a.name)).toEqual(['by_tag', 'total']);
    const terms = aggs[0]!;
    expect(terms).toMatchObject({ type: 'terms', meta: { color: 'blue' } });
    expect('aggs' in terms && terms.aggs.map((a) => [a.name, a.type])).toEqual([
      ['avg_price', 'avg'],
      ['hist', 'histogram'],
    ]);
    expect(Object.isFrozen(terms)).toBe(true);
  });

  it('applies Elasticsearch defaults', () => {
    expect(one({ t: { terms: { field: 'f' } } })).toMatchObject({
      size: 10,
      shardSize: 25,
      minDocCount: 1,
      shardMinDocCount: 0,
      order: [
        { kind: 'count', asc: false },
        { kind: 'key', asc: true },
      ],
    });
    expect(one({ t: { terms: { field: 'f', size: 3, shard_size: 1 } } })).toMatchObject({
      size: 3,
      shardSize: 3,
    });
    expect(one({ h: { histogram: { field: 'f', interval: 2 } } })).toMatchObject({
      minDocCount: 0,
      offset: 0,
      keyed: false,
      order: [{ kind: 'key', asc: true }],
    });
    expect(one({ c: { cardinality: { field: 'f' } } })).toMatchObject({ precisionThreshold: 3000 });
    expect(one({ c: { cardinality: { field: 'f', precision_threshold: 100000 } } })).toMatchObject({
      precisionThreshold: 40000,
    });
  });

  it('refuses an unknown type with Elasticsearch suggestions and cause', () => {
    expect(failure({ a: { avgg: { field: 'x' } } })).toEqual({
      status: 400,
      type: 'parsing_exception',
      reason: 'Unknown aggregation type [avgg] did you mean [avg]?',
      metadata: { line: 1, col: 22 },
      cause: { type: 'named_object_not_found_exception', reason: '[1:22] unknown field [avgg]' },
    });
    expect(failure({ a: { foo: {} } })).toMatchObject({ reason: 'Unknown aggregation type [foo]' });
  });

  it('refuses two types, no type, two sub-aggregation objects', () => {
    expect(failure({ a: { terms: { field: 'x' }, avg: { field: 'y' } } })).toMatchObject({
      status: 400,
      type: 'parsing_exception',
      reason: 'Found two aggregation type definitions in [a]: [terms] and [avg]',
    });
    expect(failure({ a: {} })).toMatchObject({
      type: 'parsing_exception',
      reason: 'Missing definition for aggregation [a]',
      metadata: { line: 1, col: 15 },
    });
    expect(failure({ a: { meta: {} } })).toMatchObject({ reason: 'Missing definition for aggregation [a]' });
    expect(
      failure({
        a: {
          terms: { field: 'x' },
          aggs: { b: { avg: { field: 'y' } } },
          aggregations: { c: { avg: { field: 'y' } } },
        },
      }),
    ).toMatchObject({ type: 'parsing_exception', reason: 'Found two sub aggregation definitions under [a]' });
  });

  it('refuses invalid names and definitions that are not objects', () => {
    for (const name of ['a[0]', 'a>b', 'x]']) {
      expect(failure({ [name]: { avg: { field: 'x' } } })).toMatchObject({
        status: 400,
        type: 'parsing_exception',
        reason: `Invalid aggregation name [${name}]. Aggregation names can contain any character except '[', ']', and '>'`,
      });
    }
    expect(failure({ a: 'terms' })).toMatchObject({
      reason: 'Aggregation definition for [a starts with a [VALUE_STRING], expected a [START_OBJECT].',
    });
    expect(failure({ a: { terms: 'f' } })).toMatchObject({
      reason: 'Expected [START_OBJECT] under [terms], but got a [VALUE_STRING] in [a]',
    });
  });

  it('refuses sub-aggregations under a metric', () => {
    expect(failure({ a: { avg: { field: 'x' }, aggs: { b: { sum: { field: 'y' } } } } })).toEqual({
      status: 400,
      type: 'aggregation_initialization_exception',
      reason: 'Aggregator [a] of type [avg] cannot accept sub-aggregations',
      metadata: {},
      cause: undefined,
    });
  });

  it('requires a field', () => {
    for (const type of ['avg', 'terms', 'cardinality', 'missing']) {
      expect(failure({ a: { [type]: {} } })).toMatchObject({
        status: 400,
        type: 'illegal_argument_exception',
        reason: 'Required one of fields [field, script], but none were specified. ',
      });
    }
  });

  it('answers 501 for what Shoal does not have, naming it', () => {
    for (const type of [
      'geo_line',
      'categorize_text',
      'scripted_metric',
      'random_sampler',
      'geohex_grid',
      'time_series',
    ]) {
      expect(failure({ a: { [type]: {} } })).toEqual({
        status: 501,
        type: 'unsupported_operation_exception',
        reason: `the [${type}] aggregation is not implemented in Shoal`,
        metadata: {},
        cause: undefined,
      });
    }
    expect(
      failure({ a: { terms: { field: 'x', include: { partition: 0, num_partitions: 2 } } } }),
    ).toMatchObject({
      status: 501,
      reason: 'partitions in the [include] of a terms aggregation is not implemented in Shoal',
    });
    expect(failure({ a: { string_stats: { script: { source: '1' } } } })).toMatchObject({
      status: 501,
      reason: 'scripts in the [string_stats] aggregation is not implemented in Shoal',
    });
    expect(failure({ a: { histogram: { field: 'x', interval: 1, hard_bounds: { min: 0 } } } })).toMatchObject(
      {
        status: 501,
      },
    );
    expect(
      failure({ a: { terms: { field: 'x' }, aggs: { p: { geo_line: { point: { field: 'y' } } } } } }),
    ).toMatchObject({
      status: 501,
    });
  });

  it('keeps global and composite at the top', () => {
    expect(failure({ t: { terms: { field: 'x' }, aggs: { g: { global: {} } } } })).toMatchObject({
      status: 400,
      type: 'aggregation_execution_exception',
      reason:
        'Aggregation [t] cannot have a global sub-aggregation [g]. Global aggregations can only be defined as top level aggregations',
    });
    expect(
      failure({
        t: {
          aggs: { c: { composite: { sources: [{ s: { terms: { field: 'x' } } }] } } },
          terms: { field: 'x' },
        },
      }),
    ).toMatchObject({
      reason:
        '[composite] aggregation cannot be used with a parent aggregation of type: [TermsAggregatorFactory]',
    });
  });

  it('positions errors in the whole body when told where the aggregations are', () => {
    const body = { size: 0, aggregations: { a: { foo: {} } } };
    try {
      parseAggregations(body.aggregations, { body, path: ['aggregations'] });
    } catch (e) {
      expect(toShoalError(e).metadata).toEqual({ line: 1, col: 38 });
      return;
    }
    throw new Error('expected a failure');
  });
});
