import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const mappings = { properties: { tag: { type: 'keyword' }, n: { type: 'long' } } };
  for (const [index, shards] of [
    ['ta', 1],
    ['ta2', 2],
  ] as const) {
    const created = await http(node.url, 'PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings,
    });
    expect(created.status).toBe(200);
    // n = 1..10 in index order; tag even on even n.
    const lines = Array.from({ length: 10 }, (_, i) => [
      { index: { _id: String(i + 1) } },
      { n: i + 1, tag: (i + 1) % 2 === 0 ? 'even' : 'odd' },
    ]).flat();
    const bulk = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(lines));
    expect(bulk.json.errors).toBe(false);
  }
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown, path = '/ta/_search') => http(node.url, 'POST', path, body);
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id);
const even = { term: { tag: 'even' } };

describe('terminate_after on _search', () => {
  it('returns the best of the first docs in index order, and says the shard stopped', async () => {
    const r = await search({ terminate_after: 3, sort: [{ n: 'desc' }], post_filter: even });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['took', 'timed_out', 'terminated_early', '_shards', 'hits']);
    expect(r.json.terminated_early).toBe(true);
    expect(ids(r)).toEqual(['6', '4', '2']);
    expect(r.json.hits.total).toEqual({ value: 3, relation: 'eq' });
  });

  it('reads the URL parameter as well', async () => {
    const r = await search({ sort: ['n'], post_filter: even }, '/ta/_search?terminate_after=2');
    expect(r.json.terminated_early).toBe(true);
    expect(ids(r)).toEqual(['2', '4']);
  });

  it('is false when no more docs qualify than the limit, and absent without terminate_after', async () => {
    const r = await search({ terminate_after: 5, sort: ['n'], post_filter: even });
    expect(r.json.terminated_early).toBe(false);
    expect(ids(r)).toEqual(['2', '4', '6', '8', '10']);
    const plain = await search({ sort: ['n'] });
    expect('terminated_early' in plain.json).toBe(false);
  });

  it('keeps the index count of a query nothing filters, as Elasticsearch shortcuts it', async () => {
    const r = await search({ terminate_after: 2, sort: ['n'] });
    expect(r.json.terminated_early).toBe(true);
    expect(ids(r)).toEqual(['1', '2']);
    expect(r.json.hits.total).toEqual({ value: 10, relation: 'eq' });
    const counted = await search({
      terminate_after: 2,
      size: 0,
      query: { range: { n: { gte: 1 } } },
      min_score: 0,
    });
    expect(counted.json.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(counted.json.terminated_early).toBe(true);
    const untracked = await search({ terminate_after: 2, track_total_hits: false });
    expect('total' in untracked.json.hits).toBe(false);
    expect(untracked.json.hits.max_score).toBe(1);
    expect(untracked.json.hits.hits).toHaveLength(2);
  });

  it('aggregates the docs before the stop, those the post_filter drops included', async () => {
    const r = await search({
      terminate_after: 2,
      post_filter: even,
      aggs: { tags: { terms: { field: 'tag' } } },
    });
    // 2 and 4 qualify; 6 would be the third: the aggregations see 1..5.
    expect(r.json.aggregations.tags.buckets).toEqual([
      { key: 'odd', doc_count: 3 },
      { key: 'even', doc_count: 2 },
    ]);
  });

  it('is true when any shard stopped', async () => {
    const perShard = await Promise.all(
      ['0', '1'].map(async (s) => (await search({}, `/ta2/_count?preference=_shards:${s}`)).json.count),
    );
    const r = await search({ terminate_after: 4 }, '/ta2/_search');
    expect(r.json.terminated_early).toBe(perShard.some((n: number) => n > 4));
    const wide = await search({ terminate_after: 100 }, '/ta2/_search');
    expect(wide.json.terminated_early).toBe(false);
  });

  it('applies to a point-in-time search', async () => {
    const pit = await http(node.url, 'POST', '/ta/_pit?keep_alive=1m');
    expect(pit.status).toBe(200);
    const r = await http(node.url, 'POST', '/_search', {
      pit: { id: pit.json.id },
      terminate_after: 3,
      sort: [{ n: 'desc' }],
    });
    expect(r.status).toBe(200);
    expect(r.json.terminated_early).toBe(true);
    expect(ids(r)).toEqual(['3', '2', '1']);
    await http(node.url, 'DELETE', '/_pit', { id: pit.json.id });
  });

  it('refuses it with a scroll or with collapse', async () => {
    const r = await search({ terminate_after: 3 }, '/ta/_search?scroll=1m');
    expect(r.status).toBe(501);
    const collapsed = await search({ terminate_after: 3, collapse: { field: 'tag' } });
    expect(collapsed.status).toBe(501);
  });
});
