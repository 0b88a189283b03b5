import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

// Everything expected here is computed independently of Shoal's code: points as Lucene's
// 32-bit encoding decodes them, cells by the textbook geohash and the slippy-map tile formulas.
const latStep = 180 / 2 ** 32;
const lonStep = 360 / 2 ** 32;
const dec = ([lat, lon]: [number, number]): [number, number] => [
  Math.floor(lat / latStep) * latStep,
  Math.floor(lon / lonStep) * lonStep,
];

const ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz';

/** The geohash of a point and its cell's box. */
function geohash(lat: number, lon: number, level: number) {
  let [bottom, top, left, right] = [-90, 90, -180, 180];
  let key = '';
  let even = true;
  for (let c = 0; c < level; c++) {
    let v = 0;
    for (let k = 0; k < 5; k++) {
      if (even) {
        const mid = (left + right) / 2;
        v = v * 2 + (lon >= mid ? 1 : 0);
        if (lon >= mid) left = mid;
        else right = mid;
      } else {
        const mid = (bottom + top) / 2;
        v = v * 2 + (lat >= mid ? 1 : 0);
        if (lat >= mid) bottom = mid;
        else top = mid;
      }
      even = !even;
    }
    key += ALPHABET[v];
  }
  return { key, top, bottom, left, right };
}

const tileLat = (y: number, n: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI;

/** The tile of a point and its box. */
function geotile(lat: number, lon: number, zoom: number) {
  const n = 2 ** zoom;
  const rad = (lat * Math.PI) / 180;
  const x = Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
  const y = Math.min(
    n - 1,
    Math.max(0, Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)),
  );
  return {
    key: `${zoom}/${x}/${y}`,
    top: tileLat(y, n),
    bottom: tileLat(y + 1, n),
    left: (x / n) * 360 - 180,
    right: ((x + 1) / n) * 360 - 180,
  };
}

type Cell = ReturnType<typeof geohash>;
type Box = { top: number; bottom: number; left: number; right: number };

/** The museums of Elasticsearch's geo grid examples, then a few more; doc 9 has no point. */
const POINTS: Record<string, [number, number][]> = {
  1: [[52.374081, 4.91235]],
  2: [[52.369219, 4.901618]],
  3: [[52.371667, 4.914722]],
  4: [[51.2229, 4.4052]],
  5: [[48.861111, 2.336389]],
  6: [[48.86, 2.327]],
  // Two points in one cell at coarse precisions, a third far away.
  7: [
    [52.3701, 4.8952],
    [52.3702, 4.8953],
    [-33.8688, 151.2093],
  ],
  8: [[40.7143528, -74.0059731]],
};
const IDS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** Cells with their doc counts, the fullest first, ties by the greater cell. */
function expected(ids: string[], cellOf: (lat: number, lon: number) => Cell, bounds?: Box) {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const cells = new Set<string>();
    for (const p of POINTS[id] ?? []) {
      const c = cellOf(...dec(p));
      const inside =
        !bounds ||
        (bounds.top > c.bottom && bounds.bottom < c.top && bounds.left < c.right && bounds.right > c.left);
      if (inside) cells.add(c.key);
    }
    for (const k of cells) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const order = (k: string) => (k.includes('/') ? k.split('/').map(Number).slice(1) : [k]);
  return [...counts]
    .sort(([ka, a], [kb, b]) => {
      if (a !== b) return b - a;
      const [x1, y1] = order(ka);
      const [x2, y2] = order(kb);
      if (x1 !== x2) return x1! < x2! ? 1 : -1;
      return y1! < y2! ? 1 : y1! > y2! ? -1 : 0;
    })
    .map(([key, doc_count]) => ({ key, doc_count }));
}

beforeAll(async () => {
  node = await startTestNode();
  const mappings = { properties: { loc: { type: 'geo_point' }, tag: { type: 'keyword' } } };
  await http(node.url, 'PUT', '/gg', { settings: { number_of_shards: 3 }, mappings });
  await http(node.url, 'PUT', '/gg1', { settings: { number_of_shards: 1 }, mappings });
  const lines = IDS.flatMap((id) => {
    const pts = POINTS[id];
    const doc: Record<string, unknown> = { tag: Number(id) <= 4 ? 'north' : 'south' };
    if (pts) doc.loc = pts.length === 1 ? `${pts[0]![0]},${pts[0]![1]}` : pts.map(([lat, lon]) => [lon, lat]);
    return [{ index: { _id: id } }, doc];
  });
  for (const index of ['gg', 'gg1']) {
    const bulk = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(lines));
    expect(bulk.json.errors).toBe(false);
  }
});
afterAll(async () => {
  await node?.stop();
});

const aggs = (index: string, a: unknown, query: unknown = { match_all: {} }, params = '') =>
  http(node.url, 'POST', `/${index}/_search${params}`, { size: 0, query, aggs: a });
