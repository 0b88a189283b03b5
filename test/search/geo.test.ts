import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

// Around New York: the distances from (40.7143528, -74.0059731) are Lucene's TestSloppyMath ones.
const NYC = { lat: 40.7143528, lon: -74.0059731 };
const docs: Record<string, Record<string, unknown>> = {
  1: { loc: { lat: NYC.lat, lon: NYC.lon }, name: 'a' },
  2: { loc: '40.759011,-73.9844722', name: 'b' }, // 5285.89 m
  3: { loc: [-74.007819, 40.718266], name: 'c' }, // 462.10 m
  4: { loc: 'POINT (-74.0088305 40.7051157)', name: 'd' }, // 1054.98 m
  5: { loc: { type: 'Point', coordinates: [-73.95, 40.65] }, name: 'e' }, // 8572.11 m
  6: { name: 'no point' },
  7: {
    loc: [
      { lat: 51.5, lon: -0.12 },
      { lat: 40.7247222, lon: -74 },
    ],
    name: 'g',
  }, // 1258.12 m and London
  8: { loc: { lat: 10, lon: 179.5 }, name: 'h' },
  9: { loc: { lat: 10, lon: -179.5 }, name: 'i' },
};

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/geo', {
    settings: { number_of_shards: 3 },
    mappings: { properties: { loc: { type: 'geo_point' }, name: { type: 'keyword' } } },
  });
  const lines = Object.entries(docs).flatMap(([id, d]) => [{ index: { _id: id } }, d]);
  const bulk = await http(node.url, 'POST', '/geo/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown) => http(node.url, 'POST', '/geo/_search', { size: 20, ...(body as object) });
const query = (q: unknown) => search({ query: q });
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id).sort();
const rootCause = (r: HttpResult) => r.json.error.root_cause[0];

