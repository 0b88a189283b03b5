import { describe, expect, it } from 'vitest';
import {
  aggValue,
  deducePivotMappings,
  docIdOf,
  geotileShape,
  pivotPageBody,
  readPivotPage,
  setPath,
} from './pivot.ts';
import { parsePivot } from './pivot-config.ts';
import { BodyReader } from './strict-body.ts';

const pivot = parsePivot(
  new BodyReader(''),
  {
    group_by: {
      airline: { terms: { field: 'airline' } },
      hour: { date_histogram: { field: 'time', fixed_interval: '1h' } },
    },
    aggs: {
      avg_response: { avg: { field: 'responsetime' } },
      'time.max': { max: { field: 'time' } },
      rates: { stats: { field: 'rate' } },
      ok: { filter: { term: { status: 'ok' } } },
    },
  },
  [],
);

describe('pivot', () => {
  it('searches one composite page with the aggregations under it', () => {
    const body = pivotPageBody(pivot, { match_all: {} }, 500, { airline: 'a', hour: 0 });
    expect(body).toEqual({
      size: 0,
      query: { match_all: {} },
      aggregations: {
        _transform: {
          composite: {
            size: 500,
            sources: [
              { airline: { terms: { field: 'airline' } } },
              { hour: { date_histogram: { field: 'time', fixed_interval: '1h' } } },
            ],
            after: { airline: 'a', hour: 0 },
          },
          aggregations: pivot.aggregations,
        },
      },
    });
  });

  it('turns buckets into documents: dates formatted, dotted names nested, ids stable per key', () => {
    const page = readPivotPage(
      pivot,
      {
        aggregations: {
          _transform: {
            after_key: { airline: 'foo', hour: 3_600_000 },
            buckets: [
              {
                key: { airline: 'foo', hour: 3_600_000 },
                doc_count: 2,
                avg_response: { value: 1.5 },
                'time.max': { value: 3_700_000, value_as_string: '1970-01-01T01:01:40.000Z' },
                rates: { count: 2, min: 1, max: 2, avg: 1.5, sum: 3 },
                ok: { doc_count: 1 },
              },
            ],
          },
        },
      },
      { time: 'date', airline: 'keyword' },
    );
    expect(page.docsProcessed).toBe(2);
    expect(page.after).toEqual({ airline: 'foo', hour: 3_600_000 });
    expect(page.docs[0]!.source).toEqual({
      airline: 'foo',
      hour: '1970-01-01T01:00:00.000Z',
      avg_response: 1.5,
      time: { max: '1970-01-01T01:01:40.000Z' },
      rates: { count: 2, min: 1, max: 2, avg: 1.5, sum: 3 },
      ok: 1,
    });
    expect(page.docs[0]!.id).toBe(docIdOf(['foo', 3_600_000]));
    expect(docIdOf(['foo', 1])).not.toBe(docIdOf(['foo', '1']));
    expect(docIdOf([null])).not.toBe(docIdOf(['null']));
  });

  it('writes null for a metric without a value, and bucket aggregations as key → count', () => {
    expect(aggValue({ avg: { field: 'x' } }, { value: null }, {})).toBeNull();
    expect(
      aggValue(
        { terms: { field: 'k' } },
        {
          buckets: [
            { key: 'a', doc_count: 2 },
            { key: 'b', doc_count: 1 },
          ],
        },
        {},
      ),
    ).toEqual({ a: 2, b: 1 });
    expect(aggValue({ geo_centroid: { field: 'p' } }, { location: { lat: 1.5, lon: 2 }, count: 1 }, {})).toBe(
      '1.5, 2',
    );
  });

  it('deduces the destination mappings from the source types', () => {
    expect(deducePivotMappings(pivot, { airline: 'keyword', time: 'date', responsetime: 'float' })).toEqual({
      airline: { type: 'keyword' },
      hour: { type: 'date' },
      avg_response: { type: 'double' },
      'time.max': { type: 'date' },
      rates: {
        properties: {
          count: { type: 'double' },
          min: { type: 'double' },
          max: { type: 'double' },
          avg: { type: 'double' },
          sum: { type: 'double' },
        },
      },
      ok: { type: 'long' },
    });
  });

  it('nests dotted paths and writes a geotile as its bounds', () => {
    const doc: Record<string, unknown> = {};
    setPath(doc, 'a.b.c', 1);
    setPath(doc, 'a.d', 2);
    expect(doc).toEqual({ a: { b: { c: 1 }, d: 2 } });
    const world = geotileShape('0/0/0') as { type: string; coordinates: number[][][] };
    expect(world.type).toBe('polygon');
    const ring = world.coordinates[0]!;
    expect(ring).toHaveLength(5);
    expect(ring[0]).toEqual(ring[4]);
    expect(ring.map(([lon]) => lon)).toEqual([180, -180, -180, 180, 180]);
    for (const [, lat] of ring) expect(Math.abs(lat!)).toBeCloseTo(85.0511287798, 9);
  });
});
