import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ workers: 2, env: { SHOAL_FAULT_INJECTION: '1' } });
});
afterAll(async () => {
  await node?.stop();
});

describe('a shard worker thread that dies', () => {
  it('marks its shard copies failed instead of answering from an empty shard', async () => {
    await http(node.url, 'PUT', '/fragile', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    const lines = Array.from({ length: 100 }, (_, i) => [{ index: { _id: String(i) } }, { i }]).flat();
    expect((await http(node.url, 'POST', '/fragile/_bulk?refresh=true', ndjson(lines))).json.errors).toBe(
      false,
    );

    const shardsBefore = await http(node.url, 'GET', '/_cat/shards/fragile?format=json&h=shard,state,worker');
    const onWorker0 = shardsBefore.json.filter((r: { worker: string }) => r.worker === '0');
    expect(onWorker0).toHaveLength(1);
    const crash = await http(node.url, 'POST', '/_internal/shard_worker/0/_crash');
    expect(crash.status).toBe(200);

    let shards = await http(node.url, 'GET', '/_cat/shards/fragile?format=json&h=shard,state');
    for (let i = 0; i < 50 && !shards.json.some((r: { state: string }) => r.state === 'FAILED'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      shards = await http(node.url, 'GET', '/_cat/shards/fragile?format=json&h=shard,state');
    }
    expect(shards.json.map((r: { state: string }) => r.state).sort()).toEqual(['FAILED', 'STARTED']);

    const search = await http(node.url, 'POST', '/fragile/_search', { size: 0 });
    expect(search.status).toBe(200);
    expect(search.json._shards).toMatchObject({ total: 2, successful: 1, failed: 1 });
    expect(search.json._shards.failures[0].reason.type).toBe('no_shard_available_action_exception');
    expect(search.json.hits.total.value).toBeLessThan(100);

    const health = await http(node.url, 'GET', '/_cluster/health');
    expect(health.json.status).toBe('red');
  });
});
