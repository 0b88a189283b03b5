/**
 * Document and index API details from Elasticsearch's REST suites (get/90_versions,
 * update/40_routing and 60_refresh, bulk/10_basic, mget source filtering, search ids past the
 * result window, index.mode).
 */
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

describe('GET with a version', () => {
  it('answers 409 when the version is not the current one', async () => {
    await http(node.url, 'PUT', '/versions/_doc/1', { foo: 'bar' });
    await http(node.url, 'PUT', '/versions/_doc/1', { foo: 'bar' });
    expect((await http(node.url, 'GET', '/versions/_doc/1?version=2')).status).toBe(200);
    const stale = await http(node.url, 'GET', '/versions/_doc/1?version=1');
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({
      type: 'version_conflict_engine_exception',
      reason: '[1]: version conflict, current version [2] is different than the one provided [1]',
      index: 'versions',
    });
    const ext = await http(node.url, 'GET', '/versions/_doc/1?version=10&version_type=external');
    expect(ext.status).toBe(409);
    expect((await http(node.url, 'GET', '/versions/_doc/1?version=2&version_type=external_gte')).status).toBe(
      200,
    );
  });
});

describe('_update', () => {
  it('honours routing', async () => {
    await http(node.url, 'PUT', '/routed', {
      settings: { number_of_shards: 5, number_of_routing_shards: 5, number_of_replicas: 0 },
    });
    const up = await http(node.url, 'POST', '/routed/_update/1?routing=5', {
      doc: { foo: 'baz' },
      upsert: { foo: 'bar' },
    });
    expect(up.status).toBe(201);
    const got = await http(node.url, 'GET', '/routed/_doc/1?routing=5&stored_fields=_routing');
    expect(got.json._routing).toBe('5');
    const missing = await http(node.url, 'POST', '/routed/_update/1', { doc: { foo: 'baz' } });
    expect(missing.status).toBe(404);
    const filtered = await http(node.url, 'POST', '/routed/_update/1?routing=5&_source=foo', {
      doc: { foo: 'baz' },
    });
    expect(filtered.json.get._source.foo).toBe('baz');
  });

  it('reports forced_refresh', async () => {
    await http(node.url, 'PUT', '/refreshing', { settings: { 'index.refresh_interval': -1 } });
    const plain = await http(node.url, 'POST', '/refreshing/_update/1', {
      doc: { foo: 'baz' },
      upsert: { foo: 'bar' },
    });
    expect(plain.json).not.toHaveProperty('forced_refresh');
    const forced = await http(node.url, 'POST', '/refreshing/_update/2?refresh=true', {
      doc: { foo: 'baz' },
      upsert: { foo: 'bar' },
    });
    expect(forced.json.forced_refresh).toBe(true);
    const empty = await http(node.url, 'POST', '/refreshing/_update/2?refresh=', { doc: { cat: 'dog' } });
    expect(empty.json.forced_refresh).toBe(true);
    const count = await http(node.url, 'POST', '/refreshing/_count', { query: { term: { cat: 'dog' } } });
    expect(count.json.count).toBe(1);
  });
});

describe('_bulk', () => {
  it('refuses an empty _id and gives op_type create without an id an automatic one', async () => {
    const res = await http(
      node.url,
      'POST',
      '/_bulk?refresh=true',
      ndjson([
        { index: { _index: 'emptyid', _id: '' } },
        { f: 1 },
        { index: { _index: 'emptyid', _id: 'id' } },
        { f: 2 },
        { index: { _index: 'emptyid' } },
        { f: 3 },
        { create: { _index: 'emptyid' } },
        { f: 4 },
        { index: { _index: 'emptyid', op_type: 'create' } },
        { f: 5 },
      ]),
      { 'content-type': 'application/x-ndjson' },
    );
    expect(res.json.errors).toBe(true);
    expect(res.json.items[0].index).toMatchObject({
      status: 400,
      error: { type: 'illegal_argument_exception', reason: 'if _id is specified it must not be empty' },
    });
    expect(res.json.items[1].index.result).toBe('created');
    expect(res.json.items[2].index.result).toBe('created');
    expect(res.json.items[3].create.result).toBe('created');
    expect(res.json.items[4].create.result).toBe('created');
    const count = await http(node.url, 'GET', '/emptyid/_count');
    expect(count.json.count).toBe(4);
  });
});

