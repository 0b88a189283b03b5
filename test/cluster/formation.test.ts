/**
 * Three real node processes find each other on their transport ports, elect one master and
 * agree on the cluster state; a master killed with SIGKILL is replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http } from '../support/http.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ nodes: 3 });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('a three-node cluster', () => {
  it('elects one master that every node names, with all three in the voting configuration', async () => {
    const masterId = await agreedMaster(cluster.nodes, 3);
    const state = (await http(cluster.nodes[0]!.url, 'GET', '/_cluster/state')).json;
    expect(state.master_node).toBe(masterId);
    expect(
      Object.values(state.nodes)
        .map((n: unknown) => (n as { name: string }).name)
        .sort(),
    ).toEqual(cluster.names);
    const coordination = state.metadata.cluster_coordination;
    expect(coordination.last_committed_config.sort()).toEqual(Object.keys(state.nodes).sort());
    expect(coordination.voting_config_exclusions).toEqual([]);
    expect(state.metadata.cluster_uuid_committed).toBe(true);

    // Every node answers with the same cluster uuid, node count and master.
    for (const n of cluster.nodes) {
      const root = (await http(n.url, 'GET', '/')).json;
      expect(root.cluster_uuid).toBe(state.cluster_uuid);
      const health = (await http(n.url, 'GET', '/_cluster/health')).json;
      expect(health.number_of_nodes).toBe(3);
      const master = await http(n.url, 'GET', '/_cat/master?format=json');
      expect(master.json).toEqual([expect.objectContaining({ id: masterId })]);
    }
  });

  it('lists the nodes in _cat/nodes and _nodes, each node answering for itself', async () => {
    const masterId = await agreedMaster(cluster.nodes, 3);
    const cat = await http(
      cluster.nodes[1]!.url,
      'GET',
      '/_cat/nodes?v&h=name,master,node.role,heap.percent',
    );
    const lines = cat.text.trim().split('\n');
    expect(lines[0]).toMatch(/^name\s+master\s+node\.role\s+heap\.percent$/);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(/\s+/)[0])
        .sort(),
    ).toEqual(cluster.names);
    expect(lines.filter((l) => /\s\*\s/.test(l))).toHaveLength(1);
    for (const l of lines.slice(1)) expect(l).toMatch(/\sdim\s+\d+$/);

    const info = (await http(cluster.nodes[2]!.url, 'GET', '/_nodes')).json;
    expect(info._nodes).toEqual({ total: 3, successful: 3, failed: 0 });
    const pids = new Set(
      Object.values(info.nodes).map((n: unknown) => (n as { jvm: { pid: number } }).jvm.pid),
    );
    expect(pids.size).toBe(3);
    expect(
      Object.values(info.nodes).every((n: unknown) => Array.isArray((n as { roles: string[] }).roles)),
    ).toBe(true);

    const onlyMaster = (await http(cluster.nodes[0]!.url, 'GET', '/_nodes/_master/os')).json;
    expect(Object.keys(onlyMaster.nodes)).toEqual([masterId]);
    expect(Object.values(onlyMaster.nodes)[0]).toHaveProperty('os');
    expect(Object.values(onlyMaster.nodes)[0]).not.toHaveProperty('jvm');
    const byName = (await http(cluster.nodes[0]!.url, 'GET', '/_nodes/node-2,node-3')).json;
    expect(byName._nodes.total).toBe(2);

    // Node stats too: every node answers for itself, and the node filter applies.
    const stats = (await http(cluster.nodes[0]!.url, 'GET', '/_nodes/stats')).json;
    expect(stats._nodes).toEqual({ total: 3, successful: 3, failed: 0 });
    expect(
      Object.values(stats.nodes)
        .map((n: unknown) => (n as { name: string }).name)
        .sort(),
    ).toEqual(cluster.names);
    const one = (await http(cluster.nodes[1]!.url, 'GET', '/_nodes/node-3/stats')).json;
    expect(Object.values(one.nodes).map((n: unknown) => (n as { name: string }).name)).toEqual(['node-3']);
  });

  it('elects another master when the master is killed with SIGKILL, and drops the dead node', async () => {
    const masterId = await agreedMaster(cluster.nodes, 3);
    const nodesBefore = (await http(cluster.nodes[0]!.url, 'GET', '/_cluster/state/nodes')).json.nodes;
    const masterName = nodesBefore[masterId].name as string;
    const victim = cluster.nodes[cluster.names.indexOf(masterName)]!;
    const started = Date.now();
    await victim.kill();
    const rest = cluster.nodes.filter((n) => n !== victim);
    const next = await agreedMaster(rest, 2);
    expect(next).not.toBe(masterId);
    const elapsed = Date.now() - started;
    // A killed process closes its connections: the followers notice at once, not after timeouts.
    expect(elapsed).toBeLessThan(5_000);
    const health = (await http(rest[0]!.url, 'GET', '/_cluster/health')).json;
    expect(health.number_of_nodes).toBe(2);
    await eventually('the term raised everywhere', async () => {
      const terms = await Promise.all(
        rest.map(
          async (n) =>
            (await http(n.url, 'GET', '/_cluster/state/metadata')).json.metadata.cluster_coordination.term,
        ),
      );
      return terms.every((t) => t === terms[0] && t > 1) ? true : undefined;
    });
  });
});
