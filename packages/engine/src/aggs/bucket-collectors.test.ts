import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { readerDocs } from './aggregate-shard.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  {
    tag: { type: 'keyword' },
    n: { type: 'integer' },
    ts: { type: 'date' },
    day: { type: 'date', format: 'yyyy-MM-dd' },
  },
  [
    ['1', { tag: ['a', 'b'], n: [1, 2, 14], ts: '2020-01-01T10:00:00Z', day: '2020-01-01' }],
    ['2', { tag: 'a', n: 7, ts: '2020-01-01T23:30:00Z' }],
    ['3', { tag: 'c', n: 25, ts: '2020-03-15T00:00:00Z', day: '2020-03-15' }],
    ['4', { tag: 'c' }],
  ],
  2,
);

describe('histogram', () => {
  it('counts a doc once per key and fills gaps', () => {
    expect(bucketsOf(aggregate(c, { h: { histogram: { field: 'n', interval: 10 } } }), 'h')).toEqual([
      { key: 0, doc_count: 2 },
      { key: 10, doc_count: 1 },
      { key: 20, doc_count: 1 },
    ]);
    expect(
      bucketsOf(aggregate(c, { h: { histogram: { field: 'n', interval: 10, offset: 5, missing: 0 } } }), 'h'),
    ).toEqual([
      { key: -5, doc_count: 2 },
      { key: 5, doc_count: 2 },
      { key: 15, doc_count: 0 },
      { key: 25, doc_count: 1 },
    ]);
  });

  it('puts empty sub-aggregations in the buckets it adds', () => {
    const out = aggregate(c, {
      h: {
        histogram: { field: 'n', interval: 10, extended_bounds: { min: 0, max: 40 } },
        aggs: { t: { terms: { field: 'tag' } } },
      },
    });
    const buckets = bucketsOf(out, 'h');
    expect(buckets.map((b) => b.key)).toEqual([0, 10, 20, 30, 40]);
    expect(buckets[3]).toEqual({
      key: 30,
      doc_count: 0,
      t: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] },
    });
  });
});

describe('date_histogram', () => {
  it('buckets by calendar unit with the field format, in a time zone', () => {
    expect(
      bucketsOf(
        aggregate(c, {
          d: { date_histogram: { field: 'ts', calendar_interval: 'month', min_doc_count: 1 } },
        }),
        'd',
      ),
    ).toEqual([
      { key_as_string: '2020-01-01T00:00:00.000Z', key: 1577836800000, doc_count: 2 },
      { key_as_string: '2020-03-01T00:00:00.000Z', key: 1583020800000, doc_count: 1 },
    ]);
    const local = aggregate(c, {
      d: {
        date_histogram: {
          field: 'ts',
          calendar_interval: 'day',
          time_zone: '+01:00',
          format: 'yyyy-MM-dd',
          min_doc_count: 1,
        },
      },
    });
    expect(bucketsOf(local, 'd')).toEqual([
      { key_as_string: '2020-01-01', key: 1577833200000, doc_count: 1 },
      { key_as_string: '2020-01-02', key: 1577919600000, doc_count: 1 },
      { key_as_string: '2020-03-15', key: 1584226800000, doc_count: 1 },
    ]);
    expect(
      bucketsOf(
        aggregate(c, { d: { date_histogram: { field: 'day', fixed_interval: '30d', min_doc_count: 1 } } }),
        'd',
      ),
    ).toEqual([
      { key_as_string: '2019-12-10', key: 1575936000000, doc_count: 1 },
      { key_as_string: '2020-03-09', key: 1583712000000, doc_count: 1 },
    ]);
  });

  it('fills months out to the extended bounds, given as dates or date math', () => {
    const out = aggregate(c, {
      d: {
        date_histogram: {
          field: 'ts',
          calendar_interval: 'month',
          extended_bounds: { min: '2019-12-15', max: 'now' },
        },
      },
    });
    // now is 2024-01-15 in these tests.
    const keys = bucketsOf(out, 'd').map((b) => b.key_as_string);
    expect(keys[0]).toBe('2019-12-01T00:00:00.000Z');
    expect(keys[keys.length - 1]).toBe('2024-01-01T00:00:00.000Z');
    expect(keys.length).toBe(50);
  });

  it('renders keyed buckets with the formatted key', () => {
    const out = aggregate(c, {
      d: { date_histogram: { field: 'day', calendar_interval: 'year', keyed: true } },
    });
    expect(out.d!.buckets).toEqual({
      '2020-01-01': { key_as_string: '2020-01-01', key: 1577836800000, doc_count: 2 },
    });
  });
});

