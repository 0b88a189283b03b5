import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson, rawHttp } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const NDJSON = { 'content-type': 'application/x-ndjson' };

beforeAll(async () => {
  node = await startTestNode();
  expect((await http(node.url, 'PUT', '/v', { settings: { number_of_shards: 2 } })).status).toBe(200);
  const lines = [1, 2, 3].flatMap((n) => [{ index: { _id: String(n) } }, { n }]);
  expect((await http(node.url, 'POST', '/v/_bulk?refresh=true', ndjson(lines), NDJSON)).json.errors).toBe(
    false,
  );
});
afterAll(async () => {
  await node?.stop();
});

function refused(r: Awaited<ReturnType<typeof http>>, reason: string): void {
  expect(r.status).toBe(400);
  expect(r.json.error.root_cause[0]).toEqual({ type: 'illegal_argument_exception', reason });
  expect(r.json.error.type).toBe('illegal_argument_exception');
}

describe('search_type', () => {
  it('accepts query_then_fetch and dfs_query_then_fetch on every kind of search', async () => {
    for (const t of ['query_then_fetch', 'dfs_query_then_fetch']) {
      const plain = await http(node.url, 'GET', `/v/_search?search_type=${t}`);
      expect(plain.json.hits.total.value).toBe(3);
      const scroll = await http(node.url, 'POST', `/v/_search?search_type=${t}&scroll=1m&size=1`, {});
      expect(scroll.status).toBe(200);
      await http(node.url, 'DELETE', '/_search/scroll', { scroll_id: scroll.json._scroll_id });
    }
  });

  it('refuses any other with SearchType.fromString’s reason: plain, scroll and PIT searches', async () => {
    const pit = await http(node.url, 'POST', '/v/_pit?keep_alive=1m');
    for (const t of ['query_and_fetch', 'dfs_query_and_fetch', 'scan', 'count', 'foo']) {
      refused(await http(node.url, 'GET', `/_search?search_type=${t}`), `No search type for [${t}]`);
      refused(await http(node.url, 'POST', `/v/_search?search_type=${t}`, {}), `No search type for [${t}]`);
      refused(
        await http(node.url, 'POST', `/v/_search?search_type=${t}&scroll=1m`, {}),
        `No search type for [${t}]`,
      );
      refused(
        await http(node.url, 'POST', `/_search?search_type=${t}`, { pit: { id: pit.json.id } }),
        `No search type for [${t}]`,
      );
    }
    await http(node.url, 'DELETE', '/_pit', { id: pit.json.id });
  });
});

describe('SearchRequest limits given as URL parameters', () => {
  it('refuses pre_filter_shard_size below 1', async () => {
    refused(
      await http(node.url, 'GET', '/v/_search?pre_filter_shard_size=0'),
      'preFilterShardSize must be >= 1',
    );
    expect((await http(node.url, 'GET', '/v/_search?pre_filter_shard_size=1')).status).toBe(200);
  });

  it('refuses max_concurrent_shard_requests below 1 and batched_reduce_size below 2', async () => {
    refused(
      await http(node.url, 'GET', '/v/_search?max_concurrent_shard_requests=0'),
      'maxConcurrentShardRequests must be >= 1',
    );
    refused(
      await http(node.url, 'GET', '/v/_search?batched_reduce_size=1'),
      'batchedReduceSize must be >= 2',
    );
    const ok = await http(
      node.url,
      'GET',
      '/v/_search?max_concurrent_shard_requests=1&batched_reduce_size=2',
    );
    expect(ok.json.hits.total.value).toBe(3);
  });
});

describe('_bulk whose last action has no source line', () => {
  it('drops a final index, create or update action, and runs the others', async () => {
    for (const action of ['index', 'create', 'update']) {
      const text = `{"index":{"_id":"a"}}\n{"n":10}\n{"${action}":{"_id":"b"}}\n`;
      const r = await rawHttp(node.url, 'POST', '/v/_bulk?refresh=true', text, NDJSON);
      expect(r.status).toBe(200);
      expect(r.json.items.map((i: Record<string, { _id: string }>) => Object.keys(i)[0])).toEqual(['index']);
    }
    expect((await http(node.url, 'GET', '/v/_doc/b')).status).toBe(404);
  });

  it('answers no requests added when that action was the only one', async () => {
    const r = await rawHttp(node.url, 'POST', '/v/_bulk', '{"index":{"_id":"c"}}\n', NDJSON);
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('action_request_validation_exception');
    expect(r.json.error.reason).toBe('Validation Failed: 1: no requests added;');
  });

  it('runs a final delete, which needs no source line', async () => {
    const text = '{"index":{"_id":"d"}}\n{"n":11}\n{"delete":{"_id":"d"}}\n';
    const r = await rawHttp(node.url, 'POST', '/v/_bulk', text, NDJSON);
    expect(r.status).toBe(200);
    expect(r.json.items.map((i: Record<string, { result: string }>) => Object.values(i)[0]!.result)).toEqual([
      'created',
      'deleted',
    ]);
  });

  it('still refuses bytes after the last newline', async () => {
    const r = await rawHttp(node.url, 'POST', '/v/_bulk', '{"index":{"_id":"e"}}\n{"n":12}', NDJSON);
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('The bulk request must be terminated by a newline [\\n]');
  });
});
