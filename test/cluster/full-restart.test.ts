/**
 * A full-cluster restart: every node stopped, then started again on its data path. The cluster
 * keeps its uuid, its voting configuration and its exclusions, and elects a master again.
 * Security is off here: after a full restart the recovered routing table still names the nodes
 * of the old state, so a node may try to read the security index on a node that has not joined
 * yet and give up starting after a minute. The coordination state is what this test is about.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http } from '../support/http.ts';
import type { TestNode } from '../support/node-process.ts';

let cluster: TestCluster | undefined;
let restarted: TestNode[] = [];

afterAll(async () => {
  await Promise.all(restarted.map((n) => n.stop()));
  await cluster?.stop();
});

describe('a full-cluster restart', () => {
  it('keeps the cluster uuid, the voting configuration and the exclusions', async () => {
    cluster = await startTestCluster({ nodes: 3, security: false });
    await agreedMaster(cluster.nodes, 3);
    const url = cluster.nodes[0]!.url;
    expect(
      (await http(url, 'POST', '/_cluster/voting_config_exclusions?node_names=retired-node')).status,
    ).toBe(200);
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
    const after = (await http(restarted[1]!.url, 'GET', '/_cluster/state/metadata')).json;
    expect(after.cluster_uuid).toBe(before.cluster_uuid);
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
  });
});
