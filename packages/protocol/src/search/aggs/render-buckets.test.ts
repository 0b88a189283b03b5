import { describe, expect, it } from 'vitest';
import { toShoalError } from '../../errors/error-body.ts';
import type { AggPartial, TermsPartial, ValueFormat } from './partial.ts';
import { DATE, RAW, reduce, terms } from './reduce.test-support.ts';

describe('terms', () => {
  it('cuts to size with sum_other_doc_count and the doc count error', () => {
    const aggs = { t: { terms: { field: 'f', size: 2, shard_size: 2, show_term_doc_count_error: true } } };
    const shard1 = terms(
      [
        ['x', 10],
        ['y', 8],
        ['z', 5],
      ],
      2,
    );
    const shard2 = terms(
      [
        ['x', 6],
        ['z', 7],
        ['y', 3],
      ],
      2,
    );
    expect(reduce(aggs, [[shard1], [shard2]])).toEqual({
      t: {
        doc_count_error_upper_bound: 14,
        sum_other_doc_count: 15,
        buckets: [
          { key: 'x', doc_count: 16, doc_count_error_upper_bound: 0 },
          { key: 'y', doc_count: 8, doc_count_error_upper_bound: 6 },
        ],
      },
    });
  });

  it('orders by count desc then key asc, by key, or by a sub-aggregation', () => {
    const b = (key: string, docCount: number, avg: number) => ({
      key,
      docCount,
      presentError: 0,
      aggs: [{ t: 'avg' as const, sum: avg, count: 1, fmt: RAW }],
    });
    const p: TermsPartial = {
      t: 'terms',
      kind: 'string',
      buckets: [b('b', 2, 5), b('a', 2, 1), b('c', 3, 3)],
      otherDocCount: 0,
      docCountError: 0,
      fmt: RAW,
    };
    const keys = (order: unknown) => {
      const body = order === undefined ? { field: 'f' } : { field: 'f', order };
      const out = reduce({ t: { terms: body, aggs: { m: { avg: { field: 'v' } } } } }, [[p]]);
      return (out.t as { buckets: { key: string }[] }).buckets.map((x) => x.key);
    };
    expect(keys(undefined)).toEqual(['c', 'a', 'b']);
    expect(keys({ _key: 'desc' })).toEqual(['c', 'b', 'a']);
    expect(keys({ m: 'asc' })).toEqual(['a', 'c', 'b']);
    expect(keys([{ _count: 'asc' }, { m: 'desc' }])).toEqual(['b', 'a', 'c']);
  });

  it('prints numeric, boolean, date and ip keys', () => {
    const one = (kind: TermsPartial['kind'], key: string | number | bigint, fmt: ValueFormat) =>
      reduce({ t: { terms: { field: 'f' } } }, [
        [
          {
            t: 'terms',
            kind,
            buckets: [{ key, docCount: 1, presentError: 0, aggs: [] }],
            otherDocCount: 0,
            docCountError: 0,
            fmt,
          },
        ],
      ]);
    const bucket = (o: Record<string, unknown>) => (o.t as { buckets: unknown[] }).buckets[0];
    expect(bucket(one('long', 9007199254740993n, RAW))).toEqual({ key: 9007199254740993n, doc_count: 1 });
    expect(bucket(one('bool', 1, { kind: 'bool' }))).toEqual({ key: 1, key_as_string: 'true', doc_count: 1 });
    expect(bucket(one('date', 0, DATE))).toEqual({
      key: 0,
      key_as_string: '1970-01-01T00:00:00.000Z',
      doc_count: 1,
    });
    expect(bucket(one('ip', '00000000000000000000ffff0a000001', { kind: 'ip' }))).toEqual({
      key: '10.0.0.1',
      doc_count: 1,
    });
  });

  it('refuses to merge a field mapped as text in one index and as a number in another', () => {
    const aggs = { t: { terms: { field: 'f' } } };
    const s: TermsPartial = {
      t: 'terms',
      kind: 'string',
      buckets: [],
      otherDocCount: 0,
      docCountError: 0,
      fmt: RAW,
    };
    try {
      reduce(aggs, [[s], [{ ...s, kind: 'long' }]]);
    } catch (e) {
      expect(toShoalError(e).reason).toContain('existed as two different types in two different indices');
      return;
    }
    throw new Error('expected a failure');
  });
});

