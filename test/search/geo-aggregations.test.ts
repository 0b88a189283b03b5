import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

// Independent of Shoal's code: points as Lucene's 32-bit encoding decodes them.
const latStep = 180 / 2 ** 32;
const lonStep = 360 / 2 ** 32;
const dec = ([lat, lon]: [number, number]): [number, number] => [
  Math.floor(lat / latStep) * latStep,
  Math.floor(lon / lonStep) * lonStep,
];

/** Points by doc id; doc 6 has none. */
const POINTS: Record<string, [number, number][]> = {
  1: [[40.7143528, -74.0059731]],
  2: [[40.759011, -73.9844722]],
  3: [[40.718266, -74.007819]],
  4: [
    [51.5, -0.12],
    [40.7247222, -74],
  ],
  5: [[10, 179.5]],
  7: [[-33.8688, 151.2093]],
  8: [[10, -179.5]],
};
const IDS = ['1', '2', '3', '4', '5', '6', '7', '8'];

beforeAll(async () => {
  node = await startTestNode();
  const mappings = { properties: { loc: { type: 'geo_point' }, tag: { type: 'keyword' } } };
  await http(node.url, 'PUT', '/ga', { settings: { number_of_shards: 3 }, mappings });
  await http(node.url, 'PUT', '/ga1', { settings: { number_of_shards: 1 }, mappings });
  const lines = IDS.flatMap((id) => {
    const pts = POINTS[id];
    const doc: Record<string, unknown> = { tag: Number(id) % 2 === 0 ? 'even' : 'odd' };
    if (pts)
      doc.loc = pts.length === 1 ? { lat: pts[0]![0], lon: pts[0]![1] } : pts.map(([lat, lon]) => [lon, lat]);
    return [{ index: { _id: id } }, doc];
  });
  for (const index of ['ga', 'ga1']) {
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

function bounds(ids: string[], wrap: boolean) {
  const pts = ids.flatMap((id) => (POINTS[id] ?? []).map(dec));
  const lats = pts.map((p) => p[0]);
  const pos = pts.map((p) => p[1]).filter((l) => l >= 0);
  const neg = pts.map((p) => p[1]).filter((l) => l < 0);
  const [posLeft, posRight] = [Math.min(...pos), Math.max(...pos)];
  const [negLeft, negRight] = [Math.min(...neg), Math.max(...neg)];
  let left = negLeft;
  let right = posRight;
  if (pos.length === 0) right = negRight;
  else if (neg.length === 0) left = posLeft;
  else if (wrap && posRight - negLeft > 180 - posLeft - (-180 - negRight)) {
    left = posLeft;
    right = negRight;
  }
  return {
    top_left: { lat: Math.max(...lats), lon: left },
    bottom_right: { lat: Math.min(...lats), lon: right },
  };
}

describe('geo_bounds', () => {
  it('bounds the encoded points, across the antimeridian when that is narrower', async () => {
    const r = await aggs('ga', {
      b: { geo_bounds: { field: 'loc' } },
      flat: { geo_bounds: { field: 'loc', wrap_longitude: false } },
      east: { filter: { terms: { _id: ['5', '7'] } }, aggs: { b: { geo_bounds: { field: 'loc' } } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.b).toEqual({ bounds: bounds(IDS, true) });
    expect(r.json.aggregations.flat).toEqual({ bounds: bounds(IDS, false) });
    expect(r.json.aggregations.east.b).toEqual({ bounds: bounds(['5', '7'], true) });
    // Only 179.5 and -179.5 apart: the box wraps, its left east of its right.
    const pair = await aggs('ga', { b: { geo_bounds: { field: 'loc' } } }, { terms: { _id: ['5', '8'] } });
    expect(pair.json.aggregations.b.bounds.top_left.lon).toBe(dec([0, 179.5])[1]);
    expect(pair.json.aggregations.b.bounds.bottom_right.lon).toBe(dec([0, -179.5])[1]);
  });

  it('writes no bounds without points, and doubles as Java does', async () => {
    const r = await aggs(
      'ga',
      { b: { geo_bounds: { field: 'loc' } }, u: { geo_bounds: { field: 'nope' } } },
      {
        term: { _id: '6' },
      },
    );
    expect(r.json.aggregations).toEqual({ b: {}, u: {} });
    const whole = await aggs('ga', { b: { geo_bounds: { field: 'loc' } } }, { term: { _id: '5' } });
    // Jackson writes the decoded doubles as Double.toString does.
    const [lat, lon] = dec([10, 179.5]);
    expect(whole.text).toContain(`"top_left":{"lat":${lat},"lon":${lon}}`);
  });

  it('refuses what GeoBoundsAggregationBuilder refuses', async () => {
    const r = await aggs('ga', { b: { geo_bounds: { field: 'tag' } } });
    expect(r.status).toBe(400);
    expect(rootCause(r).reason).toBe(
      'Field [tag] of type [keyword] is not supported for aggregation [geo_bounds]',
    );
    const script = await aggs('ga', { b: { geo_bounds: { field: 'loc', script: 'x' } } });
    expect(script.status).toBe(400);
    expect(rootCause(script).reason).toContain('[geo_bounds] unknown field [script]');
    const sub = await aggs('ga', {
      b: { geo_bounds: { field: 'loc' }, aggs: { c: { geo_centroid: { field: 'loc' } } } },
    });
    expect(rootCause(sub).reason).toBe('Aggregator [b] of type [geo_bounds] cannot accept sub-aggregations');
  });
});

/** CompensatedSum.add over the values in order. */
function compensated(values: number[]): number {
  let sum = 0;
  let delta = 0;
  for (const v of values) {
    const corrected = v + delta;
    const updated = sum + corrected;
    delta = corrected - (updated - sum);
    sum = updated;
  }
  return sum;
}

describe('geo_centroid', () => {
  it('is the compensated sums of the encoded points over their count on one shard', async () => {
    const r = await aggs('ga1', { c: { geo_centroid: { field: 'loc' } } });
    const pts = IDS.flatMap((id) => (POINTS[id] ?? []).map(dec));
    expect(r.json.aggregations.c).toEqual({
      location: {
        lat: compensated(pts.map((p) => p[0])) / pts.length,
        lon: compensated(pts.map((p) => p[1])) / pts.length,
      },
      count: pts.length,
    });
  });

  it("merges the shards' centroids weighted by their counts", async () => {
    const per = [];
    for (const shard of [0, 1, 2]) {
      const r = await aggs(
        'ga',
        { c: { geo_centroid: { field: 'loc' } } },
        { match_all: {} },
        `?preference=_shards:${shard}`,
      );
      per.push(r.json.aggregations.c as { location?: { lat: number; lon: number }; count: number });
    }
    let lat = Number.NaN;
    let lon = Number.NaN;
    let count = 0;
    for (const p of per) {
      if (p.count === 0) continue;
      count += p.count;
      lat = Number.isNaN(lat) ? p.count * p.location!.lat : lat + p.count * p.location!.lat;
      lon = Number.isNaN(lon) ? p.count * p.location!.lon : lon + p.count * p.location!.lon;
    }
    const r = await aggs('ga', { c: { geo_centroid: { field: 'loc' } } });
    expect(r.json.aggregations.c).toEqual({ location: { lat: lat / count, lon: lon / count }, count });
  });

  it('counts 0 without a location when there are no points, under buckets too', async () => {
    const r = await aggs(
      'ga',
      {
        t: { terms: { field: 'tag' }, aggs: { c: { geo_centroid: { field: 'loc' } } } },
        u: { geo_centroid: { field: 'nope' } },
      },
      { term: { _id: '6' } },
    );
    expect(r.json.aggregations.u).toEqual({ count: 0 });
    expect(r.json.aggregations.t.buckets[0].c).toEqual({ count: 0 });
  });

  it('takes the missing point for docs without one', async () => {
    const r = await aggs(
      'ga1',
      { c: { geo_centroid: { field: 'loc', missing: '1.5,2.5' } } },
      { term: { _id: '6' } },
    );
    expect(r.json.aggregations.c).toEqual({ location: { lat: 1.5, lon: 2.5 }, count: 1 });
  });
});

const ORIGIN = { lat: 40.7143528, lon: -74.0059731 };
const rad = Math.PI / 180;
/** SloppyMath's haversine form (1 − cos) with exact cosines, from the origin to the encoded point. */
function arc(p: [number, number]): number {
  const [lat, lon] = dec(p);
  const h1 = 1 - Math.cos((ORIGIN.lat - lat) * rad);
  const h2 = 1 - Math.cos((ORIGIN.lon - lon) * rad);
  const h = h1 + Math.cos(ORIGIN.lat * rad) * Math.cos(lat * rad) * h2;
  return 2 * 6371008.7714 * Math.asin(Math.min(1, Math.sqrt(h * 0.5)));
}
function plane(p: [number, number]): number {
  const [lat, lon] = dec(p);
  const x = (lon - ORIGIN.lon) * rad * Math.cos(((lat + ORIGIN.lat) / 2) * rad);
  const y = (lat - ORIGIN.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6371008.7714;
}
function countIn(distance: (p: [number, number]) => number, from: number, to: number, unit = 1): number {
  return IDS.filter((id) =>
    (POINTS[id] ?? []).some((p) => distance(p) / unit >= from && distance(p) / unit < to),
  ).length;
}

describe('geo_distance', () => {
  it('buckets docs by their distance from the origin, keys as GeoDistanceAggregationBuilder.Range makes them', async () => {
    const r = await aggs('ga', {
      d: {
        geo_distance: {
          field: 'loc',
          origin: ORIGIN,
          unit: 'km',
          ranges: [{ to: 1 }, { from: 1, to: 6 }, { from: 6, key: 'far' }],
        },
        aggs: { c: { value_count: { field: 'tag' } } },
      },
    });
    expect(r.status).toBe(200);
    const buckets = r.json.aggregations.d.buckets;
    expect(buckets.map((b: { key: string }) => b.key)).toEqual(['*-1.0', '1.0-6.0', 'far']);
    const want = [countIn(arc, 0, 1, 1000), countIn(arc, 1, 6, 1000), countIn(arc, 6, Infinity, 1000)];
    expect(buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual(want);
    // Doc 4 has a point 1.26 km away and one in London: it counts in both of their ranges.
    expect(want).toEqual([2, 2, 4]);
    expect(buckets[1].c.value).toBe(2);
    // An open `from` is 0.0; an open `to` is left out.
    expect(r.text).toContain('{"key":"*-1.0","from":0.0,"to":1.0,"doc_count":2');
    expect(r.text).toContain('{"key":"far","from":6.0,"doc_count":4');
  });

  it('measures the plane distance by distance_type, keyed, with the origin in other forms', async () => {
    const ranges = [{ to: 1000 }, { from: 1000, to: 5285.5 }, { from: 5285.5 }];
    const r = await aggs('ga', {
      arc: { geo_distance: { field: 'loc', origin: '40.7143528,-74.0059731', ranges, keyed: true } },
      plane: {
        geo_distance: { field: 'loc', origin: [ORIGIN.lon, ORIGIN.lat], ranges, distance_type: 'plane' },
      },
    });
    const arcs = r.json.aggregations.arc.buckets;
    expect(Object.keys(arcs)).toEqual(['*-1000.0', '1000.0-5285.5', '5285.5-*']);
    expect(arcs['1000.0-5285.5'].doc_count).toBe(countIn(arc, 1000, 5285.5));
    expect(r.json.aggregations.plane.buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual([
      countIn(plane, 0, 1000),
      countIn(plane, 1000, 5285.5),
      countIn(plane, 5285.5, Infinity),
    ]);
  });

  it('answers empty buckets for an unmapped field', async () => {
    const r = await aggs('ga', {
      d: { geo_distance: { field: 'nope', origin: ORIGIN, ranges: [{ to: 5 }] } },
    });
    expect(r.json.aggregations.d).toEqual({ buckets: [{ key: '*-5.0', from: 0, to: 5, doc_count: 0 }] });
  });

  it('refuses what GeoDistanceAggregationBuilder refuses', async () => {
    const noOrigin = await aggs('ga', { d: { geo_distance: { field: 'loc', ranges: [{ to: 5 }] } } });
    expect(noOrigin.status).toBe(400);
    expect(rootCause(noOrigin)).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Aggregation [d] must define an [origin].',
    });
    const noRanges = await aggs('ga', { d: { geo_distance: { field: 'loc', origin: ORIGIN } } });
    expect(rootCause(noRanges).reason).toBe('No [ranges] specified for the [d] aggregation');
    const unit = await aggs('ga', {
      d: { geo_distance: { field: 'loc', origin: ORIGIN, unit: 'parsec', ranges: [{ to: 5 }] } },
    });
    expect(JSON.stringify(unit.json)).toContain('No distance unit match [parsec]');
    const badPoint = await aggs('ga', {
      d: { geo_distance: { field: 'loc', origin: { lat: 1 }, ranges: [{ to: 5 }] } },
    });
    expect(JSON.stringify(badPoint.json)).toContain(
      'malformed [lat] geo point object. either [lat] or [lon] (or both) are missing',
    );
  });
});
