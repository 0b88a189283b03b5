import { describe, expect, it } from 'vitest';
import { failure, one } from './parse.test-support.ts';
import { parseAggregations } from './parse-aggs.ts';

describe('aggregation bodies', () => {
  it('wraps field errors as ObjectParser does', () => {
    expect(failure({ a: { terms: { field: 'x', size: 0 } } })).toEqual({
      status: 400,
      type: 'x_content_parse_exception',
      reason: '[1:43] [terms] failed to parse field [size]',
      metadata: {},
      cause: {
        type: 'illegal_argument_exception',
        reason: '[size] must be greater than 0. Found [0] in [a]',
      },
    });
    expect(failure({ a: { terms: { field: 'x', min_doc_count: -1 } } })).toMatchObject({
      cause: { reason: '[minDocCount] must be greater than or equal to 0. Found [-1] in [a]' },
    });
    expect(failure({ a: { terms: { field: 'x', foo: 1 } } })).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[1:36] [terms] unknown field [foo]',
    });
    expect(failure({ a: { avg: { field: ['x'] } } })).toMatchObject({
      reason: "[1:30] [avg] field doesn't support values of type: START_ARRAY",
    });
    expect(failure({ a: { terms: { field: 'x', order: { _count: 'up' } } } })).toMatchObject({
      reason: '[1:54] [terms] failed to parse field [order]',
      cause: { type: 'parsing_exception', reason: 'Unknown order direction [up]' },
    });
    expect(failure({ a: { avg: { field: 'x', value_type: 'money' } } })).toMatchObject({
      cause: { type: 'illegal_argument_exception', reason: 'Unknown value type [money]' },
    });
    expect(
      failure({ a: { date_histogram: { field: 'x', fixed_interval: '1d', time_zone: 'Mars/Base' } } }),
    ).toMatchObject({
      cause: { type: 'zone_rules_exception', reason: 'Unknown time-zone ID: Mars/Base' },
    });
  });

  it('checks histogram intervals', () => {
    expect(failure({ h: { histogram: { field: 'x' } } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: '[interval] must be >0 for histogram aggregation [h]',
    });
    expect(failure({ h: { histogram: { field: 'x', interval: -5 } } })).toMatchObject({
      type: 'x_content_parse_exception',
      cause: { reason: '[interval] must be >0 for histogram aggregation [h]' },
    });
    expect(
      failure({ h: { histogram: { field: 'x', interval: 1, extended_bounds: { min: 10, max: 0 } } } }),
    ).toMatchObject({
      reason:
        '[extended_bounds.min][10.0] cannot be greater than [extended_bounds.max][0.0] for histogram aggregation [h]',
    });
  });

  it('checks date_histogram intervals', () => {
    expect(failure({ d: { date_histogram: { field: 'ts' } } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Invalid interval specified, must be non-null and non-empty',
    });
    expect(failure({ d: { date_histogram: { field: 'ts', calendar_interval: '2d' } } })).toMatchObject({
      type: 'x_content_parse_exception',
      cause: { reason: 'The supplied interval [2d] could not be parsed as a calendar interval.' },
    });
    expect(failure({ d: { date_histogram: { field: 'ts', fixed_interval: '1M' } } })).toMatchObject({
      cause: {
        reason:
          'failed to parse setting [date_histogram.fixedInterval] with value [1M] as a time value: unit is missing or unrecognized',
      },
    });
    expect(
      failure({ d: { date_histogram: { field: 'ts', calendar_interval: '1d', fixed_interval: '1h' } } }),
    ).toMatchObject({
      cause: { reason: 'Cannot use [fixed_interval] with [calendar_interval] configuration option.' },
    });
    expect(
      failure({ d: { date_histogram: { field: 'ts', interval: '1d', calendar_interval: '1d' } } }),
    ).toMatchObject({
      cause: { reason: 'Cannot use [calendar_interval] with [interval] configuration option.' },
    });
    expect(failure({ d: { date_histogram: { field: 'ts', interval: 'fortnight' } } })).toMatchObject({
      reason: 'Unable to parse interval [fortnight]',
    });
  });

  it('reads intervals, offsets and the legacy interval with its deprecation', () => {
    expect(
      one({ d: { date_histogram: { field: 'ts', calendar_interval: 'month', offset: '+6h' } } }),
    ).toMatchObject({
      rounding: { interval: { kind: 'calendar', unit: 'month' }, offsetMillis: 6 * 3600000 },
    });
    expect(
      one({ d: { date_histogram: { field: 'ts', fixed_interval: '90m', time_zone: '+01:00' } } }),
    ).toMatchObject({
      rounding: { interval: { kind: 'fixed', millis: 90 * 60000 }, timeZone: '+01:00', offsetMillis: 0 },
    });
    const legacy = parseAggregations({ d: { date_histogram: { field: 'ts', interval: '1d' } } });
    expect(legacy.aggs[0]).toMatchObject({ rounding: { interval: { kind: 'calendar', unit: 'day' } } });
    expect(legacy.warnings).toEqual([
      '[interval] on [date_histogram] is deprecated, use [fixed_interval] or [calendar_interval] in the future.',
    ]);
    const fixed = parseAggregations({
      d: { date_histogram: { field: 'ts', interval: '3h', offset: '-30m' } },
    });
    expect(fixed.aggs[0]).toMatchObject({
      rounding: { interval: { kind: 'fixed', millis: 3 * 3600000 }, offsetMillis: -30 * 60000 },
    });
  });

  it('reads orders with their tie-breaker and the _term deprecation', () => {
    expect(one({ t: { terms: { field: 'f', order: { 'stats.avg': 'desc' } } } })).toMatchObject({
      order: [
        { kind: 'path', path: 'stats.avg', asc: false },
        { kind: 'key', asc: true },
      ],
    });
    expect(one({ t: { terms: { field: 'f', order: [{ _count: 'asc' }, { _key: 'desc' }] } } })).toMatchObject(
      {
        order: [
          { kind: 'count', asc: true },
          { kind: 'key', asc: false },
        ],
      },
    );
    const term = parseAggregations({ t: { terms: { field: 'f', order: { _term: 'asc' } } } });
    expect(term.aggs[0]).toMatchObject({ order: [{ kind: 'key', asc: true }] });
    expect(term.warnings).toEqual(['Deprecated aggregation order key [_term] used, replaced by [_key]']);
  });

  it('parses filter queries with the query parser, and its errors', () => {
    expect(one({ f: { filter: { term: { tag: 'a' } } } })).toMatchObject({
      type: 'filter',
      query: { type: 'term', field: 'tag', value: 'a' },
    });
    expect(failure({ f: { filter: {} } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'query malformed, empty clause found at [1:25]',
    });
  });

  it('parses named filters in key order and anonymous ones as a list', () => {
    const named = one({
      f: {
        filters: {
          filters: { warn: { term: { l: 'w' } }, error: { term: { l: 'e' } } },
          other_bucket_key: 'rest',
        },
      },
    });
    expect(named).toMatchObject({ keyed: true, otherBucket: true, otherBucketKey: 'rest' });
    expect(named.type === 'filters' && named.filters.map((f) => f.key)).toEqual(['error', 'warn']);
    const anonymous = one({ f: { filters: { filters: [{ match_all: {} }, { term: { l: 'e' } }] } } });
    expect(anonymous).toMatchObject({ keyed: false, otherBucket: false, otherBucketKey: '_other_' });
    expect(failure({ f: { filters: { filters: [] } } })).toMatchObject({
      reason: '[filters] cannot be empty.',
    });
    expect(failure({ f: { filters: { other: true } } })).toMatchObject({
      type: 'parsing_exception',
      reason: 'Unknown key for a VALUE_BOOLEAN in [f]: [other].',
    });
  });

  it('parses composite sources and checks after', () => {
    const spec = one({
      c: {
        composite: {
          size: 2,
          sources: [
            { tag: { terms: { field: 'tag', order: 'desc', missing_bucket: true } } },
            { day: { date_histogram: { field: 'ts', calendar_interval: '1d', format: 'yyyy-MM-dd' } } },
            { n: { histogram: { field: 'n', interval: 5 } } },
          ],
          after: { tag: 'b', day: '2020-01-01', n: 5 },
        },
      },
    });
    expect(spec).toMatchObject({
      size: 2,
      sources: [
        { name: 'tag', kind: 'terms', asc: false, missingBucket: true },
        { name: 'day', kind: 'date_histogram', source: { format: 'yyyy-MM-dd' } },
        { name: 'n', kind: 'histogram', interval: 5 },
      ],
      after: { tag: 'b', day: '2020-01-01', n: 5 },
    });
    expect(failure({ c: { composite: { sources: [] } } })).toMatchObject({
      reason: 'Composite [sources] cannot be null or empty',
    });
    expect(
      failure({ c: { composite: { sources: [{ a: { terms: { field: 'x' } } }], after: { a: 1, b: 2 } } } }),
    ).toMatchObject({ reason: '[after] has 2 value(s) but [sources] has 1' });
    expect(failure({ c: { composite: { sources: [{ a: { geo: {} } }] } } })).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[1:51] [composite] failed to parse field [sources]',
      cause: { type: 'parsing_exception', reason: 'invalid source type: geo' },
    });
  });

  it('reads ranges', () => {
    expect(
      one({
        r: { date_range: { field: 'ts', keyed: true, ranges: [{ to: 'now-1d/d' }, { from: 10, key: 'x' }] } },
      }),
    ).toMatchObject({
      type: 'date_range',
      keyed: true,
      ranges: [{ to: 'now-1d/d' }, { from: 10, key: 'x' }],
    });
    expect(failure({ r: { range: { field: 'x' } } })).toMatchObject({
      reason: 'No [ranges] specified for the [r] aggregation',
    });
  });
});