describe('geo_distance', () => {
  it('matches the points within the distance, in any unit', async () => {
    expect(ids(await query({ geo_distance: { distance: '1km', loc: NYC } }))).toEqual(['1', '3']);
    expect(ids(await query({ geo_distance: { distance: 1060, unit: 'm', loc: NYC } }))).toEqual([
      '1',
      '3',
      '4',
    ]);
    expect(ids(await query({ geo_distance: { distance: '1.3km', loc: NYC } }))).toEqual(['1', '3', '4', '7']);
    expect(ids(await query({ geo_distance: { distance: '5.4', unit: 'km', loc: NYC } }))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '7',
    ]);
    expect(ids(await query({ geo_distance: { distance: '6mi', loc: NYC } }))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '7',
    ]);
    // 462.10 m away: the boundary is the arc distance on the encoded point.
    expect(ids(await query({ geo_distance: { distance: '462m', loc: NYC } }))).toEqual(['1']);
    expect(ids(await query({ geo_distance: { distance: '462.2m', loc: NYC } }))).toEqual(['1', '3']);
  });

  it('reads the center in every point form', async () => {
    const forms = [
      { loc: `${NYC.lat},${NYC.lon}` },
      { loc: [NYC.lon, NYC.lat] },
      { loc: `POINT (${NYC.lon} ${NYC.lat})` },
      { loc: { type: 'Point', coordinates: [NYC.lon, NYC.lat] } },
      { 'loc.lat': NYC.lat, 'loc.lon': NYC.lon },
      { loc: 'dr5regy6rc6y' },
      { loc: { geohash: 'dr5regy6rc6y' } },
    ];
    for (const f of forms) {
      expect(ids(await query({ geo_distance: { distance: '1km', ...f } }))).toEqual(['1', '3']);
    }
  });

  it('scores with the boost and takes a name', async () => {
    const r = await query({ geo_distance: { distance: '1km', loc: NYC, boost: 3, _name: 'near' } });
    expect(r.json.hits.hits.map((h: { _score: number }) => h._score)).toEqual([3, 3]);
    const plane = await query({ geo_distance: { distance: '1km', loc: NYC, distance_type: 'plane' } });
    expect(ids(plane)).toEqual(['1', '3']);
  });

  it('validates the center by validation_method', async () => {
    const bad = await query({ geo_distance: { distance: '1km', loc: { lat: 100, lon: 10 } } });
    expect(bad.status).toBe(400);
    expect(rootCause(bad)).toMatchObject({
      type: 'query_shard_exception',
      reason: "couldn't validate latitude/ longitude values",
    });
    expect(bad.json.error.failed_shards[0].reason.caused_by).toMatchObject({
      type: 'query_validation_exception',
      reason: 'Validation Failed: 1: center point latitude is invalid: 100.0;',
    });
    // COERCE wraps the center around: 360° further is the same place.
    const coerced = await query({
      geo_distance: {
        distance: '1km',
        loc: { lat: NYC.lat, lon: NYC.lon + 360 },
        validation_method: 'coerce',
      },
    });
    expect(ids(coerced)).toEqual(['1', '3']);
    const ignored = await query({
      geo_distance: { distance: '1km', loc: { lat: 100, lon: 10 }, validation_method: 'IGNORE_MALFORMED' },
    });
    expect(rootCause(ignored)).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to create query: invalid latitude 100.0; must be between -90.0 and 90.0',
    });
    const method = await query({ geo_distance: { distance: '1km', loc: NYC, validation_method: 'loose' } });
    expect(rootCause(method)).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'operator needs to be either [COERCE, IGNORE_MALFORMED, STRICT], but not [loose]',
    });
  });

  it('refuses what GeoDistanceQueryBuilder refuses', async () => {
    const noDistance = await query({ geo_distance: { loc: NYC } });
    expect(rootCause(noDistance)).toMatchObject({
      type: 'parsing_exception',
      reason: "geo_distance requires 'distance' to be specified",
    });
    const zero = await query({ geo_distance: { distance: 0, loc: NYC } });
    expect(rootCause(zero)).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'distance must be greater than zero',
    });
    const unit = await query({ geo_distance: { distance: 1, unit: 'parsec', loc: NYC } });
    expect(rootCause(unit).reason).toBe('No distance unit match [parsec]');
    const two = await query({ geo_distance: { distance: '1km', loc: NYC, other: NYC } });
    expect(rootCause(two).reason).toBe(
      "[geo_distance] query doesn't support multiple fields, found [loc] and [other]",
    );
    const keyword = await query({ geo_distance: { distance: '1km', name: NYC } });
    expect(keyword.status).toBe(400);
    expect(rootCause(keyword)).toMatchObject({
      type: 'query_shard_exception',
      reason: 'Field [name] is of unsupported type [keyword] for [geo_distance] query',
    });
    const unmapped = await query({ geo_distance: { distance: '1km', nope: NYC } });
    expect(rootCause(unmapped).reason).toBe('failed to find geo field [nope]');
    const ignored = await query({ geo_distance: { distance: '1km', nope: NYC, ignore_unmapped: true } });
    expect(ignored.json.hits.total.value).toBe(0);
    const badPoint = await query({ geo_distance: { distance: '1km', loc: { lat: 1, lng: 2 } } });
    expect(rootCause(badPoint)).toMatchObject({
      type: 'parse_exception',
      reason: 'field [lng] not supported - must be one of: lon, lat, z, type, coordinates, geohash',
    });
  });
});

