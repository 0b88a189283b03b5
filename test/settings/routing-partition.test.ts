import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const reasonOf = (r: { json: { error: { reason: string } } }) => r.json.error.reason;
const routed = { _routing: { required: true } };

describe('_routing.required', () => {
  it('refuses writes and gets without a routing value', async () => {
    await http(node.url, 'PUT', '/needs-routing', { mappings: routed });
    const put = await http(node.url, 'PUT', '/needs-routing/_doc/1', { a: 1 });
    expect(put.status).toBe(400);
    expect(put.json.error).toMatchObject({
      type: 'routing_missing_exception',
      reason: 'routing is required for [needs-routing]/[1]',
      index: 'needs-routing',
    });
    expect((await http(node.url, 'PUT', '/needs-routing/_doc/1?routing=u1', { a: 1 })).status).toBe(201);
    expect((await http(node.url, 'GET', '/needs-routing/_doc/1')).json.error.type).toBe(
      'routing_missing_exception',
    );
    expect((await http(node.url, 'GET', '/needs-routing/_doc/1?routing=u1')).json.found).toBe(true);
    const bulk = await http(
      node.url,
      'POST',
      '/needs-routing/_bulk',
      ndjson([{ index: { _id: '2' } }, { a: 2 }, { index: { _id: '3', routing: 'u1' } }, { a: 3 }]),
    );
    expect(bulk.json.items[0].index.error.type).toBe('routing_missing_exception');
    expect(bulk.json.items[1].index.status).toBe(201);
  });
});

describe('index.routing_partition_size', () => {
  it('is checked against the shards and the mapping at creation', async () => {
    const big = await http(node.url, 'PUT', '/part-bad', {
      settings: { number_of_shards: 2, number_of_routing_shards: 2, routing_partition_size: 2 },
      mappings: routed,
    });
    expect(reasonOf(big)).toMatch(
      /^routing partition size \[2\] should be a positive number less than the number of routing shards \[2\] for \[\[part-bad\/[^\]]+\]\]$/,
    );
    const unrouted = await http(node.url, 'PUT', '/part-bad', {
      settings: { number_of_shards: 4, routing_partition_size: 2 },
      mappings: { properties: { a: { type: 'long' } } },
    });
    expect(reasonOf(unrouted)).toBe(
      'mapping type [_doc] must have routing required for partitioned index [part-bad]',
    );
  });

  it('spreads one routing value over a run of shards, and a routed search covers the run', async () => {
    const created = await http(node.url, 'PUT', '/part', {
      // As in Elasticsearch, the default number_of_routing_shards (768 for 6 shards) keeps
      // hash + 0..2 on one shard nearly always: spreading needs routing shards = shards.
      settings: { number_of_shards: 6, number_of_routing_shards: 6, routing_partition_size: 3 },
      mappings: routed,
    });
    expect(created.status).toBe(200);
    const lines = Array.from({ length: 60 }, (_, i) => [
      { index: { _id: String(i), routing: 'tenant-a' } },
      { n: i },
    ]).flat();
    lines.push({ index: { _id: 'b', routing: 'tenant-b' } }, { n: 100 });
    const bulk = await http(node.url, 'POST', '/part/_bulk?refresh=true', ndjson(lines));
    expect(bulk.json.errors).toBe(false);
    const shards = new Set(
      bulk.json.items.slice(0, 60).map((it: { index: { _shards: unknown; _id: string } }) => it.index._id),
    );
    expect(shards.size).toBe(60);
    // Every document of tenant-a is found by a search routed to tenant-a, and the run has 3 shards.
    const search = await http(node.url, 'POST', '/part/_search?routing=tenant-a&size=0', {
      query: { range: { n: { lt: 100 } } },
    });
    expect(search.json.hits.total.value).toBe(60);
    expect(search.json._shards.total).toBe(3);
    const counts = await http(node.url, 'GET', '/_cat/shards/part?format=json&h=shard,docs');
    const withDocs = counts.json.filter((r: { docs: string }) => Number(r.docs) > 0);
    expect(withDocs.length).toBeGreaterThan(1);
    expect((await http(node.url, 'GET', '/part/_doc/7?routing=tenant-a')).json.found).toBe(true);
  });
});
