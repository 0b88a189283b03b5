import { describe, expect, it } from 'vitest';
import { errorBody } from '../../errors/error-body.ts';
import { RawJson } from '../../json/raw-json.ts';
import { stringifyJson, stringifyJsonBytes } from '../../json/stringify.ts';
import { filterPath } from '../../rest/filter-path.ts';
import { mergeAggregations } from './merge.ts';
import { parseAggregations } from './parse-aggs.ts';
import type { AggPartial, TermsPartial } from './partial.ts';
import { DATE, dates, RAW, reduce } from './reduce.test-support.ts';
import { reducePhaseFailure } from './reduce-failure.ts';
import { renderAggregations } from './render.ts';

function renderJava(aggs: Record<string, unknown>, shards: AggPartial[][], typedKeys = false): string {
  const specs = parseAggregations(aggs).aggs;
  const out = renderAggregations(specs, mergeAggregations(specs, shards), {
    dates,
    javaDoubles: true,
    typedKeys,
  });
  return stringifyJson(out);
}

describe('doubles written as Jackson writes Java doubles', () => {
  it('metric values keep a fraction; counts stay integers', () => {
    const text = renderJava(
      {
        sum: { sum: { field: 'f' } },
        avg: { avg: { field: 'f' } },
        min: { min: { field: 'f' } },
        max: { max: { field: 'f' } },
        count: { value_count: { field: 'f' } },
        stats: { stats: { field: 'f' } },
        empty: { stats: { field: 'g' } },
      },
      [
        [
          { t: 'sum', sum: 15, fmt: RAW },
          { t: 'avg', sum: 15, count: 3, fmt: RAW },
          { t: 'min', value: 1e10, fmt: RAW },
          { t: 'max', value: 0.00001, fmt: RAW },
          { t: 'value_count', count: 3 },
          { t: 'stats', count: 3, sum: 15, min: -1, max: 10, sumOfSquares: 0, fmt: RAW },
          { t: 'stats', count: 0, sum: 0, min: Infinity, max: -Infinity, sumOfSquares: 0, fmt: RAW },
        ],
      ],
    );
    expect(text).toBe(
      '{"sum":{"value":15.0},"avg":{"value":5.0},"min":{"value":1.0E10},"max":{"value":1.0E-5},' +
        '"count":{"value":3},"stats":{"count":3,"min":-1.0,"max":10.0,"avg":5.0,"sum":15.0},' +
        '"empty":{"count":0,"min":null,"max":null,"avg":null,"sum":0.0}}',
    );
  });

  it('histogram keys and range bounds are doubles; date_histogram keys and doc counts are longs', () => {
    const text = renderJava(
      {
        h: { histogram: { field: 'n', interval: 2 } },
        d: { date_histogram: { field: 't', fixed_interval: '1d', min_doc_count: 1 } },
        r: { date_range: { field: 't', ranges: [{ from: 86_400_000 }] } },
      },
      [
        [
          {
            t: 'histogram',
            fmt: RAW,
            buckets: [
              { key: 0, docCount: 1, aggs: [] },
              { key: 4, docCount: 2, aggs: [] },
            ],
          },
          { t: 'date_histogram', fmt: DATE, buckets: [{ key: 86_400_000, docCount: 1, aggs: [] }] },
          { t: 'range', fmt: DATE, buckets: [{ from: 86_400_000, to: Infinity, docCount: 1, aggs: [] }] },
        ],
      ],
    );
    expect(text).toContain('"h":{"buckets":[{"key":0.0,"doc_count":1},{"key":2.0,"doc_count":0},');
    expect(text).toContain('"d":{"buckets":[{"key_as_string":"1970-01-02T00:00:00.000Z","key":86400000,');
    expect(text).toContain('"from":8.64E7,"from_as_string":"1970-01-02T00:00:00.000Z","doc_count":1');
  });

  it('double terms keys and merged long/double keys are doubles; long keys are not', () => {
    const terms = (kind: 'long' | 'double', keys: number[]): TermsPartial => ({
      t: 'terms',
      kind,
      buckets: keys.map((key) => ({ key, docCount: 1, presentError: 0, aggs: [] })),
      otherDocCount: 0,
      docCountError: 0,
      fmt: RAW,
    });
    const aggs = { t: { terms: { field: 'n' } } };
    expect(renderJava(aggs, [[terms('long', [-1, 2])]])).toContain('"key":-1,');
    expect(renderJava(aggs, [[terms('double', [-1])]])).toContain('"key":-1.0,');
    expect(renderJava(aggs, [[terms('long', [3])], [terms('double', [2.5])]], true)).toContain(
      '"dterms#t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":2.5,"doc_count":1},{"key":3.0,',
    );
  });

  it('composite histogram keys and terms keys of double fields are doubles', () => {
    const text = renderJava(
      {
        c: {
          composite: {
            sources: [{ h: { histogram: { field: 'n', interval: 5 } } }, { d: { terms: { field: 'x' } } }],
          },
        },
      },
      [
        [
          {
            t: 'composite',
            formats: [RAW, RAW],
            doubles: [false, true],
            buckets: [{ key: [5, 2], docCount: 1, aggs: [] }],
          },
        ],
      ],
    );
    expect(text).toBe(
      '{"c":{"after_key":{"h":5.0,"d":2.0},"buckets":[{"key":{"h":5.0,"d":2.0},"doc_count":1}]}}',
    );
  });

  it('keeps the number texts through ?pretty, filter_path and the byte writer', () => {
    const specs = parseAggregations({ s: { sum: { field: 'f' } }, c: { value_count: { field: 'f' } } }).aggs;
    const out = {
      aggregations: renderAggregations(
        specs,
        [
          { t: 'sum', sum: 4, fmt: RAW },
          { t: 'value_count', count: 2 },
        ],
        { dates, javaDoubles: true },
      ),
    };
    expect(stringifyJson(out, true)).toBe(
      '{\n  "aggregations" : {\n    "s" : {\n      "value" : 4.0\n    },\n    "c" : {\n      "value" : 2\n    }\n  }\n}\n',
    );
    expect(stringifyJson(filterPath(out, 'aggregations.s.value'))).toBe(
      '{"aggregations":{"s":{"value":4.0}}}',
    );
    expect(stringifyJson(filterPath(out, '-aggregations.c'))).toBe('{"aggregations":{"s":{"value":4.0}}}');
    // `**` walks into every value, raw ones included: a raw number keeps its text.
    expect(stringifyJson(filterPath(out, '-**.c'))).toBe('{"aggregations":{"s":{"value":4.0}}}');
    expect(stringifyJson(filterPath(out, '**.value'))).toBe(
      '{"aggregations":{"s":{"value":4.0},"c":{"value":2}}}',
    );
    const bytes = stringifyJsonBytes(out);
    expect(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString()).toBe(
      '{"aggregations":{"s":{"value":4.0},"c":{"value":2}}}',
    );
    // A raw object is still re-indented under ?pretty.
    expect(stringifyJson({ a: new RawJson('{"b":1}') }, true)).toBe('{\n  "a" : {\n    "b" : 1\n  }\n}\n');
  });

  it('leaves plain numbers when not asked (readers of the values)', () => {
    expect(reduce({ s: { sum: { field: 'f' } } }, [[{ t: 'sum', sum: 4, fmt: RAW }]])).toEqual({
      s: { value: 4 },
    });
  });
});

