/**
 * OpenSearch's point-in-time paths, so OpenSearch clients page Shoal too: create under
 * `_search/point_in_time`, list every open PIT, delete by id list or all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { bulk, createIndex, ids, search, walkPit } from './paging-support.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  await createIndex(url, 'os', { settings: { number_of_shards: 2 } });
  await bulk(
    url,
    'os',
    Array.from({ length: 30 }, (_, i) => [`o${i}`, { n: i }] as [string, Record<string, unknown>]),
  );
});
afterAll(async () => {
  await node?.stop();
});

describe("OpenSearch's PIT API", () => {
  it('creates, lists, searches and deletes PITs', async () => {
    const started = Date.now();
    const created = await http(url, 'POST', '/os/_search/point_in_time?keep_alive=100m');
    expect(created.status, created.text).toBe(200);
    expect(Object.keys(created.json)).toEqual(['pit_id', '_shards', 'creation_time']);
    expect(created.json._shards).toEqual({ total: 2, successful: 2, skipped: 0, failed: 0 });
    expect(created.json.creation_time).toBeGreaterThanOrEqual(started - 1000);
    const pit = created.json.pit_id as string;

    const second = (await http(url, 'POST', '/os/_search/point_in_time?keep_alive=1m')).json.pit_id;
    const list = await http(url, 'GET', '/_search/point_in_time/_all');
    expect(list.status).toBe(200);
    expect(list.json.pits).toEqual(
      expect.arrayContaining([
        { pit_id: pit, creation_time: created.json.creation_time, keep_alive: 6_000_000 },
        expect.objectContaining({ pit_id: second, keep_alive: 60_000 }),
      ]),
    );
    expect(list.json.pits).toHaveLength(2);

    // The same search body works for both products.
    const walked = await walkPit(url, pit, { size: 7, sort: [{ n: 'asc' }] });
    expect(ids(walked)).toEqual(Array.from({ length: 30 }, (_, i) => `o${i}`));

    const del = await http(url, 'DELETE', '/_search/point_in_time', { pit_id: [pit] });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ pits: [{ successful: true, pit_id: pit }] });
    expect((await search(url, '/_search', { pit: { id: pit } })).status).toBe(404);

    const third = (await http(url, 'POST', '/os/_search/point_in_time?keep_alive=1m')).json.pit_id;
    const all = await http(url, 'DELETE', '/_search/point_in_time/_all');
    expect(all.status).toBe(200);
    expect(all.json.pits).toEqual(
      expect.arrayContaining([
        { successful: true, pit_id: second },
        { successful: true, pit_id: third },
      ]),
    );
    expect((await http(url, 'GET', '/_search/point_in_time/_all')).json).toEqual({ pits: [] });
  });

  it('an Elasticsearch PIT shows up in the OpenSearch listing too', async () => {
    const es = await http(url, 'POST', '/os/_pit?keep_alive=2m');
    const list = await http(url, 'GET', '/_search/point_in_time/_all');
    expect(list.json.pits.map((p: { pit_id: string }) => p.pit_id)).toContain(es.json.id);
    expect((await http(url, 'DELETE', '/_pit', { id: es.json.id })).json).toEqual({
      succeeded: true,
      num_freed: 2,
    });
  });
});
