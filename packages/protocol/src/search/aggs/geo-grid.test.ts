import { describe, expect, it } from 'vitest';
import { failure, one } from './parse.test-support.ts';
import type { AggPartial, GeoGridPartial } from './partial.ts';
import { reduce } from './reduce.test-support.ts';

describe('parsing geohash_grid and geotile_grid', () => {
  it('applies GeoGridAggregationBuilder defaults', () => {
    expect(one({ g: { geohash_grid: { field: 'loc' } } })).toEqual({
      type: 'geohash_grid',
      name: 'g',
      source: { field: 'loc' },
      precision: 5,
      size: 10000,
      shardSize: 15010,
      aggs: [],
    });
    expect(one({ g: { geotile_grid: { field: 'loc', size: 3 } } })).toMatchObject({
      precision: 7,
      size: 3,
      shardSize: 14,
    });
    expect(one({ g: { geotile_grid: { field: 'loc', size: 30, shard_size: 5 } } })).toMatchObject({
      shardSize: 30,
    });
  });

  it('reads a geohash precision as a level, or as the largest cell size', () => {
    const precision = (p: unknown) =>
      (one({ g: { geohash_grid: { field: 'loc', precision: p } } }) as { precision: number }).precision;
    expect(precision(3)).toBe(3);
    expect(precision('4')).toBe(4);
    expect(precision(6.9)).toBe(6);
    expect(precision('1km')).toBe(7);
    expect(precision('5000km')).toBe(2);
    expect(precision('40000km')).toBe(1);
  });

  it('refuses precisions out of range with the texts of GeoUtils and GeoTileUtils', () => {
    expect(failure({ g: { geohash_grid: { field: 'loc', precision: 13 } } })).toMatchObject({
      status: 400,
      type: 'x_content_parse_exception',
      reason: '[1:57] [geohash_grid] failed to parse field [precision]',
      cause: {
        type: 'illegal_argument_exception',
        reason: 'Invalid geohash aggregation precision of 13. Must be between 1 and 12.',
      },
    });
    expect(failure({ g: { geohash_grid: { field: 'loc', precision: '0' } } }).cause).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Invalid geohash aggregation precision of 0. Must be between 1 and 12.',
    });
    expect(failure({ g: { geohash_grid: { field: 'loc', precision: '1mm' } } }).cause).toEqual({
      type: 'illegal_argument_exception',
      reason: 'precision too high [1mm]',
    });
    expect(failure({ g: { geohash_grid: { field: 'loc', precision: 'abc' } } }).cause).toMatchObject({
      type: 'number_format_exception',
    });
    expect(failure({ g: { geohash_grid: { field: 'loc', precision: true } } })).toMatchObject({
      reason: "[1:57] [geohash_grid] precision doesn't support values of type: VALUE_BOOLEAN",
    });
    expect(failure({ g: { geotile_grid: { field: 'loc', precision: 30 } } }).cause).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Invalid geotile_grid precision of 30. Must be between 0 and 29.',
    });
    expect(failure({ g: { geotile_grid: { field: 'loc', precision: '1km' } } }).cause).toEqual({
      type: 'number_format_exception',
      reason: 'For input string: "1km"',
    });
  });

  it('refuses sizes below 1, scripts and unknown fields', () => {
    expect(failure({ g: { geotile_grid: { field: 'loc', size: 0 } } }).cause).toEqual({
      type: 'illegal_argument_exception',
      reason: '[size] must be greater than 0. Found [0] in [g]',
    });
    expect(failure({ g: { geohash_grid: { field: 'loc', shard_size: -1 } } }).cause).toEqual({
      type: 'illegal_argument_exception',
      reason: '[shardSize] must be greater than 0. Found [-1] in [g]',
    });
    expect(failure({ g: { geohash_grid: { field: 'loc', script: 'x' } } }).reason).toContain(
      '[geohash_grid] unknown field [script]',
    );
    expect(failure({ g: { geohash_grid: { field: 'loc', order: { _count: 'asc' } } } }).reason).toContain(
      '[geohash_grid] unknown field [order]',
    );
    expect(failure({ g: { geotile_grid: {} } }).reason).toBe(
      'Required one of fields [field, script], but none were specified. ',
    );
  });

  it('reads bounds as a geo_bounding_box, any missing side leaving it unbounded', () => {
    expect(
      one({
        g: { geotile_grid: { field: 'loc', bounds: { top_left: 'POINT (4 53)', bottom_right: [5, 52] } } },
      }),
    ).toMatchObject({ bounds: { top: 53, left: 4, bottom: 52, right: 5 } });
    expect(
      one({ g: { geohash_grid: { field: 'loc', bounds: { top: 1, left: 2, bottom: 0 } } } }),
    ).not.toHaveProperty('bounds');
    expect(failure({ g: { geohash_grid: { field: 'loc', bounds: { up: 1 } } } })).toMatchObject({
      reason: '[1:54] [geohash_grid] failed to parse field [bounds]',
      cause: { type: 'parse_exception', reason: 'failed to parse bounding box. unexpected field [up]' },
    });
  });
});

const grid = (...cells: [string, number][]): GeoGridPartial => ({
  t: 'geo_grid',
  buckets: cells.map(([key, docCount]) => ({ key, docCount, aggs: [] })),
});

describe('reducing geo grids', () => {
  it('adds cells up across shards, the fullest first, ties by the greater cell', () => {
    const aggs = { g: { geohash_grid: { field: 'loc', precision: 3 } } };
    const out = reduce(aggs, [[grid(['u09', 2], ['u15', 1])], [grid(['u17', 3], ['u15', 1], ['gcp', 1])]]);
    expect(out).toEqual({
      g: {
        buckets: [
          { key: 'u17', doc_count: 3 },
          { key: 'u15', doc_count: 2 },
          { key: 'u09', doc_count: 2 },
          { key: 'gcp', doc_count: 1 },
        ],
      },
    });
  });

  it('orders tied tiles by x then y, numerically, and cuts to size', () => {
    const aggs = { g: { geotile_grid: { field: 'loc', precision: 8, size: 3 } } };
    const out = reduce(aggs, [[grid(['8/9/100', 1], ['8/10/2', 1], ['8/10/11', 1], ['8/131/84', 1])]]);
    expect(out.g).toEqual({
      buckets: [
        { key: '8/131/84', doc_count: 1 },
        { key: '8/10/11', doc_count: 1 },
        { key: '8/10/2', doc_count: 1 },
      ],
    });
  });

  it('merges sub-aggregations per cell and counts buckets against search.max_buckets', () => {
    const aggs = { g: { geohash_grid: { field: 'loc' }, aggs: { n: { value_count: { field: 'x' } } } } };
    const sub = (key: string, docCount: number, count: number) => ({
      key,
      docCount,
      aggs: [{ t: 'value_count', count } as AggPartial],
    });
    const shard = (...b: ReturnType<typeof sub>[]): AggPartial[] => [{ t: 'geo_grid', buckets: b }];
    expect(reduce(aggs, [shard(sub('u1', 1, 2)), shard(sub('u1', 2, 3), sub('u2', 1, 1))]).g).toEqual({
      buckets: [
        { key: 'u1', doc_count: 3, n: { value: 5 } },
        { key: 'u2', doc_count: 1, n: { value: 1 } },
      ],
    });
    expect(() => reduce(aggs, [shard(sub('u1', 1, 2), sub('u2', 1, 1))], 1)).toThrow(/too many buckets/i);
    expect(reduce(aggs, [])).toEqual({ g: { buckets: [] } });
  });
});
