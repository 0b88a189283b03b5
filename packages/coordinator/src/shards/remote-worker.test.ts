/**
 * One contract for a shard copy, whoever holds it: the same tasks run on a worker thread of
 * this node and, through a RemoteShardWorker, on "another node" (the transport replaced by a
 * loopback that hands the request bytes to the serving side, as the TCP transport delivers
 * them) give the same answers and the same errors.
 */
import type { ClusterService, DiscoveryNode } from '@shoal/cluster';
import { ShoalError } from '@shoal/protocol';
import { type ShardKey, ShardWorker, shardKey } from '@shoal/shard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteShardWorker, serveShardTasks } from './remote-worker.ts';
import { type ShardRunner, ShardTable } from './shard-table.ts';

const node: DiscoveryNode = {
  id: 'n2',
  name: 'node-2',
  ephemeralId: 'e2',
  host: '127.0.0.1',
  transportPort: 0,
  httpPort: 0,
  roles: ['data'],
};

/** The serving node's side of the transport, called in-process with copied bytes. */
function loopback(): ClusterService {
  const handlers = new Map<string, (from: DiscoveryNode, body: unknown, signal: AbortSignal) => unknown>();
  const fake = {
    local: node,
    handle(action: string, h: (from: DiscoveryNode, body: unknown, signal: AbortSignal) => unknown) {
      handlers.set(action, h);
    },
    async request(_to: DiscoveryNode, action: string, body: unknown) {
      const copy = Buffer.from(body as Uint8Array);
      const answer = await handlers.get(action)!(node, copy, new AbortController().signal);
      return Buffer.from(answer as Uint8Array);
    },
  };
  return fake as unknown as ClusterService;
}

let worker: ShardWorker;
let runners: Record<string, ShardRunner>;

beforeAll(() => {
  worker = new ShardWorker(0);
  const cluster = loopback();
  serveShardTasks(cluster, new ShardTable([worker]));
  runners = { 'a worker thread of this node': worker, 'another node': new RemoteShardWorker(node, cluster) };
});

afterAll(async () => {
  await worker.close();
});

function writeTask(key: ShardKey, docs: Record<string, unknown>) {
  const parts = Object.entries(docs).map(([id, d]) => ({ id, bytes: Buffer.from(JSON.stringify(d)) }));
  const all = Buffer.concat(parts.map((p) => p.bytes));
  let at = 0;
  const ops = parts.map((p) => {
    const body: [number, number] = [at, at + p.bytes.length];
    at += p.bytes.length;
    return { op: 'index' as const, id: p.id, body };
  });
  const bytes = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  return { t: 'write' as const, key, ops, bytes, refresh: 'true' as const };
}

describe.each(['a worker thread of this node', 'another node'])('a shard copy on %s', (where) => {
  const key = shardKey(where === 'another node' ? 'remote-uuid' : 'local-uuid', 0);

  it('opens, takes writes, and answers gets and stats as the worker does', async () => {
    const run = runners[where]!;
    // The copy is placed on the thread (as the node holding it does); the other node finds it by key.
    worker.shards.add(key);
    await run.run({
      t: 'open',
      key,
      index: 'books',
      indexUuid: key.split('/')[0]!,
      shardId: 0,
      mapping: { properties: { title: { type: 'text' } } },
      refreshIntervalMs: -1,
    });
    const written = await run.run(writeTask(key, { a: { title: 'Dune' }, b: { title: 'Emma' } }));
    expect(written).toBeDefined();
    const got = await run.run({ t: 'get', key, id: 'b', realtime: true });
    expect(got.found).toBe(true);
    expect(JSON.parse(Buffer.from(got.source!).toString())).toEqual({ title: 'Emma' });
    expect((await run.run({ t: 'get', key, id: 'zz', realtime: true })).found).toBe(false);
    const stats = await run.run({ t: 'stats', keys: [key] });
    expect(stats.shards[0]!.docs.count).toBe(2);
  });

  it('fails with the same error type for a task the copy refuses', async () => {
    const run = runners[where]!;
    const other = shardKey('nowhere', 3);
    const error = await run.run({ t: 'get', key: other, id: 'a', realtime: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShoalError);
    const local = await worker
      .run({ t: 'get', key: other, id: 'a', realtime: true })
      .catch((e: unknown) => e);
    if (where === 'a worker thread of this node') expect(error).toEqual(local);
    // The other node holds no such copy: it says so instead of running the task on any thread.
    else expect((error as ShoalError).type).toBe('no_shard_available_action_exception');
  });

  it('closes', async () => {
    await runners[where]!.run({ t: 'close', key });
    worker.shards.delete(key);
  });
});
