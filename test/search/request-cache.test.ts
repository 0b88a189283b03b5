import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  for (const [name, settings] of [
    ['rc', { number_of_shards: 2, refresh_interval: -1 }],
    ['rc_off', { number_of_shards: 1, refresh_interval: -1, 'index.requests.cache.enable': false }],
  ] as const) {
    const created = await http(node.url, 'PUT', `/${name}`, {
      settings,
      mappings: { properties: { tag: { type: 'keyword' }, n: { type: 'long' }, at: { type: 'date' } } },
    });
    expect(created.status).toBe(200);
    const lines = Array.from({ length: 20 }, (_, i) => [
      { index: { _id: String(i) } },
      { tag: i % 3 === 0 ? 'a' : 'b', n: i, at: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}` },
    ]).flat();
    const bulk = await http(node.url, 'POST', `/${name}/_bulk?refresh=true`, ndjson(lines));
    expect(bulk.json.errors).toBe(false);
  }
});
afterAll(async () => {
  await node?.stop();
});

interface CacheStats {
  memory_size_in_bytes: number;
  evictions: number;
  hit_count: number;
  miss_count: number;
}

async function cacheStats(index: string): Promise<CacheStats> {
  const r = await http(node.url, 'GET', `/${index}/_stats/request_cache`);
  expect(r.status).toBe(200);
  return r.json.indices[index].primaries.request_cache;
}

const AGGS = { size: 0, aggs: { tags: { terms: { field: 'tag' } }, total: { sum: { field: 'n' } } } };

const search = (index: string, body: unknown, params = '') =>
  http(node.url, 'POST', `/${index}/_search${params}`, body);

/** What a search answers, without what changes from one run to the next. */
function stable(r: { json: Record<string, unknown> }) {
  const { took: _took, ...rest } = r.json;
  return rest;
}

describe('the shard request cache', () => {
  it('answers a repeated size-0 search from each shard’s cache, with the same response', async () => {
    const before = await cacheStats('rc');
    const first = await search('rc', AGGS);
    const second = await search('rc', AGGS);
    expect(first.status).toBe(200);
    expect(stable(second)).toEqual(stable(first));
    expect(first.json.aggregations.total.value).toBe(190);
    const after = await cacheStats('rc');
    expect(after.miss_count - before.miss_count).toBe(2);
    expect(after.hit_count - before.hit_count).toBe(2);
    expect(after.memory_size_in_bytes).toBeGreaterThan(0);
  });

  it('sees new documents after a refresh, never a stale cached result', async () => {
    await search('rc', AGGS);
    const put = await http(node.url, 'PUT', '/rc/_doc/new?refresh=true', { tag: 'a', n: 1000 });
    expect(put.status).toBe(201);
    const before = await cacheStats('rc');
    const r = await search('rc', AGGS);
    expect(r.json.aggregations.total.value).toBe(1190);
    expect(r.json.hits.total.value).toBe(21);
    // `refresh=true` on a document write refreshes the shard it went to: that shard misses, the other hits.
    const after = await cacheStats('rc');
    expect(after.miss_count - before.miss_count).toBe(1);
    expect(after.hit_count - before.hit_count).toBe(1);
    const del = await http(node.url, 'DELETE', '/rc/_doc/new?refresh=true');
    expect(del.status).toBe(200);
    expect((await search('rc', AGGS)).json.aggregations.total.value).toBe(190);
  });

  it('leaves out searches with hits, with `now`, with scripts, or with request_cache=false', async () => {
    await search('rc', AGGS);
    const before = await cacheStats('rc');
    await search('rc', { size: 1, aggs: AGGS.aggs });
    await search('rc', { size: 0, query: { range: { at: { gte: 'now-100y' } } } });
    await search('rc', {
      size: 0,
      aggs: { s: { sum: { script: { source: "doc['n'].value * 2" } } } },
    });
    await search('rc', AGGS, '?request_cache=false');
    const after = await cacheStats('rc');
    expect(after.hit_count).toBe(before.hit_count);
    expect(after.miss_count).toBe(before.miss_count);
  });

  it('follows index.requests.cache.enable, which the request_cache parameter overrides', async () => {
    await search('rc_off', AGGS);
    await search('rc_off', AGGS);
    expect(await cacheStats('rc_off')).toMatchObject({ hit_count: 0, miss_count: 0 });
    await search('rc_off', AGGS, '?request_cache=true');
    await search('rc_off', AGGS, '?request_cache=true');
    expect(await cacheStats('rc_off')).toMatchObject({ hit_count: 1, miss_count: 1 });
  });

  it('empties on _cache/clear, and refuses a bad flag as Elasticsearch does', async () => {
    await search('rc', AGGS);
    expect((await cacheStats('rc')).memory_size_in_bytes).toBeGreaterThan(0);
    const cleared = await http(node.url, 'POST', '/rc/_cache/clear?request=true');
    expect(cleared.status).toBe(200);
    // Every copy counts in `total`; the unassigned replicas of a one-node cluster do not succeed.
    expect(cleared.json).toEqual({ _shards: { total: 4, successful: 2, failed: 0 } });
    expect((await cacheStats('rc')).memory_size_in_bytes).toBe(0);
    const before = await cacheStats('rc');
    await search('rc', AGGS);
    expect((await cacheStats('rc')).miss_count - before.miss_count).toBe(2);
    const all = await http(node.url, 'POST', '/_cache/clear');
    expect(all.status).toBe(200);
    const bad = await http(node.url, 'POST', '/rc/_cache/clear?request=maybe');
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
    const missing = await http(node.url, 'POST', '/nope/_cache/clear');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });
});
