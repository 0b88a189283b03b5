import { describe, expect, it } from 'vitest';
import {
  addValue,
  cardinalityOf,
  mergeCardinality,
  newRegisters,
  precisionFromThreshold,
} from './cardinality-sketch.ts';
import type { AggPartial } from './partial.ts';
import { DATE, RAW, reduce } from './reduce.test-support.ts';

describe('metrics', () => {
  it('render values, nulls and value_as_string as Elasticsearch writes them', () => {
    const aggs = {
      avg: { avg: { field: 'f' } },
      sum: { sum: { field: 'f' } },
      min: { min: { field: 'ts' } },
      max: { max: { field: 'f' } },
      count: { value_count: { field: 'f' } },
      stats: { stats: { field: 'f' } },
    };
    const shard = (n: number): AggPartial[] => [
      { t: 'avg', sum: n * 3, count: n, fmt: RAW },
      { t: 'sum', sum: n * 3, fmt: RAW },
      { t: 'min', value: n ? 1_592_092_800_000 + n : Infinity, fmt: DATE },
      { t: 'max', value: n ? n : -Infinity, fmt: RAW },
      { t: 'value_count', count: n },
      {
        t: 'stats',
        count: n,
        sum: n * 3,
        min: n ? 1 : Infinity,
        max: n ? 5 : -Infinity,
        sumOfSquares: 0,
        fmt: RAW,
      },
    ];
    expect(reduce(aggs, [shard(0)])).toEqual({
      avg: { value: null },
      sum: { value: 0 },
      min: { value: null },
      max: { value: null },
      count: { value: 0 },
      stats: { count: 0, min: null, max: null, avg: null, sum: 0 },
    });
    expect(reduce(aggs, [shard(2), shard(0), shard(1)])).toEqual({
      avg: { value: 3 },
      sum: { value: 9 },
      min: { value: 1_592_092_800_001, value_as_string: '2020-06-14T00:00:00.001Z' },
      max: { value: 2 },
      count: { value: 3 },
      stats: { count: 3, min: 1, max: 5, avg: 3, sum: 9 },
    });
  });

  it('renders extended_stats, with nulls when there is nothing', () => {
    const aggs = { e: { extended_stats: { field: 'f', sigma: 1 } } };
    const values = [2, 4, 4, 4, 5, 5, 7, 9];
    const p: AggPartial = {
      t: 'extended_stats',
      count: values.length,
      sum: 40,
      min: 2,
      max: 9,
      sumOfSquares: values.reduce((s, v) => s + v * v, 0),
      fmt: RAW,
    };
    const e = reduce(aggs, [[p]]).e as Record<string, unknown>;
    expect(e).toMatchObject({ count: 8, avg: 5, sum_of_squares: 232, variance: 4, std_deviation: 2 });
    expect(e.variance_sampling).toBeCloseTo(32 / 7);
    expect(e.std_deviation_bounds).toMatchObject({
      upper: 7,
      lower: 3,
      upper_population: 7,
      lower_population: 3,
    });
    const empty = reduce(aggs, [
      [{ ...p, count: 0, sum: 0, min: Infinity, max: -Infinity, sumOfSquares: 0 }],
    ]).e;
    expect(empty).toMatchObject({
      count: 0,
      sum: 0,
      sum_of_squares: null,
      std_deviation: null,
      std_deviation_bounds: { upper: null, lower: null },
    });
  });

  it('puts meta first', () => {
    const out = reduce({ a: { avg: { field: 'f' }, meta: { x: 1 } } }, [
      [{ t: 'avg', sum: 2, count: 1, fmt: RAW }],
    ]);
    expect(JSON.stringify(out)).toBe('{"a":{"meta":{"x":1},"value":2}}');
  });
});

describe('cardinality', () => {
  it('is exact below the threshold and close above it', () => {
    const exact = mergeCardinality(
      [
        { t: 'cardinality', values: ['a', 'b', 1], precision: 14 },
        { t: 'cardinality', values: ['b', 'c', 1], precision: 14 },
      ],
      3000,
    );
    expect(cardinalityOf(exact)).toBe(4);
    const p = precisionFromThreshold(3000);
    expect(p).toBe(14);
    const parts = [0, 1, 2].map((s) => {
      const registers = newRegisters(p);
      for (let i = s * 40_000; i < (s + 1) * 40_000 + 5000; i++) addValue(registers, p, `v${i}`);
      return { t: 'cardinality' as const, registers, precision: p };
    });
    const estimate = cardinalityOf(mergeCardinality(parts, 3000));
    expect(Math.abs(estimate - 125_000) / 125_000).toBeLessThan(0.03);
    const small = newRegisters(p);
    for (let i = 0; i < 5000; i++) addValue(small, p, i);
    expect(Math.abs(cardinalityOf({ t: 'cardinality', registers: small, precision: p }) - 5000)).toBeLessThan(
      100,
    );
  });
});