describe('range and date_range', () => {
  it('sorts ranges by bounds and counts a doc once per range', () => {
    const out = aggregate(c, {
      r: { range: { field: 'n', ranges: [{ from: 10 }, { to: 10, key: 'low' }, { from: 1, to: 3 }] } },
    });
    expect(bucketsOf(out, 'r')).toEqual([
      { key: 'low', to: 10, doc_count: 2 },
      { key: '1.0-3.0', from: 1, to: 3, doc_count: 1 },
      { key: '10.0-*', from: 10, doc_count: 2 },
    ]);
  });

  it('resolves date bounds with the field format and date math', () => {
    const out = aggregate(c, {
      r: {
        date_range: {
          field: 'day',
          keyed: true,
          ranges: [{ to: '2020-02-01' }, { from: '2020-02-01', to: 'now/d' }],
        },
      },
    });
    expect(out.r!.buckets).toEqual({
      '*-2020-02-01': { to: 1580515200000, to_as_string: '2020-02-01', doc_count: 1 },
      '2020-02-01-2024-01-15': {
        from: 1580515200000,
        from_as_string: '2020-02-01',
        to: 1705276800000,
        to_as_string: '2024-01-15',
        doc_count: 1,
      },
    });
  });
});

describe('filter, filters, missing, global', () => {
  it('filters with queries compiled on the reader', () => {
    const out = aggregate(c, {
      f: { filter: { term: { tag: 'a' } }, aggs: { n: { max: { field: 'n' } } } },
      fs: {
        filters: {
          filters: { as: { term: { tag: 'a' } }, cs: { term: { tag: 'c' } } },
          other_bucket_key: 'rest',
        },
        aggs: { m: { missing: { field: 'n' } } },
      },
      m: { missing: { field: 'day' } },
    });
    expect(out).toEqual({
      f: { doc_count: 2, n: { value: 14 } },
      fs: {
        buckets: {
          as: { doc_count: 2, m: { doc_count: 0 } },
          cs: { doc_count: 2, m: { doc_count: 1 } },
          rest: { doc_count: 0, m: { doc_count: 0 } },
        },
      },
      m: { doc_count: 2 },
    });
  });

  it('global sees every live doc, whatever the query matched', () => {
    const docs = readerDocs(c.reader, [0]);
    const out = aggregate(
      c,
      {
        g: { global: {}, aggs: { t: { value_count: { field: 'tag' } } } },
        t: { value_count: { field: 'tag' } },
      },
      docs,
    );
    expect(out).toEqual({ g: { doc_count: 4, t: { value: 5 } }, t: { value: 2 } });
  });
});

