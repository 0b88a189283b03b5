import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/ms', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { tag: { type: 'keyword' }, n: { type: 'long' } } },
  });
  expect(created.status).toBe(200);
  const docs = [['a', 'b'], ['a'], ['b'], ['a', 'b'], ['c'], ['a']];
  const lines = docs.flatMap((tag, i) => [{ index: { _id: String(i + 1) } }, { tag, n: i + 1 }]);
  const bulk = await http(node.url, 'POST', '/ms/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

// a and b score 3, a alone 2, b alone 1, c 0 (not a hit).
const query = {
  bool: {
    should: [
      { constant_score: { filter: { term: { tag: 'a' } }, boost: 2 } },
      { constant_score: { filter: { term: { tag: 'b' } }, boost: 1 } },
    ],
  },
};
const search = (body: unknown, path = '/ms/_search') => http(node.url, 'POST', path, body);
const hits = (r: { json: { hits: { hits: { _id: string; _score: number | null }[] } } }) =>
  r.json.hits.hits.map((h) => [h._id, h._score]);

describe('min_score', () => {
  it('leaves out the hits below it, from the hits and from the total', async () => {
    const r = await search({ query, min_score: 2 });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toEqual({ value: 4, relation: 'eq' });
    expect(hits(r)).toEqual([
      ['1', 3],
      ['4', 3],
      ['2', 2],
      ['6', 2],
    ]);
    expect(r.json.hits.max_score).toBe(3);
    const none = await search({ query, min_score: 3.5 });
    expect(none.json.hits.total.value).toBe(0);
    expect(none.json.hits.max_score).toBe(null);
  });

  it('filters by score when the hits are sorted by a field', async () => {
    const r = await search({ query, min_score: 2.5, sort: [{ n: 'desc' }] });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['4', '1']);
    expect(r.json.hits.hits[0]._score).toBe(null);
  });

  it('leaves them out of the aggregations too, with or without a post_filter', async () => {
    const r = await search({ query, min_score: 2, size: 0, aggs: { tags: { terms: { field: 'tag' } } } });
    expect(r.json.aggregations.tags.buckets).toEqual([
      { key: 'a', doc_count: 4 },
      { key: 'b', doc_count: 2 },
    ]);
    const post = await search({
      query,
      min_score: 2,
      post_filter: { term: { tag: 'b' } },
      aggs: { tags: { terms: { field: 'tag' } } },
    });
    expect(post.json.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['1', '4']);
    expect(post.json.aggregations.tags.buckets[0]).toEqual({ key: 'a', doc_count: 4 });
  });

  it('applies as a URL parameter of _count', async () => {
    const r = await search({ query }, '/ms/_count?min_score=2');
    expect(r.status).toBe(200);
    expect(r.json.count).toBe(4);
    const all = await search({ query }, '/ms/_count');
    expect(all.json).toEqual({ count: 5, _shards: { total: 2, successful: 2, skipped: 0, failed: 0 } });
    const minusOne = await search({ query }, '/ms/_count?min_score=-1');
    expect(minusOne.json.count).toBe(5);
  });
});

describe('terminate_after on _count', () => {
  it('counts at most that many docs on each shard and says whether a shard stopped', async () => {
    const shardCounts = await Promise.all(
      ['0', '1'].map(async (s) => (await search({}, `/ms/_count?preference=_shards:${s}`)).json.count),
    );
    const r = await search(undefined, '/ms/_count?terminate_after=1');
    expect(Object.keys(r.json)).toEqual(['terminated_early', 'count', '_shards']);
    expect(r.json.count).toBe(shardCounts.filter((n) => n > 0).length);
    expect(r.json.terminated_early).toBe(shardCounts.some((n) => n > 1));
    const wide = await search(undefined, '/ms/_count?terminate_after=100');
    expect(wide.json).toMatchObject({ terminated_early: false, count: 6 });
    const zero = await search(undefined, '/ms/_count?terminate_after=0');
    expect(zero.json.terminated_early).toBeUndefined();
  });
});
