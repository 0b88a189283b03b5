/**
 * Indices and shards on three real node processes. Index metadata is in the published cluster
 * state: an index created, mapped, re-set, aliased and deleted through any node is a change the
 * master makes and publishes, and every node then shows the same metadata. The master spreads
 * primaries and replicas over the data nodes (never a primary and its replica on one node,
 * balanced by shard count), each node opens the copies it is given, and health, `_cat/shards`
 * and the routing table say so on every node; a document indexed through one node is read and
 * searched through every other, wherever its primary is. The last test kills a node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http } from '../support/http.ts';
import type { TestNode } from '../support/node-process.ts';

let cluster: TestCluster;
let urls: string[];
/** A node that is not the master, and the master. */
let follower: string;
let master: string;
/** A node started again in the last test, stopped after the others. */
let restarted: TestNode | undefined;

beforeAll(async () => {
  cluster = await startTestCluster({ nodes: 3 });
  urls = cluster.nodes.map((n) => n.url);
  const masterId = await agreedMaster(cluster.nodes, 3);
  const ids = await Promise.all(
    cluster.nodes.map(async (n) => Object.keys((await http(n.url, 'GET', '/_nodes/_local')).json.nodes)[0]),
  );
  master = cluster.nodes[ids.indexOf(masterId)]!.url;
  follower = cluster.nodes.find((_, i) => ids[i] !== masterId)!.url;
}, 120_000);

afterAll(async () => {
  await restarted?.stop();
  await cluster?.stop();
});

/** Every node's `metadata.indices[index]` from its own applied state. */
async function everyNodesMetadata(index: string): Promise<Record<string, unknown>[]> {
  return Promise.all(
    cluster.nodes.map(
      async (n) =>
        (await http(n.url, 'GET', `/_cluster/state/metadata/${index}`)).json.metadata.indices[index],
    ),
  );
}

describe('index metadata in the published cluster state', () => {
  it('creates an index through a node that is not the master, and every node shows it', async () => {
    const r = await http(follower, 'PUT', '/books', {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { properties: { title: { type: 'text' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'books' });
    // The node that asked answers once it has the index; the others follow the same state.
    const metas = await eventually('every node to know [books]', async () => {
      const m = await everyNodesMetadata('books');
      return m.every((x) => x !== undefined) ? m : undefined;
    });
    const uuids = new Set(
      metas.map((m) => (m as { settings: { index: { uuid: string } } }).settings.index.uuid),
    );
    expect(uuids.size).toBe(1);
    expect(metas[0]).toMatchObject({
      state: 'open',
      settings: { index: { number_of_shards: '2', number_of_replicas: '0', provided_name: 'books' } },
      mappings: { _doc: { properties: { title: { type: 'text' } } } },
    });
    // A second create of the same name, through another node, is refused by the master.
    const again = await http(master, 'PUT', '/books');
    expect(again.status).toBe(400);
    expect(again.json.error.type).toBe('resource_already_exists_exception');
  });

  it('publishes mapping, settings and alias changes made through any node', async () => {
    const [a, b, c] = cluster.nodes.map((n) => n.url) as [string, string, string];
    expect(
      (await http(a, 'PUT', '/books/_mapping', { properties: { year: { type: 'integer' } } })).status,
    ).toBe(200);
    expect((await http(b, 'PUT', '/books/_settings', { index: { refresh_interval: '5s' } })).status).toBe(
      200,
    );
    const aliases = await http(c, 'POST', '/_aliases', {
      actions: [{ add: { index: 'books', alias: 'library', is_write_index: true } }],
    });
    expect(aliases.status).toBe(200);
    await eventually('every node to apply the three changes', async () => {
      const metas = await everyNodesMetadata('books');
      return metas.every((m) => {
        const x = m as {
          mappings: { _doc: { properties: Record<string, unknown> } };
          settings: { index: { refresh_interval?: string } };
          aliases: string[];
        };
        return (
          'year' in x.mappings._doc.properties &&
          x.settings.index.refresh_interval === '5s' &&
          x.aliases.includes('library')
        );
      })
        ? true
        : undefined;
    });
    // The APIs that read metadata answer the same on every node.
    for (const n of cluster.nodes) {
      const mapping = (await http(n.url, 'GET', '/library/_mapping')).json;
      expect(mapping.books.mappings.properties).toEqual({
        title: { type: 'text' },
        year: { type: 'integer' },
      });
      const alias = (await http(n.url, 'GET', '/_alias/library')).json;
      expect(alias).toEqual({ books: { aliases: { library: { is_write_index: true } } } });
    }
    // A bad change is refused whole, by the master's validation, with Elasticsearch's error.
    const bad = await http(c, 'PUT', '/books/_settings', { index: { number_of_shards: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
  });

  it('takes a new field of a document indexed through any node into the published mapping', async () => {
    const r = await http(follower, 'PUT', '/books/_doc/1?refresh=true', { title: 'Dune', pages: 412 });
    expect(r.status).toBe(201);
    await eventually('every node to map [pages]', async () => {
      const metas = await everyNodesMetadata('books');
      return metas.every(
        (m) => 'pages' in (m as { mappings: { _doc: { properties: object } } }).mappings._doc.properties,
      )
        ? true
        : undefined;
    });
  });

  it('deletes an index through any node, everywhere', async () => {
    expect((await http(master, 'PUT', '/scratch', { settings: { number_of_replicas: 0 } })).status).toBe(200);
    const del = await http(follower, 'DELETE', '/scratch');
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ acknowledged: true });
    expect((await http(follower, 'GET', '/scratch')).status).toBe(404);
    await eventually('every node to forget [scratch]', async () => {
      const metas = await everyNodesMetadata('scratch');
      return metas.every((m) => m === undefined) ? true : undefined;
    });
    const missing = await http(master, 'DELETE', '/scratch');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });
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
    // A reader context on another node's copy is not there yet: a clear refusal, not a wrong
    // answer, from a node that lacks a copy of some shard (the one holding the fewest of the six).
    const held = (await http(urls[0]!, 'GET', '/_cat/shards/spread?format=json&h=node')).json as CatShard[];
    const fewest = cluster.names
      .map((name, i) => ({ i, n: held.filter((x) => x.node === name).length }))
      .sort((a, b) => a.n - b.n)[0]!;
    expect(fewest.n).toBeLessThan(3);
    const pit = await http(urls[fewest.i]!, 'POST', '/spread/_pit?keep_alive=1m');
    expect(pit.status).toBe(501);
    expect(JSON.stringify(pit.json.error)).toContain('which has no copy on this node');
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
    // A node that is neither the master nor the holder of the security index's primary (losing
    // a replica changes nothing for security).
    const master = (await http(urls[0]!, 'GET', '/_cat/master?format=json')).json[0].node as string;
    const security = (await http(urls[0]!, 'GET', '/_cat/shards/.security-7?format=json&h=node,prirep'))
      .json as CatShard[];
    const busy = new Set([master, ...security.filter((x) => x.prirep === 'p').map((x) => x.node)]);
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
