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
  it('fails its shard copies, never answers from an empty shard, and recovers them from disk', async () => {
    await http(node.url, 'PUT', '/fragile', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    const lines = Array.from({ length: 100 }, (_, i) => [{ index: { _id: String(i) } }, { i }]).flat();
    expect((await http(node.url, 'POST', '/fragile/_bulk', ndjson(lines))).json.errors).toBe(false);

    const shardsBefore = await http(node.url, 'GET', '/_cat/shards/fragile?format=json&h=shard,state,worker');
    const onWorker0 = shardsBefore.json.filter((r: { worker: string }) => r.worker === '0');
    expect(onWorker0).toHaveLength(1);
    const crash = await http(node.url, 'POST', '/_internal/shard_worker/0/_crash');
    expect(crash.status).toBe(200);

    // The copy is failed (in the log, and never served empty), then re-opened from its commit
    // and translog on the worker's replacement thread.
    const failedLine = () => node.logs.find((l) => String(l.msg).startsWith('shard worker died'));
    const recoveredLine = () =>
      node.logs.find(
        (l) => l.msg === 'shard recovered from disk after its worker died' && l.index === 'fragile',
      );
    for (let i = 0; i < 100 && !(failedLine() && recoveredLine()); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(failedLine()).toMatchObject({ level: 50 });
    expect(recoveredLine()).toMatchObject({ index: 'fragile', shard: Number(onWorker0[0].shard) });

    const shards = await http(node.url, 'GET', '/_cat/shards/fragile?format=json&h=shard,state');
    expect(shards.json.map((r: { state: string }) => r.state)).toEqual(['STARTED', 'STARTED']);
    await http(node.url, 'POST', '/fragile/_refresh');
    const search = await http(node.url, 'POST', '/fragile/_count');
    expect(search.json).toMatchObject({ count: 100, _shards: { successful: 2, failed: 0 } });
    expect((await http(node.url, 'GET', '/_cluster/health/fragile')).json.status).toBe('green');
    // And it takes writes again.
    expect((await http(node.url, 'POST', '/fragile/_bulk?refresh=true', ndjson(lines))).json.errors).toBe(
      false,
    );
  });
});