const rootCause = (r: HttpResult) => r.json.error.root_cause[0];

describe('geohash_grid', () => {
  it("buckets Elasticsearch's museum example as its documentation shows", async () => {
    const r = await aggs(
      'gg',
      { g: { geohash_grid: { field: 'loc', precision: 3 } } },
      { terms: { _id: ['1', '2', '3', '4', '5', '6'] } },
    );
    expect(r.status).toBe(200);
    expect(r.json.aggregations.g).toEqual({
      buckets: [
        { key: 'u17', doc_count: 3 },
        { key: 'u09', doc_count: 2 },
        { key: 'u15', doc_count: 1 },
      ],
    });
  });

  it('counts a doc once per cell, at every precision, on one shard or three', async () => {
    for (const precision of [1, 4, 5, 8, 12]) {
      const want = expected(IDS, (lat, lon) => geohash(lat, lon, precision));
      for (const index of ['gg', 'gg1']) {
        const r = await aggs(index, { g: { geohash_grid: { field: 'loc', precision } } });
        expect(r.json.aggregations.g.buckets).toEqual(want);
      }
    }
  });

  it('takes the precision as a distance, cuts to size and nests sub-aggregations', async () => {
    const r = await aggs('gg', {
      g: {
        geohash_grid: { field: 'loc', precision: '1000km', size: 2 },
        aggs: { tags: { terms: { field: 'tag' } } },
      },
    });
    // 1000 km: cells of level 3 are the largest whose diagonal fits.
    const want = expected(IDS, (lat, lon) => geohash(lat, lon, 3)).slice(0, 2);
    expect(r.json.aggregations.g.buckets.map((b: { key: string }) => b.key)).toEqual(want.map((b) => b.key));
    expect(r.json.aggregations.g.buckets[0]).toEqual({
      key: 'u17',
      doc_count: 4,
      tags: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'north', doc_count: 3 },
          { key: 'south', doc_count: 1 },
        ],
      },
    });
  });

  it('keeps only the cells the bounds overlap', async () => {
    const bounds = { top: 52.38, left: 4.89, bottom: 52.36, right: 4.905 };
    const r = await aggs('gg', {
      g: {
        geohash_grid: {
          field: 'loc',
          precision: 7,
          bounds: { top_left: [4.89, 52.38], bottom_right: [4.905, 52.36] },
        },
      },
    });
    expect(r.json.aggregations.g.buckets).toEqual(expected(IDS, (lat, lon) => geohash(lat, lon, 7), bounds));
    expect(r.json.aggregations.g.buckets.length).toBeGreaterThan(0);
  });
});

describe('geotile_grid', () => {
  it("buckets Elasticsearch's museum example as its documentation shows", async () => {
    const r = await aggs(
      'gg',
      { g: { geotile_grid: { field: 'loc', precision: 8 } } },
      { terms: { _id: ['1', '2', '3', '4', '5', '6'] } },
    );
    expect(r.json.aggregations.g).toEqual({
      buckets: [
        { key: '8/131/84', doc_count: 3 },
        { key: '8/129/88', doc_count: 2 },
        { key: '8/131/85', doc_count: 1 },
      ],
    });
  });

  it('counts a doc once per tile, at every zoom, on one shard or three', async () => {
    for (const precision of [0, 2, 7, 13, 20, 29]) {
      const want = expected(IDS, (lat, lon) => geotile(lat, lon, precision));
      for (const index of ['gg', 'gg1']) {
        const r = await aggs(index, { g: { geotile_grid: { field: 'loc', precision } } });
        expect(r.json.aggregations.g.buckets).toEqual(want);
      }
    }
  });

  it('keeps only the tiles the bounds overlap, and the missing point stands in for none', async () => {
    const bounds = { top: 52.4, left: 4.9, bottom: 52.3, right: 5.0 };
    const r = await aggs('gg', {
      g: {
        geotile_grid: {
          field: 'loc',
          precision: 16,
          bounds: { top_left: 'POINT (4.9 52.4)', bottom_right: 'POINT (5.0 52.3)' },
        },
      },
    });
    expect(r.json.aggregations.g.buckets).toEqual(expected(IDS, (lat, lon) => geotile(lat, lon, 16), bounds));
    const missing = await aggs(
      'gg',
      { g: { geotile_grid: { field: 'loc', precision: 1, missing: '-10,-10' } } },
      { term: { _id: '9' } },
    );
    expect(missing.json.aggregations.g.buckets).toEqual([{ key: '1/0/1', doc_count: 1 }]);
  });

  it('writes typed keys and nests under other buckets', async () => {
    const r = await aggs(
      'gg',
      { t: { terms: { field: 'tag' }, aggs: { g: { geotile_grid: { field: 'loc', precision: 0 } } } } },
      { match_all: {} },
      '?typed_keys=true',
    );
    const tags = r.json.aggregations['sterms#t'].buckets;
    expect(tags.map((b: Record<string, unknown>) => [b.key, b['geotile_grid#g']])).toEqual([
      ['south', { buckets: [{ key: '0/0/0', doc_count: 4 }] }],
      ['north', { buckets: [{ key: '0/0/0', doc_count: 4 }] }],
    ]);
  });
});