describe('geo_bounding_box', () => {
  const nycBox = { top_left: { lat: 40.73, lon: -74.01 }, bottom_right: { lat: 40.7, lon: -73.99 } };

  it('matches the points inside the box, given in any of its forms', async () => {
    expect(ids(await query({ geo_bounding_box: { loc: nycBox } }))).toEqual(['1', '3', '4', '7']);
    const forms = [
      { top_right: { lat: 40.73, lon: -73.99 }, bottom_left: { lat: 40.7, lon: -74.01 } },
      { top: 40.73, left: -74.01, bottom: 40.7, right: -73.99 },
      { wkt: 'BBOX (-74.01, -73.99, 40.73, 40.7)' },
      { top_left: [-74.01, 40.73], bottom_right: '40.7,-73.99' },
    ];
    for (const box of forms) {
      expect(ids(await query({ geo_bounding_box: { loc: box } }))).toEqual(['1', '3', '4', '7']);
    }
  });

  it('crosses the dateline when left is east of right', async () => {
    const box = { top: 11, left: 179, bottom: 9, right: -179 };
    expect(ids(await query({ geo_bounding_box: { loc: box } }))).toEqual(['8', '9']);
    const r = await query({ geo_bounding_box: { loc: box, boost: 2, _name: 'dateline' } });
    expect(r.json.hits.hits.map((h: { _score: number }) => h._score)).toEqual([2, 2]);
  });

  it('matches on the encoded point: an edge value that is not representable stays outside the low edge', async () => {
    await http(node.url, 'PUT', '/edge', { mappings: { properties: { p: { type: 'geo_point' } } } });
    await http(node.url, 'PUT', '/edge/_doc/1?refresh=true', { p: { lat: 40.7, lon: -74 } });
    const edge = (box: object) =>
      http(node.url, 'POST', '/edge/_search', { query: { geo_bounding_box: { p: box } } });
    // Lucene encodes the point down (floor) and the box's low corner up (ceil).
    expect((await edge({ top: 41, left: -75, bottom: 40.7, right: -73 })).json.hits.total.value).toBe(0);
    expect((await edge({ top: 40.7, left: -75, bottom: 40, right: -74 })).json.hits.total.value).toBe(1);
    expect((await edge({ top: 41, left: -75, bottom: 40.6999999, right: -73 })).json.hits.total.value).toBe(
      1,
    );
  });

  it('validates as GeoBoundingBoxQueryBuilder does', async () => {
    const below = await query({ geo_bounding_box: { loc: { top: 1, left: 0, bottom: 2, right: 1 } } });
    expect(rootCause(below)).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'top is below bottom corner: 1.0 vs. 2.0',
    });
    const range = await query({ geo_bounding_box: { loc: { top: 91, left: 0, bottom: 2, right: 1 } } });
    expect(rootCause(range)).toMatchObject({
      type: 'query_shard_exception',
      reason: "couldn't validate latitude/ longitude values",
    });
    const coerced = await query({
      geo_bounding_box: { loc: { top: 11, left: 179, bottom: 9, right: 181 }, validation_method: 'COERCE' },
    });
    expect(ids(coerced)).toEqual(['8', '9']);
    const missing = await query({ geo_bounding_box: { loc: { top: 1, left: 0 } } });
    expect(rootCause(missing).reason).toBe('bottom latitude is invalid: NaN');
    const none = await query({ geo_bounding_box: { boost: 1 } });
    expect(rootCause(none)).toMatchObject({
      type: 'parse_exception',
      reason: 'failed to parse [geo_bounding_box] query. bounding box not provided',
    });
    const field = await query({ geo_bounding_box: { loc: { up: 1 } } });
    expect(rootCause(field).reason).toBe(
      'failed to parse [geo_bounding_box] query. [failed to parse bounding box. unexpected field [up]]',
    );
    const keyword = await query({ geo_bounding_box: { name: nycBox } });
    expect(rootCause(keyword).reason).toBe(
      'Field [name] is of unsupported type [keyword] for [geo_bounding_box] query',
    );
    const ignored = await query({ geo_bounding_box: { nope: nycBox, ignore_unmapped: true } });
    expect(ignored.json.hits.total.value).toBe(0);
  });
});

