/**
 * A full-cluster restart, with security on: every node stopped, then started again on its data
 * path. The cluster keeps its uuid, its voting configuration and its exclusions, and elects a
 * master again; the master recovers the routing table (every copy unassigned, then each
 * primary put back on the node that holds its data), so the security index serves the users
 * it had and an index keeps its documents.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { basicAuth, http } from '../support/http.ts';
import type { TestNode } from '../support/node-process.ts';

let cluster: TestCluster | undefined;
let restarted: TestNode[] = [];

afterAll(async () => {
  await Promise.all(restarted.map((n) => n.stop()));
  await cluster?.stop();
});

const USER = { name: 'restart-reader', password: 'restart-password' };

/** The node name holding each primary of `index`, by shard number. */
async function primaries(url: string, index: string): Promise<Record<string, string>> {
  const rows = (await http(url, 'GET', `/_cat/shards/${index}?format=json&h=shard,prirep,state,node`))
    .json as {
    shard: string;
    prirep: string;
    state: string;
    node: string | null;
  }[];
  return Object.fromEntries(
    rows.filter((r) => r.prirep === 'p' && r.state === 'STARTED').map((r) => [r.shard, r.node!]),
  );
}

describe('a full-cluster restart', () => {
  it('keeps the cluster, its security index and its data', async () => {
    cluster = await startTestCluster({ nodes: 3 });
    await agreedMaster(cluster.nodes, 3);
    const url = cluster.nodes[0]!.url;
    expect(
      (await http(url, 'POST', '/_cluster/voting_config_exclusions?node_names=retired-node')).status,
    ).toBe(200);
    expect(
      (await http(url, 'PUT', `/_security/user/${USER.name}`, { password: USER.password, roles: ['viewer'] }))
        .status,
    ).toBe(200);
    const settings = { number_of_shards: 3, number_of_replicas: 0 };
    expect((await http(url, 'PUT', '/docs', { settings })).status).toBe(200);
    const bulk = `${Array.from({ length: 9 }, (_, i) => `{"index":{"_id":"${i}"}}\n{"n":${i}}\n`).join('')}`;
    const indexed = await http(url, 'POST', '/docs/_bulk?refresh=true', bulk, {
      'content-type': 'application/x-ndjson',
    });
    expect(indexed.json.errors).toBe(false);
    const placed = await primaries(url, 'docs');
    expect(Object.keys(placed)).toHaveLength(3);
    const before = (await http(url, 'GET', '/_cluster/state/metadata')).json;
    await eventually('the exclusion everywhere', async () => {
      const all = await Promise.all(
        cluster!.nodes.map(async (n) => (await http(n.url, 'GET', '/_cluster/state/metadata')).json.metadata),
      );
      return all.every((m) => m.cluster_coordination.voting_config_exclusions.length === 1)
        ? true
        : undefined;
    });

    // Stopped one after another, then started together.
    for (const n of cluster.nodes) await n.kill();
    restarted = await Promise.all(cluster.nodes.map((n) => n.restart()));
    cluster.nodes.splice(0, cluster.nodes.length);
    await agreedMaster(restarted, 3);
    const after = (await http(restarted[1]!.url, 'GET', '/_cluster/state/metadata,blocks')).json;
    expect(after.cluster_uuid).toBe(before.cluster_uuid);
    expect(after.blocks).toEqual({});
    expect(after.metadata.cluster_coordination.voting_config_exclusions).toEqual([
      { node_id: '_absent_', node_name: 'retired-node' },
    ]);
    expect(after.metadata.cluster_coordination.last_committed_config.sort()).toEqual(
      before.metadata.cluster_coordination.last_committed_config.sort(),
    );
    expect(after.metadata.cluster_coordination.term).toBeGreaterThan(
      before.metadata.cluster_coordination.term,
    );
    const root = (await http(restarted[2]!.url, 'GET', '/')).json;
    expect(root.cluster_uuid).toBe(before.cluster_uuid);

    // Each primary is back on the node that held it, with its documents.
    const health = await http(restarted[0]!.url, 'GET', '/_cluster/health?wait_for_status=green&timeout=30s');
    expect(health.json.status).toBe('green');
    expect(await primaries(restarted[0]!.url, 'docs')).toEqual(placed);
    for (const n of restarted) {
      expect((await http(n.url, 'GET', '/docs/_count')).json.count).toBe(9);
      // The user made before the restart signs in on every node: the security index kept it.
      const me = await http(n.url, 'GET', '/_security/_authenticate', undefined, {
        authorization: basicAuth(USER.name, USER.password),
      });
      expect(me.status).toBe(200);
      expect(me.json.username).toBe(USER.name);
    }
  });
});