describe('geo grid errors', () => {
  it('refuses fields that are not geo points, and finds nothing in unmapped ones', async () => {
    for (const type of ['geohash_grid', 'geotile_grid']) {
      const r = await aggs('gg', { g: { [type]: { field: 'tag' } } });
      expect(r.status).toBe(400);
      expect(rootCause(r).reason).toBe(
        `Field [tag] of type [keyword] is not supported for aggregation [${type}]`,
      );
      const none = await aggs('gg', { g: { [type]: { field: 'nope' } } });
      expect(none.json.aggregations.g).toEqual({ buckets: [] });
    }
  });

  it('refuses precisions out of range', async () => {
    const r = await aggs('gg', { g: { geohash_grid: { field: 'loc', precision: 13 } } });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('x_content_parse_exception');
    expect(r.json.error.reason).toContain('[geohash_grid] failed to parse field [precision]');
    expect(r.json.error.caused_by.reason).toBe(
      'Invalid geohash aggregation precision of 13. Must be between 1 and 12.',
    );
    const tile = await aggs('gg', { g: { geotile_grid: { field: 'loc', precision: -1 } } });
    expect(tile.json.error.caused_by.reason).toBe(
      'Invalid geotile_grid precision of -1. Must be between 0 and 29.',
    );
  });
});

describe('composite geotile_grid source', () => {
  /** Every tile with its doc count, in composite order (column, then row). */
  function tilesInOrder(zoom: number, ids = IDS, bounds?: Box) {
    return expected(ids, (lat, lon) => geotile(lat, lon, zoom), bounds)
      .map(({ key, doc_count }) => ({ key, xy: key.split('/').map(Number).slice(1), doc_count }))
      .sort((a, b) => a.xy[0]! - b.xy[0]! || a.xy[1]! - b.xy[1]!)
      .map(({ key, doc_count }) => ({ key: { tile: key }, doc_count }));
  }

  it('pages through the tiles in tile order, on one shard or three, with after_key', async () => {
    for (const index of ['gg1', 'gg']) {
      for (const zoom of [0, 8, 25]) {
        const want = tilesInOrder(zoom);
        const seen: unknown[] = [];
        let after: unknown;
        for (let page = 0; page < 10; page++) {
          const composite: Record<string, unknown> = {
            size: 2,
            sources: [{ tile: { geotile_grid: { field: 'loc', precision: zoom } } }],
          };
          if (after) composite.after = after;
          const r = await aggs(index, { c: { composite } });
          expect(r.status, r.text).toBe(200);
          const c = r.json.aggregations.c;
          seen.push(...c.buckets);
          if (c.buckets.length < 2) break;
          expect(c.after_key).toEqual(c.buckets[1].key);
          after = c.after_key;
        }
        expect(seen).toEqual(want);
      }
    }
  });

  it('combines with a terms source, takes bounds and missing_bucket, refuses a bad after key', async () => {
    const r = await aggs('gg', {
      c: {
        composite: {
          sources: [
            { tag: { terms: { field: 'tag' } } },
            { tile: { geotile_grid: { field: 'loc', precision: 2, missing_bucket: true } } },
          ],
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    const north = tilesInOrder(2, ['1', '2', '3', '4']).map((b) => ({
      ...b,
      key: { tag: 'north', ...b.key },
    }));
    const south = tilesInOrder(2, ['5', '6', '7', '8']).map((b) => ({
      ...b,
      key: { tag: 'south', ...b.key },
    }));
    expect(r.json.aggregations.c.buckets).toEqual([
      ...north,
      { key: { tag: 'south', tile: null }, doc_count: 1 },
      ...south,
    ]);
    const box = { top: 52.37, left: 4.9, bottom: 48, right: 5 };
    const bounded = await aggs('gg', {
      c: {
        composite: { sources: [{ tile: { geotile_grid: { field: 'loc', precision: 14, bounds: box } } }] },
      },
    });
    const want = tilesInOrder(14, IDS, box);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(tilesInOrder(14).length);
    expect(bounded.json.aggregations.c.buckets).toEqual(want);
    const bad = await aggs('gg', {
      c: {
        composite: {
          sources: [{ tile: { geotile_grid: { field: 'loc', precision: 3 } } }],
          after: { tile: 'not-a-tile' },
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(rootCause(bad).reason).toBe('Invalid geotile_grid hash string of not-a-tile');
  });
});