describe('filters', () => {
  const shard: AggPartial[] = [
    {
      t: 'filters',
      buckets: [
        { t: 'single', docCount: 1, aggs: [] },
        { t: 'single', docCount: 2, aggs: [] },
      ],
      other: { t: 'single', docCount: 3, aggs: [] },
    },
  ];
  it('named filters listed with keyed false carry their key, the other bucket too', () => {
    const out = reduce(
      {
        f: {
          filters: {
            keyed: false,
            other_bucket_key: 'rest',
            filters: { b: { match_all: {} }, a: { match_all: {} } },
          },
        },
      },
      [shard],
    );
    expect(out.f).toEqual({
      buckets: [
        { key: 'a', doc_count: 1 },
        { key: 'b', doc_count: 2 },
        { key: 'rest', doc_count: 3 },
      ],
    });
  });

  it('anonymous filters are a list without keys, even with keyed true', () => {
    const out = reduce(
      {
        f: { filters: { keyed: true, other_bucket: true, filters: [{ match_all: {} }, { match_all: {} }] } },
      },
      [shard],
    );
    expect(out.f).toEqual({ buckets: [{ doc_count: 1 }, { doc_count: 2 }, { doc_count: 3 }] });
  });
});

describe('terms across indices of different types', () => {
  it('fails the merge with an illegal_argument_exception, reported as a fetch phase failure', () => {
    const specs = parseAggregations({ t: { terms: { field: 'f' } } }).aggs;
    const part = (kind: 'string' | 'long'): AggPartial => ({
      t: 'terms',
      kind,
      buckets: [],
      otherDocCount: 0,
      docCountError: 0,
      fmt: RAW,
    });
    let caught: unknown;
    try {
      mergeAggregations(specs, [[part('string')], [part('long')]]);
    } catch (e) {
      caught = e;
    }
    const reason =
      'Merging/Reducing the aggregations failed when computing the aggregation [t] because the field you gave ' +
      'in the aggregation query existed as two different types in two different indices';
    expect(caught).toMatchObject({ type: 'illegal_argument_exception', status: 400, reason });
    const body = errorBody(reducePhaseFailure(caught as never));
    expect(body).toEqual({
      status: 400,
      body: {
        error: {
          root_cause: [],
          type: 'search_phase_execution_exception',
          reason: '',
          phase: 'fetch',
          grouped: true,
          failed_shards: [],
          caused_by: { type: 'illegal_argument_exception', reason },
        },
        status: 400,
      },
    });
  });
});

describe('terms include/exclude', () => {
  it('keeps a regular expression for the shard to judge', () => {
    const [spec] = parseAggregations({ t: { terms: { field: 'f', include: 'a.*', exclude: ['b'] } } }).aggs;
    expect(spec).toMatchObject({ regex: { include: 'a.*' }, exclude: ['b'] });
  });
});
