/**
 * Voting-config exclusions on a real three-node cluster: two of three nodes (the master among
 * them) are excluded, leave the voting configuration, and are stopped; the remaining node keeps
 * a master and commits changes. Bad requests get Elasticsearch's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http } from '../support/http.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ nodes: 3 });
  await agreedMaster(cluster.nodes, 3);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const coordination = async (url: string) =>
  (await http(url, 'GET', '/_cluster/state/metadata')).json.metadata.cluster_coordination;

const IDENTIFIERS =
  'Please set node identifiers correctly. One and only one of [node_name], [node_names] and [node_ids] has to be set';

describe('voting-config exclusions: bad requests', () => {
  it('needs exactly one of node_names and node_ids', async () => {
    const url = cluster.nodes[0]!.url;
    for (const q of ['', '?node_names=a&node_ids=b', '?node_names=']) {
      const r = await http(url, 'POST', `/_cluster/voting_config_exclusions${q}`);
      expect(r.status).toBe(400);
      expect(r.json.error.type).toBe('illegal_argument_exception');
      expect(r.json.error.reason).toBe(IDENTIFIERS);
    }
  });

  it('refuses a negative timeout and a request over cluster.max_voting_config_exclusions', async () => {
    const url = cluster.nodes[1]!.url;
    const neg = await http(url, 'POST', '/_cluster/voting_config_exclusions?node_names=a&timeout=-1');
    expect(neg.status).toBe(400);
    expect(neg.json.error.reason).toBe('timeout [-1] must be non-negative');
    const ids = Array.from({ length: 11 }, (_, i) => `ghost-${i}`).join(',');
    const many = await http(url, 'POST', `/_cluster/voting_config_exclusions?node_ids=${ids}`);
    expect(many.status).toBe(400);
    expect(many.json.error.reason).toBe(
      'add voting config exclusions request for [] would add [11] exclusions to the existing [0] which would exceed the maximum of [10] set by [cluster.max_voting_config_exclusions]',
    );
    expect((await coordination(url)).voting_config_exclusions).toEqual([]);
  });

  it('takes cluster.max_voting_config_exclusions from the cluster settings, whichever node set it', async () => {
    const setting = (v: number | null) =>
      http(cluster.nodes[0]!.url, 'PUT', '/_cluster/settings', {
        persistent: { 'cluster.max_voting_config_exclusions': v },
      });
    expect((await setting(1)).status).toBe(200);
    const r = await eventually('the limit of 1 applied by the master', async () => {
      const x = await http(
        cluster.nodes[2]!.url,
        'POST',
        '/_cluster/voting_config_exclusions?node_names=x,y',
      );
      return x.status === 400 ? x : undefined;
    });
    expect(r.json.error.reason).toBe(
      'add voting config exclusions request for [] would add [2] exclusions to the existing [0] which would exceed the maximum of [1] set by [cluster.max_voting_config_exclusions]',
    );
    expect((await setting(null)).status).toBe(200);
    await eventually('the default limit again', async () => {
      const x = await http(
        cluster.nodes[1]!.url,
        'POST',
        '/_cluster/voting_config_exclusions?node_names=x,y',
      );
      return x.status === 200 ? x : undefined;
    });
    expect((await http(cluster.nodes[1]!.url, 'DELETE', '/_cluster/voting_config_exclusions')).status).toBe(
      200,
    );
  });

  it('answers the deprecated path with its two warnings, and 400 when it names no master-eligible node', async () => {
    const r = await http(cluster.nodes[2]!.url, 'POST', '/_cluster/voting_config_exclusions/nobody');
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      'add voting config exclusions request for [nobody] matched no master-eligible nodes',
    );
    const warnings = String(r.headers.warning);
    expect(warnings).toContain(
      'POST /_cluster/voting_config_exclusions/{node_name} will be removed in a future version.',
    );
    expect(warnings).toContain(
      'nodeDescription is deprecated and will be removed, use nodeIds or nodeNames instead',
    );
  });

  it('records unknown names and ids as _absent_, and clears them', async () => {
    const url = cluster.nodes[0]!.url;
    const add = await http(url, 'POST', '/_cluster/voting_config_exclusions?node_ids=nodeId1,nodeId2');
    expect(add.status).toBe(200);
    const byName = await http(url, 'POST', '/_cluster/voting_config_exclusions?node_names=nodeName');
    expect(byName.status).toBe(200);
    // Every node sees the committed exclusions.
    for (const n of cluster.nodes) {
      const excl = await eventually('exclusions everywhere', async () => {
        const e = (await coordination(n.url)).voting_config_exclusions;
        return e.length === 3 ? e : undefined;
      });
      expect(excl).toEqual(
        expect.arrayContaining([
          { node_id: 'nodeId1', node_name: '_absent_' },
          { node_id: 'nodeId2', node_name: '_absent_' },
          { node_id: '_absent_', node_name: 'nodeName' },
        ]),
      );
    }
    const clear = await http(url, 'DELETE', '/_cluster/voting_config_exclusions');
    expect(clear.status).toBe(200);
    // Acknowledged once the master committed it; the node asked applies it right after.
    await eventually('exclusions cleared', async () =>
      (await coordination(url)).voting_config_exclusions.length === 0 ? true : undefined,
    );
  });
});

describe('voting-config exclusions: removing two of three nodes', () => {
  it('excludes the master and another node, stops them, and the last node keeps a master', async () => {
    const masterId = await agreedMaster(cluster.nodes, 3);
    const nodes = (await http(cluster.nodes[0]!.url, 'GET', '/_cluster/state/nodes')).json.nodes;
    const idOf = (name: string) => Object.keys(nodes).find((id) => nodes[id].name === name)!;
    const masterName = nodes[masterId].name as string;
    const other = cluster.names.find((n) => n !== masterName)!;
    const keep = cluster.names.find((n) => n !== masterName && n !== other)!;
    const keepNode = cluster.nodes[cluster.names.indexOf(keep)]!;

    const r = await http(
      keepNode.url,
      'POST',
      `/_cluster/voting_config_exclusions?node_names=${masterName},${other}&timeout=30s`,
    );
    expect(r.status).toBe(200);
    const c = await coordination(keepNode.url);
    expect(c.last_committed_config).toEqual([idOf(keep)]);
    expect(c.voting_config_exclusions).toEqual(
      expect.arrayContaining([
        { node_id: masterId, node_name: masterName },
        { node_id: idOf(other), node_name: other },
      ]),
    );
    // The excluded master handed over to the node that is left.
    expect(await agreedMaster(cluster.nodes, 3)).toBe(idOf(keep));

    // While the excluded nodes are still in the cluster, clearing with wait_for_removal times out.
    const early = await http(keepNode.url, 'DELETE', '/_cluster/voting_config_exclusions?timeout=200ms');
    expect(early.status).toBe(429);
    expect(early.json.error.type).toBe('timeout_exception');
    expect(early.json.error.reason).toMatch(
      /^timed out waiting for removal of nodes; if nodes should not be removed, set waitForRemoval to false\. \[/,
    );

    await Promise.all(
      cluster.names.filter((n) => n !== keep).map((n) => cluster.nodes[cluster.names.indexOf(n)]!.stop()),
    );
    expect(await agreedMaster([keepNode], 1)).toBe(idOf(keep));
    // The cluster still commits changes.
    const ghost = await http(keepNode.url, 'POST', '/_cluster/voting_config_exclusions?node_names=ghost');
    expect(ghost.status).toBe(200);
    const health = (await http(keepNode.url, 'GET', '/_cluster/health')).json;
    expect(health.number_of_nodes).toBe(1);

    // The last voting node cannot exclude itself: the request times out.
    const self = await http(
      keepNode.url,
      'POST',
      `/_cluster/voting_config_exclusions?node_names=${keep}&timeout=300ms`,
    );
    expect(self.status).toBe(429);
    expect(self.json.error.type).toBe('timeout_exception');
    expect(self.json.error.reason).toBe(
      `timed out waiting for voting config exclusions [{${keep}}{${idOf(keep)}}] to take effect`,
    );

    const clear = await http(
      keepNode.url,
      'DELETE',
      '/_cluster/voting_config_exclusions?wait_for_removal=false',
    );
    expect(clear.status).toBe(200);
    expect((await coordination(keepNode.url)).voting_config_exclusions).toEqual([]);
  });
});
