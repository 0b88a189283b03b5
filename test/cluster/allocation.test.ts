/**
 * Shard allocation on three real node processes: the master spreads primaries and replicas
 * over the data nodes (never a primary and its replica on one node, the same number of copies
 * on each), each node opens the copies it is given, and health, `_cat/shards` and the cluster
 * state's routing table say so on every node. A document indexed through one node is read and
 * searched through every other, on whichever node holds its primary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http } from '../support/http.ts';
import type { TestNode } from '../support/node-process.ts';

let cluster: TestCluster;
let urls: string[];
/** A node started again in the last test, stopped after the others. */
let restarted: TestNode | undefined;

beforeAll(async () => {
  cluster = await startTestCluster({ nodes: 3 });
  urls = cluster.nodes.map((n) => n.url);
  await agreedMaster(cluster.nodes, 3);
}, 120_000);

afterAll(async () => {
  await restarted?.stop();
  await cluster?.stop();
});

interface CatShard {
  index: string;
  shard: string;
  prirep: string;
  state: string;
  node: string | null;
  docs: string | null;
}

describe('allocation over three nodes', () => {
  it('spreads three primaries and their replicas over the three nodes, and goes green', async () => {
    const r = await http(urls[1]!, 'PUT', '/spread', {
      settings: { number_of_shards: 3, number_of_replicas: 1 },
    });
    expect(r.status).toBe(200);
    const health = await http(urls[2]!, 'GET', '/_cluster/health/spread?wait_for_status=green&timeout=30s');
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({
      status: 'green',
      timed_out: false,
      number_of_nodes: 3,
      number_of_data_nodes: 3,
      active_primary_shards: 3,
      active_shards: 6,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 0,
    });
    // Every node shows the same table: no shard has both copies on one node, each node a copy.
    for (const url of urls) {
      const rows = (await http(url, 'GET', '/_cat/shards/spread?format=json')).json as CatShard[];
      expect(rows).toHaveLength(6);
      expect(rows.every((x) => x.state === 'STARTED')).toBe(true);
      for (const shard of ['0', '1', '2']) {
        const copies = rows.filter((x) => x.shard === shard);
        expect(copies.map((x) => x.prirep).sort()).toEqual(['p', 'r']);
        expect(new Set(copies.map((x) => x.node)).size).toBe(2);
      }
      expect([...new Set(rows.map((x) => x.node))].sort()).toEqual(cluster.names);
    }
    const state = (await http(urls[0]!, 'GET', '/_cluster/state/routing_table,routing_nodes,nodes/spread'))
      .json;
    const shard0 = state.routing_table.indices.spread.shards['0'];
    expect(shard0).toHaveLength(2);
    expect(shard0[0]).toMatchObject({ state: 'STARTED', primary: true, shard: 0, index: 'spread' });
    expect(Object.keys(state.nodes)).toContain(shard0[0].node);
    expect(shard0[0].allocation_id.id).not.toBe(shard0[1].allocation_id.id);
    expect(state.routing_nodes.unassigned).toEqual([]);
    // Balanced by shard count over every index (the security index too): within one copy.
    const held = Object.values(state.routing_nodes.nodes as Record<string, unknown[]>).map((l) => l.length);
    expect(held).toHaveLength(3);
    expect(Math.max(...held) - Math.min(...held)).toBeLessThanOrEqual(1);
  });

  it('leaves the replicas no node can take unassigned, and is yellow', async () => {
    const r = await http(urls[0]!, 'PUT', '/wide', {
      settings: { number_of_shards: 1, number_of_replicas: 3 },
    });
    expect(r.status).toBe(200);
    const health = await http(urls[1]!, 'GET', '/_cluster/health/wide?wait_for_status=yellow&timeout=30s');
    expect(health.json).toMatchObject({ status: 'yellow' });
    const settled = await http(
      urls[1]!,
      'GET',
      '/_cluster/health/wide?wait_for_active_shards=3&wait_for_no_initializing_shards=true&timeout=30s',
    );
    expect(settled.json).toMatchObject({ status: 'yellow', active_shards: 3, unassigned_shards: 1 });
    // Asking for green in a short time: not met, 408 with timed_out.
    const timedOut = await http(urls[2]!, 'GET', '/_cluster/health/wide?wait_for_status=green&timeout=200ms');
    expect(timedOut.status).toBe(408);
    expect(timedOut.json.timed_out).toBe(true);
    const rows = (
      await http(urls[2]!, 'GET', '/_cat/shards/wide?format=json&h=prirep,state,unassigned.reason')
    ).json as Record<string, string>[];
    expect(rows.filter((x) => x.state === 'UNASSIGNED')).toEqual([
      { prirep: 'r', state: 'UNASSIGNED', 'unassigned.reason': 'INDEX_CREATED' },
    ]);
  });

  it('writes, reads and searches documents through any node, wherever their primaries are', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 30; i++)
      lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i }));
    const bulk = await http(urls[0]!, 'POST', '/spread/_bulk?refresh=true', `${lines.join('\n')}\n`, {
      'content-type': 'application/x-ndjson',
    });
    expect(bulk.status).toBe(200);
    expect(bulk.json.errors).toBe(false);
    for (const url of urls) {
      const got = await http(url, 'GET', '/spread/_doc/17');
      expect(got.json).toMatchObject({ found: true, _source: { n: 17 } });
      const found = await http(url, 'POST', '/spread/_search', {
        size: 100,
        query: { range: { n: { gte: 10 } } },
      });
      expect(found.status).toBe(200);
      expect(found.json._shards).toMatchObject({ total: 3, successful: 3, failed: 0 });
      expect(found.json.hits.total.value).toBe(20);
      expect(
        found.json.hits.hits.map((h: { _id: string }) => Number(h._id)).sort((a: number, b: number) => a - b),
      ).toEqual(Array.from({ length: 20 }, (_, i) => i + 10));
      expect((await http(url, 'GET', '/spread/_count')).json.count).toBe(30);
      // _cat/shards counts each primary's documents on the node that holds it.
      const rows = (await http(url, 'GET', '/_cat/shards/spread?format=json&h=prirep,docs'))
        .json as CatShard[];
      expect(rows.filter((x) => x.prirep === 'p').reduce((n, x) => n + Number(x.docs), 0)).toBe(30);
    }
    // A reader context on another node's copy is not there yet: a clear refusal, not a wrong answer.
    const pit = await http(urls[0]!, 'POST', '/spread/_pit?keep_alive=1m');
    expect(pit.status).toBe(501);
    expect(JSON.stringify(pit.json.error)).toContain('whose primary is on another node');
  });

  it('waits for a node that held a primary with no replica, and reopens the copy from its disk when it is back', async () => {
    const r = await http(urls[0]!, 'PUT', '/lonely', {
      settings: { number_of_shards: 6, number_of_replicas: 0 },
    });
    expect(r.status).toBe(200);
    const lines: string[] = [];
    for (let i = 0; i < 30; i++)
      lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i }));
    const bulk = await http(urls[0]!, 'POST', '/lonely/_bulk?refresh=true', `${lines.join('\n')}\n`, {
      'content-type': 'application/x-ndjson',
    });
    expect(bulk.json.errors).toBe(false);
    // A node that is not the master and holds no copy of the security index.
    const master = (await http(urls[0]!, 'GET', '/_cat/master?format=json')).json[0].node as string;
    const security = (await http(urls[0]!, 'GET', '/_cat/shards/.security-7?format=json&h=node'))
      .json as CatShard[];
    const busy = new Set([master, ...security.map((x) => x.node)]);
    const victimIndex = cluster.names.findIndex((n) => !busy.has(n));
    expect(victimIndex).toBeGreaterThanOrEqual(0);
    const victim = cluster.nodes[victimIndex]!;
    const witness = urls[(victimIndex + 1) % 3]!;
    const lonely = (await http(witness, 'GET', '/_cat/shards/lonely?format=json&h=node')).json as CatShard[];
    const lost = lonely.filter((x) => x.node === cluster.names[victimIndex]).length;
    expect(lost).toBeGreaterThan(0);
    await victim.kill();
    const red = await eventually('[lonely] to go red', async () => {
      const h = (await http(witness, 'GET', '/_cluster/health/lonely')).json;
      return h.status === 'red' ? h : undefined;
    });
    expect(red).toMatchObject({
      number_of_nodes: 2,
      active_primary_shards: 6 - lost,
      unassigned_shards: lost,
    });
    const rows = (await http(witness, 'GET', '/_cat/shards/lonely?format=json&h=state,unassigned.reason'))
      .json;
    expect(rows).toContainEqual({ state: 'UNASSIGNED', 'unassigned.reason': 'NODE_LEFT' });
    restarted = await victim.restart();
    const green = await http(witness, 'GET', '/_cluster/health/lonely?wait_for_status=green&timeout=30s');
    expect(green.json).toMatchObject({ status: 'green', number_of_nodes: 3, active_primary_shards: 6 });
    for (const url of [witness, restarted.url]) {
      expect((await http(url, 'GET', '/lonely/_count')).json.count).toBe(30);
    }
  });
});