describe('histograms', () => {
  const bucket = (key: number, docCount: number) => ({ key, docCount, aggs: [] });

  it('fill gaps and extended bounds with empty buckets', () => {
    const aggs = { h: { histogram: { field: 'f', interval: 5, extended_bounds: { min: -3, max: 22 } } } };
    const out = reduce(aggs, [
      [{ t: 'histogram', buckets: [bucket(5, 1), bucket(15, 2)], fmt: RAW }],
      [{ t: 'histogram', buckets: [bucket(5, 2)], fmt: RAW }],
    ]);
    expect(out).toEqual({
      h: {
        buckets: [
          { key: -5, doc_count: 0 },
          { key: 0, doc_count: 0 },
          { key: 5, doc_count: 3 },
          { key: 10, doc_count: 0 },
          { key: 15, doc_count: 2 },
          { key: 20, doc_count: 0 },
        ],
      },
    });
  });

  it('drop buckets under min_doc_count, order, and key the buckets', () => {
    const p: AggPartial = { t: 'histogram', buckets: [bucket(0, 1), bucket(10, 3), bucket(20, 2)], fmt: RAW };
    expect(
      reduce(
        { h: { histogram: { field: 'f', interval: 10, min_doc_count: 2, order: { _count: 'desc' } } } },
        [[p]],
      ),
    ).toEqual({
      h: {
        buckets: [
          { key: 10, doc_count: 3 },
          { key: 20, doc_count: 2 },
        ],
      },
    });
    expect(
      JSON.stringify(
        reduce({ h: { histogram: { field: 'f', interval: 10, keyed: true, min_doc_count: 1 } } }, [[p]]),
      ),
    ).toBe(
      '{"h":{"buckets":{"0.0":{"key":0,"doc_count":1},"10.0":{"key":10,"doc_count":3},"20.0":{"key":20,"doc_count":2}}}}',
    );
  });

  it('fill date gaps with the rounding, between the shard-rounded bounds', () => {
    const day = 86_400_000;
    const aggs = { d: { date_histogram: { field: 'ts', calendar_interval: 'day' } } };
    const out = reduce(aggs, [
      [
        {
          t: 'date_histogram',
          buckets: [bucket(day, 1), bucket(3 * day, 1)],
          fmt: DATE,
          bounds: { min: 0, max: 4 * day },
        },
      ],
    ]);
    expect((out.d as { buckets: unknown[] }).buckets).toEqual([
      { key_as_string: '1970-01-01T00:00:00.000Z', key: 0, doc_count: 0 },
      { key_as_string: '1970-01-02T00:00:00.000Z', key: day, doc_count: 1 },
      { key_as_string: '1970-01-03T00:00:00.000Z', key: 2 * day, doc_count: 0 },
      { key_as_string: '1970-01-04T00:00:00.000Z', key: 3 * day, doc_count: 1 },
      { key_as_string: '1970-01-05T00:00:00.000Z', key: 4 * day, doc_count: 0 },
    ]);
  });

  it('fail past search.max_buckets instead of filling forever', () => {
    const aggs = { h: { histogram: { field: 'f', interval: 0.001 } } };
    const p: AggPartial = { t: 'histogram', buckets: [bucket(0, 1), bucket(1e9, 1)], fmt: RAW };
    try {
      reduce(aggs, [[p]], 1000);
    } catch (e) {
      const err = toShoalError(e);
      expect(err.type).toBe('too_many_buckets_exception');
      expect(err.reason).toBe(
        'Trying to create too many buckets. Must be less than or equal to: [1000] but this number of buckets was exceeded. ' +
          'This limit can be set by changing the [search.max_buckets] cluster level setting.',
      );
      expect(err.metadata).toEqual({ max_buckets: 1000 });
      return;
    }
    throw new Error('expected a failure');
  });
});