describe('composite', () => {
  it('pages through every combination of the sources', () => {
    const body = (after?: Record<string, unknown>) => ({
      c: {
        composite: {
          size: 3,
          sources: [
            { tag: { terms: { field: 'tag' } } },
            { n: { histogram: { field: 'n', interval: 10, missing_bucket: true } } },
          ],
          ...(after ? { after } : {}),
        },
      },
    });
    const first = aggregate(c, body());
    expect(first.c).toEqual({
      after_key: { tag: 'b', n: 0 },
      buckets: [
        { key: { tag: 'a', n: 0 }, doc_count: 2 },
        { key: { tag: 'a', n: 10 }, doc_count: 1 },
        { key: { tag: 'b', n: 0 }, doc_count: 1 },
      ],
    });
    const second = aggregate(c, body({ tag: 'b', n: 0 }));
    expect(second.c).toEqual({
      after_key: { tag: 'c', n: 20 },
      buckets: [
        { key: { tag: 'b', n: 10 }, doc_count: 1 },
        { key: { tag: 'c', n: null }, doc_count: 1 },
        { key: { tag: 'c', n: 20 }, doc_count: 1 },
      ],
    });
    expect(aggregate(c, body({ tag: 'c', n: 20 })).c).toEqual({ buckets: [] });
  });

  it('continues after after_key, descending, with date keys in millis or formatted', () => {
    const out = aggregate(c, {
      c: {
        composite: {
          sources: [
            { tag: { terms: { field: 'tag', order: 'desc', missing_bucket: true } } },
            { d: { date_histogram: { field: 'ts', calendar_interval: 'month', missing_bucket: true } } },
          ],
          after: { tag: 'c', d: null },
        },
      },
    });
    expect(bucketsOf(out, 'c').map((b) => [b.key, b.doc_count])).toEqual([
      [{ tag: 'c', d: 1583020800000 }, 1],
      [{ tag: 'b', d: 1577836800000 }, 1],
      [{ tag: 'a', d: 1577836800000 }, 2],
    ]);
    const formatted = aggregate(c, {
      c: {
        composite: {
          sources: [{ d: { date_histogram: { field: 'ts', calendar_interval: 'year', format: 'yyyy' } } }],
        },
      },
    });
    expect(formatted.c).toEqual({
      after_key: { d: '2020' },
      buckets: [{ key: { d: '2020' }, doc_count: 3 }],
    });
  });
});

describe('date_histogram counted from the points index', () => {
  it('property: the same buckets as the per-doc loop, for calendar and fixed intervals in any zone', () => {
    const JAN_2020 = Date.UTC(2020, 0, 1);
    fc.assert(
      fc.property(
        fc.array(
          // Whole hours (and some odd milliseconds) land values on bucket boundaries.
          fc.option(
            fc.oneof(
              fc.integer({ min: -60, max: 60 }).map((h) => h * 3_600_000),
              fc.integer({ min: -20, max: 20 }).map((d) => d * 86_400_000),
              fc.integer({ min: -400 * 86_400_000, max: 400 * 86_400_000 }),
            ),
            { freq: 6 },
          ),
          {
            minLength: 1,
            maxLength: 50,
          },
        ),
        fc.integer({ min: 1, max: 30 }),
        fc.oneof(
          fc
            .constantFrom('hour', 'day', 'week', 'month', 'quarter', 'year')
            .map((u) => ({ calendar_interval: u })),
          fc.constantFrom('90m', '1d', '7d').map((i) => ({ fixed_interval: i })),
        ),
        fc.constantFrom('UTC', '+02:00', '-05:30', 'Europe/Paris', 'America/New_York'),
        fc.constantFrom(undefined, '+3h', '-1d'),
        (offsets, segmentEvery, interval, zone, offset) => {
          const docs: [string, Record<string, unknown>][] = offsets.map((o, i) => [
            String(i),
            o === null ? {} : { ts: new Date(JAN_2020 + o).toISOString() },
          ]);
          const c = corpus({ ts: { type: 'date' } }, docs, segmentEvery);
          const h = {
            date_histogram: { field: 'ts', ...interval, time_zone: zone, ...(offset ? { offset } : {}) },
          };
          const out = aggregate(c, { h, f: { filter: { match_all: {} }, aggs: { h } } }) as {
            h: unknown;
            f: { h: unknown };
          };
          expect(out.h).toEqual(out.f.h);
        },
      ),
      { numRuns: 40 },
    );
  });
});