describe('_mget source filtering', () => {
  it('includes fields inside objects', async () => {
    await http(node.url, 'PUT', '/mg/_doc/1', { include: { field1: 'v1', field2: 'v2' }, count: 1 });
    const res = await http(node.url, 'POST', '/mg/_mget', {
      docs: [
        { _id: '1', _source: 'include.field1' },
        { _id: '1', _source: { includes: ['include.field2'] } },
        { _id: '1', _source: ['include.field1', 'count'] },
      ],
    });
    expect(res.json.docs.map((d: { _source: unknown }) => d._source)).toEqual([
      { include: { field1: 'v1' } },
      { include: { field2: 'v2' } },
      { include: { field1: 'v1' }, count: 1 },
    ]);
  });
});

describe('ids beyond the result window', () => {
  it('is refused as any search past index.max_result_window', async () => {
    await http(node.url, 'PUT', '/window', { settings: { 'index.max_result_window': 5 } });
    const res = await http(node.url, 'POST', '/window/_search', {
      from: 0,
      size: 10,
      query: { ids: { values: ['1'] } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('search_phase_execution_exception');
    expect(res.json.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(res.json.error.root_cause[0].reason).toContain(
      'Result window is too large, from + size must be less than or equal to: [5] but was [10].',
    );
  });
});

describe('index.mode', () => {
  it('answers 400 for a mode Shoal does not have', async () => {
    const res = await http(node.url, 'PUT', '/tsdb', { settings: { 'index.mode': 'time_series' } });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('illegal_argument_exception');
    const bad = await http(node.url, 'PUT', '/badmode', { settings: { 'index.mode': 'nope' } });
    expect(bad.status).toBe(400);
    const std = await http(node.url, 'PUT', '/stdmode', { settings: { 'index.mode': 'standard' } });
    expect(std.status).toBe(200);
  });
});

describe('_close and _open', () => {
  it('a closed index refuses reads and writes until it is opened again', async () => {
    await http(node.url, 'PUT', '/shut/_doc/1?refresh=true', { a: 1 });
    const closed = await http(node.url, 'POST', '/shut/_close?wait_for_active_shards=all');
    expect(closed.status).toBe(200);
    expect(closed.json).toEqual({
      acknowledged: true,
      shards_acknowledged: true,
      indices: { shut: { closed: true } },
    });
    for (const [method, path, body] of [
      ['GET', '/shut/_doc/1', undefined],
      ['PUT', '/shut/_doc/2', { a: 2 }],
      ['POST', '/shut/_search', {}],
    ] as const) {
      const res = await http(node.url, method, path, body);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        type: 'index_closed_exception',
        reason: 'closed',
        index: 'shut',
      });
    }
    const bulk = await http(
      node.url,
      'POST',
      '/_bulk',
      ndjson([{ index: { _index: 'shut', _id: '3' } }, { a: 3 }]),
      {
        'content-type': 'application/x-ndjson',
      },
    );
    expect(bulk.json.items[0].index.error.type).toBe('index_closed_exception');
    const skipped = await http(node.url, 'POST', '/shut/_search?ignore_unavailable=true', {});
    expect(skipped.status).toBe(200);
    expect(skipped.json.hits.total.value).toBe(0);
    const mapping = await http(node.url, 'GET', '/shut/_mapping');
    expect(mapping.status).toBe(200);
    const opened = await http(node.url, 'POST', '/shut/_open');
    expect(opened.json).toEqual({ acknowledged: true, shards_acknowledged: true });
    const got = await http(node.url, 'GET', '/shut/_doc/1');
    expect(got.json._source).toEqual({ a: 1 });
  });
});