describe('ranges, filters, single buckets', () => {
  it('render range keys from the bounds, keyed or not', () => {
    const p: AggPartial = {
      t: 'range',
      buckets: [
        { from: -Infinity, to: 10, docCount: 1, aggs: [] },
        { key: 'mid', from: 10, to: 20.5, docCount: 2, aggs: [] },
        { from: 20.5, to: Infinity, docCount: 0, aggs: [] },
      ],
      fmt: RAW,
    };
    expect(
      reduce(
        {
          r: {
            range: { field: 'f', ranges: [{ to: 10 }, { key: 'mid', from: 10, to: 20.5 }, { from: 20.5 }] },
          },
        },
        [[p], [p]],
      ),
    ).toEqual({
      r: {
        buckets: [
          { key: '*-10.0', to: 10, doc_count: 2 },
          { key: 'mid', from: 10, to: 20.5, doc_count: 4 },
          { key: '20.5-*', from: 20.5, doc_count: 0 },
        ],
      },
    });
    const dateRange: AggPartial = {
      t: 'range',
      buckets: [{ from: 0, to: Infinity, docCount: 1, aggs: [] }],
      fmt: DATE,
    };
    expect(
      reduce({ r: { date_range: { field: 'ts', keyed: true, ranges: [{ from: 0 }] } } }, [[dateRange]]),
    ).toEqual({
      r: {
        buckets: {
          '1970-01-01T00:00:00.000Z-*': { from: 0, from_as_string: '1970-01-01T00:00:00.000Z', doc_count: 1 },
        },
      },
    });
  });

  it('render filters keyed by name with the other bucket, or as a list', () => {
    const single = (n: number): AggPartial => ({ t: 'single', docCount: n, aggs: [] });
    const p: AggPartial = {
      t: 'filters',
      buckets: [single(1) as never, single(2) as never],
      other: single(3) as never,
    };
    expect(
      reduce(
        { f: { filters: { filters: { b: { match_all: {} }, a: { match_all: {} } }, other_bucket: true } } },
        [[p]],
      ),
    ).toEqual({ f: { buckets: { a: { doc_count: 1 }, b: { doc_count: 2 }, _other_: { doc_count: 3 } } } });
    expect(
      reduce({ f: { filters: { filters: [{ match_all: {} }, { match_all: {} }], other_bucket: true } } }, [
        [p],
      ]),
    ).toEqual({
      f: { buckets: [{ doc_count: 1 }, { doc_count: 2 }, { doc_count: 3 }] },
    });
  });
});

describe('composite', () => {
  it('merges pages of the shards, keeps size, prints after_key', () => {
    const aggs = {
      c: {
        composite: {
          size: 3,
          sources: [
            { tag: { terms: { field: 'tag', missing_bucket: true } } },
            { day: { date_histogram: { field: 'ts', fixed_interval: '1d' } } },
          ],
        },
      },
    };
    const formats: ValueFormat[] = [RAW, RAW];
    const b = (tag: string | null, day: number, docCount: number) => ({
      key: [tag, day],
      docCount,
      aggs: [],
    });
    const out = reduce(aggs, [
      [{ t: 'composite', buckets: [b(null, 0, 1), b('a', 0, 1), b('b', 0, 2)], formats }],
      [{ t: 'composite', buckets: [b('a', 0, 1), b('a', 86_400_000, 1), b('c', 0, 1)], formats }],
    ]);
    expect(out).toEqual({
      c: {
        after_key: { tag: 'a', day: 86_400_000 },
        buckets: [
          { key: { tag: null, day: 0 }, doc_count: 1 },
          { key: { tag: 'a', day: 0 }, doc_count: 2 },
          { key: { tag: 'a', day: 86_400_000 }, doc_count: 1 },
        ],
      },
    });
    expect(reduce(aggs, [[{ t: 'composite', buckets: [], formats }]])).toEqual({ c: { buckets: [] } });
  });
});
