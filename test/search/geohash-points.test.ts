import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/gh', { mappings: { properties: { loc: { type: 'geo_point' } } } });
  const lines = [
    { index: { _id: '1' } },
    { loc: 'dr5r' },
    { index: { _id: '2' } },
    { loc: { geohash: 'u4pruydqqvj' } },
  ];
  const bulk = await http(node.url, 'POST', '/gh/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

describe('a geohash value', () => {
  it("is indexed at its cell's bottom-left corner", async () => {
    // dr5r spans lat [40.60546875, 40.78125], lon [-74.1796875, -73.828125].
    const corner = { lat: 40.60546875, lon: -74.1796875 };
    const r = await http(node.url, 'POST', '/gh/_search', {
      query: { geo_distance: { distance: '1m', loc: corner } },
      sort: [{ _geo_distance: { loc: corner } }],
    });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1']);
    expect(r.json.hits.hits[0].sort).toEqual([0]);
    const centre = await http(node.url, 'POST', '/gh/_count', {
      query: { geo_distance: { distance: '1km', loc: { lat: 40.693359375, lon: -74.00390625 } } },
    });
    expect(centre.json.count).toBe(0);
  });
});
