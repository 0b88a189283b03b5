import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate } from './aggs.test-support.ts';

const c = corpus(
  {
    n: { type: 'long' },
    i: { type: 'integer' },
    d: { type: 'double' },
    ts: { type: 'date' },
    ns: { type: 'date_nanos' },
    ok: { type: 'boolean' },
    tag: { type: 'keyword' },
    ip: { type: 'ip' },
    loc: { type: 'geo_point' },
  },
  [
    [
      '1',
      {
        n: [1, 1, 4],
        i: 2,
        d: 0.5,
        ts: '2020-01-01T00:00:00Z',
        ns: '2020-01-01T00:00:00.123456789Z',
        ok: true,
        tag: ['a', 'b'],
        ip: '10.0.0.1',
        loc: { lat: 1, lon: 2 },
      },
    ],
    ['2', { n: 10, d: 1.5, ts: '2020-01-03T00:00:00Z', ok: false, tag: 'a', ip: '10.0.0.1' }],
    [
      '3',
      {
        n: -3,
        i: 7,
        ok: true,
        tag: 'c',
        ip: '::1',
        loc: [
          { lat: 1, lon: 2 },
          { lat: 3, lon: 4 },
        ],
      },
    ],
    ['4', {}],
  ],
  2,
);

describe('numeric metrics', () => {
  it('count every value of multi-valued docs', () => {
    expect(
      aggregate(c, {
        avg: { avg: { field: 'n' } },
        sum: { sum: { field: 'n' } },
        min: { min: { field: 'n' } },
        max: { max: { field: 'n' } },
        stats: { stats: { field: 'n' } },
        count: { value_count: { field: 'n' } },
      }),
    ).toEqual({
      avg: { value: 13 / 5 },
      sum: { value: 13 },
      min: { value: -3 },
      max: { value: 10 },
      stats: { count: 5, min: -3, max: 10, avg: 13 / 5, sum: 13 },
      count: { value: 5 },
    });
  });

  it('count the missing value for docs without one', () => {
    expect(
      aggregate(c, { avg: { avg: { field: 'i', missing: 0 } }, s: { sum: { field: 'd', missing: '10' } } }),
    ).toEqual({
      avg: { value: 9 / 4 },
      s: { value: 22 },
    });
  });

  it('print dates, date_nanos at millisecond resolution, and booleans', () => {
    expect(
      aggregate(c, {
        min: { min: { field: 'ts' } },
        avg: { avg: { field: 'ts' } },
        ns: { max: { field: 'ns' } },
        fmt: { max: { field: 'ts', format: 'yyyy/MM/dd' } },
        ok: { avg: { field: 'ok' } },
      }),
    ).toEqual({
      min: { value: 1577836800000, value_as_string: '2020-01-01T00:00:00.000Z' },
      avg: { value: 1577923200000, value_as_string: '2020-01-02T00:00:00.000Z' },
      ns: { value: 1577836800123, value_as_string: '2020-01-01T00:00:00.123Z' },
      fmt: { value: 1578009600000, value_as_string: '2020/01/03' },
      ok: { value: 2 / 3, value_as_string: 'true' },
    });
  });

  it('extended_stats', () => {
    const e = aggregate(c, { e: { extended_stats: { field: 'd' } } }).e!;
    expect(e).toMatchObject({
      count: 2,
      min: 0.5,
      max: 1.5,
      avg: 1,
      sum: 2,
      sum_of_squares: 2.5,
      variance: 0.25,
    });
    expect(e.std_deviation_bounds).toMatchObject({ upper: 2, lower: 0 });
  });
});

describe('value_count and cardinality', () => {
  it('count values of any field type', () => {
    expect(
      aggregate(c, {
        tags: { value_count: { field: 'tag' } },
        ips: { value_count: { field: 'ip' } },
        locs: { value_count: { field: 'loc' } },
        oks: { value_count: { field: 'ok' } },
        missing: { value_count: { field: 'i', missing: 1 } },
      }),
    ).toEqual({
      tags: { value: 4 },
      ips: { value: 3 },
      locs: { value: 3 },
      oks: { value: 3 },
      missing: { value: 4 },
    });
  });

  it('count distinct values', () => {
    expect(
      aggregate(c, {
        tags: { cardinality: { field: 'tag' } },
        ns: { cardinality: { field: 'n' } },
        ips: { cardinality: { field: 'ip' } },
        locs: { cardinality: { field: 'loc' } },
        dates: { cardinality: { field: 'ts', missing: '2020-01-01' } },
      }),
    ).toEqual({
      tags: { value: 3 },
      ns: { value: 4 },
      ips: { value: 2 },
      locs: { value: 2 },
      dates: { value: 3 },
    });
  });

  it('estimates above precision_threshold', () => {
    const docs: [string, Record<string, unknown>][] = [];
    for (let i = 0; i < 3000; i++) docs.push([String(i), { k: `v${i % 2500}` }]);
    const big = corpus({ k: { type: 'keyword' } }, docs, 1000);
    const exact = aggregate(big, { c: { cardinality: { field: 'k' } } }).c!.value as number;
    expect(exact).toBe(2500);
    const estimated = aggregate(big, { c: { cardinality: { field: 'k', precision_threshold: 100 } } }).c!
      .value as number;
    expect(Math.abs(estimated - 2500) / 2500).toBeLessThan(0.1);
  });
});
