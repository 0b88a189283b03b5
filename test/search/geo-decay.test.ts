import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const ORIGIN = { lat: 40.7143528, lon: -74.0059731 };
const docs: Record<string, Record<string, unknown>> = {
  1: { loc: { lat: 40.7143528, lon: -74.0059731 } },
  2: { loc: '40.759011,-73.9844722' },
  3: { loc: [-74.007819, 40.718266] },
  4: { loc: 'POINT (-74.0088305 40.7051157)' },
  5: {
    loc: [
      { lat: 40.65, lon: -73.95 },
      { lat: 40.7247222, lon: -74 },
    ],
  },
  6: { other: 1 },
};

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/gd', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { loc: { type: 'geo_point' }, other: { type: 'long' } } },
  });
  const lines = Object.entries(docs).flatMap(([id, d]) => [{ index: { _id: id } }, d]);
  const bulk = await http(node.url, 'POST', '/gd/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const f = Math.fround;
const search = (fn: Record<string, unknown>) =>
  http(node.url, 'POST', '/gd/_search', {
    size: 10,
    query: { function_score: { ...fn, boost_mode: 'replace' } },
  });
const scores = (r: HttpResult) =>
  Object.fromEntries(
    (r.json.hits.hits as { _id: string; _score: number }[]).map((h) => [h._id, f(h._score)]),
  );

// Independent of Shoal's code: the points as Lucene's 32-bit encoding decodes them, and the
// haversine in SloppyMath's form (1 − cos, so a few millimetres apart is 0) with exact cosines.
const latStep = 180 / 2 ** 32;
const lonStep = 360 / 2 ** 32;
const decoded = (lat: number, lon: number) => ({
  lat: Math.floor(lat / latStep) * latStep,
  lon: Math.floor(lon / lonStep) * lonStep,
});
const rad = Math.PI / 180;
function meters(a: { lat: number; lon: number }, lat: number, lon: number): number {
  const b = decoded(lat, lon);
  const h1 = 1 - Math.cos((a.lat - b.lat) * rad);
  const h2 = 1 - Math.cos((a.lon - b.lon) * rad);
  const h = h1 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * h2;
  return 2 * 6371008.7714 * Math.asin(Math.min(1, Math.sqrt(h * 0.5)));
}
const POINTS: Record<string, [number, number][]> = {
  1: [[40.7143528, -74.0059731]],
  2: [[40.759011, -73.9844722]],
  3: [[40.718266, -74.007819]],
  4: [[40.7051157, -74.0088305]],
  5: [
    [40.65, -73.95],
    [40.7247222, -74],
  ],
};
const gauss = (v: number, scale: number, decay: number) => decay ** ((v * v) / (scale * scale));
const exp = (v: number, scale: number, decay: number) => decay ** (v / scale);
const linear = (v: number, scale: number, decay: number) => Math.max(0, 1 - (v * (1 - decay)) / scale);

function expected(
  curve: (v: number, scale: number, decay: number) => number,
  origin: { lat: number; lon: number },
  scale: number,
  offset: number,
  decay: number,
  pick: (d: number[]) => number = (d) => Math.min(...d),
) {
  const out: Record<string, number> = { 6: 1 };
  for (const [id, pts] of Object.entries(POINTS)) {
    const d = pts.map(([lat, lon]) => Math.max(0, meters(origin, lat, lon) - offset));
    out[id] = f(curve(pick(d), scale, decay));
  }
  return out;
}

describe('decay functions on geo_point fields', () => {
  it('scores gauss by the arc distance of the encoded points, origin as an object', async () => {
    const r = await search({ gauss: { loc: { origin: ORIGIN, scale: '2km', offset: '300m', decay: 0.3 } } });
    expect(r.status).toBe(200);
    expect(scores(r)).toEqual(expected(gauss, ORIGIN, 2000, 300, 0.3));
  });

  it('takes the origin in every point form and scale and offset in any unit', async () => {
    const exps = await search({ exp: { loc: { origin: '40.7143528,-74.0059731', scale: '1mi' } } });
    expect(scores(exps)).toEqual(expected(exp, ORIGIN, 1609.344, 0, 0.5));
    const lin = await search({
      linear: { loc: { origin: [-74.0059731, 40.7143528], scale: 9000, offset: '0.1km', decay: 0.2 } },
    });
    expect(scores(lin)).toEqual(expected(linear, ORIGIN, 9000, 100, 0.2));
    const wkt = await search({ gauss: { loc: { origin: 'POINT (-74.0059731 40.7143528)', scale: '3km' } } });
    expect(scores(wkt)).toEqual(expected(gauss, ORIGIN, 3000, 0, 0.5));
  });

  it('reads a geohash origin as its cell’s bottom-left corner', async () => {
    const r = await search({ gauss: { loc: { origin: { geohash: 'dr5r' }, scale: '5km' } } });
    // dr5r: lon bits 0100101101 (301 × 360/1024 − 180), lat bits 1011100111 (743 × 180/1024 − 90).
    expect(scores(r)).toEqual(expected(gauss, { lat: 40.60546875, lon: -74.1796875 }, 5000, 0, 0.5));
  });

  it('picks among a doc’s distances by multi_value_mode', async () => {
    const avg = (d: number[]) => d.reduce((a, b) => a + b, 0) / d.length;
    const max = await search({ exp: { loc: { origin: ORIGIN, scale: '4km' }, multi_value_mode: 'max' } });
    expect(scores(max)).toEqual(expected(exp, ORIGIN, 4000, 0, 0.5, (d) => Math.max(...d)));
    const a = await search({ exp: { loc: { origin: ORIGIN, scale: '4km' }, multi_value_mode: 'avg' } });
    expect(scores(a)).toEqual(expected(exp, ORIGIN, 4000, 0, 0.5, avg));
  });

  it('fails as parseGeoVariable does', async () => {
    const noScale = await search({ gauss: { loc: { origin: ORIGIN } } });
    expect(noScale.status).toBe(400);
    expect(noScale.json.error.root_cause[0]).toMatchObject({
      type: 'parse_exception',
      reason: '[origin] and [scale] must be set for geo fields.',
    });
    const badParam = await search({ gauss: { loc: { origin: ORIGIN, scale: '1km', pivot: 2 } } });
    expect(badParam.json.error.root_cause[0].reason).toBe('parameter [pivot] not supported!');
    const badScale = await search({ gauss: { loc: { origin: ORIGIN, scale: '-1km' } } });
    expect(badScale.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to create query: function_score : scale must be > 0.0.',
    });
  });
});