describe('_geo_distance sort', () => {
  const sorted = async (sort: unknown, extra: object = {}) => {
    const r = await search({ sort: [sort], ...extra });
    expect(r.status).toBe(200);
    return r.json.hits.hits.map((h: { _id: string; sort: unknown[] }) => [h._id, h.sort[0]]);
  };

  it('sorts by the distance as a double in the unit, across shards', async () => {
    const km = await sorted({ _geo_distance: { loc: [NYC.lon, NYC.lat], unit: 'km' } });
    expect(km.map((e: unknown[]) => e[0])).toEqual(['1', '3', '4', '7', '2', '5', '9', '8', '6']);
    const byId = Object.fromEntries(km);
    expect(byId[1]).toBeLessThan(1e-5);
    expect(byId[3]).toBeCloseTo(0.4621, 4);
    expect(byId[4]).toBeCloseTo(1.05498, 4);
    expect(byId[7]).toBeCloseTo(1.25812, 4);
    expect(byId[2]).toBeCloseTo(5.28589, 4);
    expect(byId[5]).toBeCloseTo(8.57211, 4);
    // A doc without a point sorts with +Infinity, written as Jackson writes it.
    expect(byId[6]).toBe('Infinity');
    const m = Object.fromEntries(await sorted({ _geo_distance: { loc: NYC } }));
    expect(m[3]).toBeCloseTo(462.1, 1);
    expect(m[3] / 1000).toBeCloseTo(byId[3], 12);
  });

  it('applies the order, the mode and several points', async () => {
    const desc = await sorted({ _geo_distance: { loc: `${NYC.lat},${NYC.lon}`, order: 'desc' } });
    // Missing still sorts with +Infinity: first when descending.
    expect(desc.map((e: unknown[]) => e[0])).toEqual(['6', '8', '9', '7', '5', '2', '4', '3', '1']);
    const min = Object.fromEntries(await sorted({ _geo_distance: { loc: NYC, mode: 'min' } }));
    const max = Object.fromEntries(await sorted({ _geo_distance: { loc: NYC, mode: 'max' } }));
    expect(min[7]).toBeCloseTo(1258.12, 1);
    expect(max[7]).toBeGreaterThan(5_000_000);
    const avg = Object.fromEntries(await sorted({ _geo_distance: { loc: NYC, mode: 'avg' } }));
    expect(avg[7]).toBeCloseTo((min[7] + max[7]) / 2, 6);
    const two = Object.fromEntries(
      await sorted({ _geo_distance: { loc: [NYC, { lat: 10, lon: 179.5 }], unit: 'km', mode: 'min' } }),
    );
    expect(two[8]).toBeLessThan(1e-5);
    expect(two[3]).toBeCloseTo(0.4621, 4);
  });

  it('pages with search_after', async () => {
    const sort = [{ _geo_distance: { loc: NYC, unit: 'km' } }];
    const first = await search({ sort, size: 3 });
    const last = first.json.hits.hits[2].sort;
    const next = await search({ sort, size: 3, search_after: last });
    expect(next.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['7', '2', '5']);
  });

  it('refuses what GeoDistanceSortBuilder refuses', async () => {
    const unmapped = await search({ sort: [{ _geo_distance: { nope: NYC } }] });
    expect(unmapped.status).toBe(400);
    expect(rootCause(unmapped)).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'failed to find mapper for [nope] for geo distance based sort',
    });
    const ignored = await sorted({ _geo_distance: { nope: NYC, ignore_unmapped: true } });
    expect(ignored.every((e: unknown[]) => e[1] === 'Infinity')).toBe(true);
    const keyword = await search({ sort: [{ _geo_distance: { name: NYC } }] });
    expect(rootCause(keyword).reason).toBe(
      'unable to apply geo distance sort to field [name] of type [keyword]',
    );
    const lat = await search({ sort: [{ _geo_distance: { loc: { lat: 95, lon: 0 } } }] });
    expect(rootCause(lat)).toMatchObject({
      type: 'parse_exception',
      reason: 'illegal latitude value [95.0] for [GeoDistanceSort] for field [loc].',
    });
    const sum = await search({ sort: [{ _geo_distance: { loc: NYC, mode: 'sum' } }] });
    expect(rootCause(sum).reason).toBe("sort_mode [sum] isn't supported for sorting by geo distance");
    const none = await search({ sort: [{ _geo_distance: { order: 'asc' } }] });
    expect(rootCause(none).reason).toBe('Geo distance sorting needs at least one point.');
    const reset = await search({ sort: [{ _geo_distance: { loc: NYC, other: NYC } }] });
    expect(rootCause(reset).reason).toBe('Trying to reset fieldName to [other], already set to [loc].');
    const nested = await search({ sort: [{ _geo_distance: { loc: NYC, nested: { path: 'x' } } }] });
    expect(nested.status).toBe(501);
  });
});
