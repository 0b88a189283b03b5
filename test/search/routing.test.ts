import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRoutingNumShards, shardForRouting } from '../../packages/protocol/src/index.ts';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const SHARDS = 4;
const ROUTINGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
// An index created without index.number_of_routing_shards gets the default for its shard count.
const routingNumShards = defaultRoutingNumShards(SHARDS);

/** Every document, with the routing value it was indexed with. */
const docs = ROUTINGS.flatMap((routing) => [1, 2, 3].map((i) => ({ id: `${routing}-${i}`, routing, n: i })));

const shardOf = (routing: string) => shardForRouting(routing, SHARDS, routingNumShards);
/** The ids a search routed by `values` must see: every document on the shards they hash to. */
const idsOnShardsOf = (values: string[]) => {
  const shards = new Set(values.map(shardOf));
  return docs
    .filter((d) => shards.has(shardOf(d.routing)))
    .map((d) => d.id)
    .sort();
};
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id).sort();

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/routed', {
    settings: { number_of_shards: SHARDS },
    mappings: { properties: { routing: { type: 'keyword' }, n: { type: 'long' } } },
  });
  expect(created.status).toBe(200);
  const lines = docs.flatMap(({ id, routing, n }) => [{ index: { _id: id, routing } }, { routing, n }]);
  const bulk = await http(node.url, 'POST', '/routed/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
  // The routing values must spread over more than one shard for the tests to mean anything.
  expect(new Set(ROUTINGS.map(shardOf)).size).toBeGreaterThan(1);
});
afterAll(async () => {
  await node?.stop();
});

describe('search and count with ?routing=', () => {
  it('searches only the shard a routing value hashes to', async () => {
    for (const routing of ROUTINGS.slice(0, 3)) {
      const r = await http(node.url, 'GET', `/routed/_search?routing=${routing}&size=100`);
      expect(r.status).toBe(200);
      expect(r.json._shards).toEqual({ total: 1, successful: 1, skipped: 0, failed: 0 });
      expect(ids(r)).toEqual(idsOnShardsOf([routing]));
      expect(r.json.hits.total).toEqual({ value: idsOnShardsOf([routing]).length, relation: 'eq' });
    }
  });

  it('searches the union of the shards of comma-separated routing values', async () => {
    const values = ['alpha', 'beta', 'gamma'];
    const shards = new Set(values.map(shardOf)).size;
    const r = await http(node.url, 'POST', `/routed/_search?routing=${values.join(',')}`, {
      size: 100,
      query: { range: { n: { gte: 2 } } },
    });
    expect(r.json._shards.total).toBe(shards);
    const expected = idsOnShardsOf(values).filter((id) => !id.endsWith('-1'));
    expect(ids(r)).toEqual(expected);
  });

  it('counts only the routed shards', async () => {
    const r = await http(node.url, 'GET', '/routed/_count?routing=delta');
    expect(r.json).toEqual({
      count: idsOnShardsOf(['delta']).length,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    });
    const both = await http(node.url, 'POST', '/routed/_count?routing=delta,eta', {
      query: { term: { routing: 'eta' } },
    });
    expect(both.json.count).toBe(3);
    expect(both.json._shards.total).toBe(new Set(['delta', 'eta'].map(shardOf)).size);
    const all = await http(node.url, 'GET', '/routed/_count');
    expect(all.json).toMatchObject({ count: docs.length, _shards: { total: SHARDS } });
  });

  it('keeps a scroll opened with routing on the routed shards', async () => {
    const first = await http(node.url, 'GET', '/routed/_search?routing=zeta&scroll=1m&size=2&sort=_doc');
    expect(first.json._shards.total).toBe(1);
    const seen = ids(first);
    let scrollId = first.json._scroll_id;
    for (;;) {
      const next = await http(node.url, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: scrollId });
      expect(next.json._shards.total).toBe(1);
      if (next.json.hits.hits.length === 0) break;
      seen.push(...ids(next));
      scrollId = next.json._scroll_id;
    }
    expect(seen.sort()).toEqual(idsOnShardsOf(['zeta']));
    await http(node.url, 'DELETE', '/_search/scroll', { scroll_id: scrollId });
  });

  it('opens a point in time on the routed shards only', async () => {
    const opened = await http(node.url, 'POST', '/routed/_pit?keep_alive=1m&routing=theta');
    expect(opened.json._shards.total).toBe(1);
    const r = await http(node.url, 'POST', '/_search', { size: 100, pit: { id: opened.json.id } });
    expect(r.json._shards.total).toBe(1);
    expect(ids(r)).toEqual(idsOnShardsOf(['theta']));
    await http(node.url, 'DELETE', '/_pit', { id: opened.json.id });
  });

  it('still refuses routing on a point-in-time search', async () => {
    const r = await http(node.url, 'POST', '/_search?routing=alpha', { pit: { id: 'x' } });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('action_request_validation_exception');
    expect(r.json.error.reason).toContain('[routing] cannot be used with point in time');
  });

  it('rejects routing in the search body, which is a URL parameter', async () => {
    const r = await http(node.url, 'POST', '/routed/_search', { routing: 'alpha' });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('parsing_exception');
    expect(r.json.error.reason).toBe('Unknown key for a VALUE_STRING in [routing].');
  });
});

describe('search and count with ?preference=_shards:', () => {
  const idsOnShards = (shards: number[]) =>
    docs
      .filter((d) => shards.includes(shardOf(d.routing)))
      .map((d) => d.id)
      .sort();

  it('searches and counts only the shards it names', async () => {
    const r = await http(node.url, 'GET', '/routed/_search?preference=_shards:0,2&size=100');
    expect(r.status).toBe(200);
    expect(r.json._shards).toEqual({ total: 2, successful: 2, skipped: 0, failed: 0 });
    expect(ids(r)).toEqual(idsOnShards([0, 2]));
    const c = await http(node.url, 'GET', '/routed/_count?preference=_shards:3|_local');
    expect(c.json).toEqual({
      count: idsOnShards([3]).length,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    });
  });

  it('keeps every shard for the other preferences and a custom string', async () => {
    for (const p of ['_local', '_only_local', 'my-session']) {
      const r = await http(node.url, 'GET', `/routed/_search?preference=${p}&size=0`);
      expect(r.json._shards.total).toBe(SHARDS);
    }
  });

  it('refuses an unknown kind and a shard number that is not an integer', async () => {
    const kind = await http(node.url, 'GET', '/routed/_search?preference=_xyz');
    expect(kind.status).toBe(400);
    expect(kind.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'no Preference for [_xyz]',
    });
    const after = await http(node.url, 'GET', '/routed/_search?preference=_shards:0|_xyz');
    expect(after.json.error.reason).toBe('no Preference for [_xyz]');
    const nan = await http(node.url, 'GET', '/routed/_search?preference=_shards:a');
    expect(nan.status).toBe(400);
    expect(nan.json.error).toMatchObject({
      type: 'number_format_exception',
      reason: 'For input string: "a"',
    });
  });
});
