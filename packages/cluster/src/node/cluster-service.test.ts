import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterState, DiscoveryNode } from '../coordination/cluster-state.ts';
import { ClusterService, type ClusterServiceOptions } from './cluster-service.ts';
import { LIST_SHARD_STORES_ACTION, type ShardStoreListing } from './shard-stores.ts';

const quiet = { info() {}, warn() {}, debug() {} };
const running: ClusterService[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function node(i: number, port: number): DiscoveryNode {
  return {
    id: `node-${i}-id`,
    name: `node-${i}`,
    ephemeralId: `e${Math.random()}`,
    host: '127.0.0.1',
    transportPort: port,
    httpPort: 0,
    roles: ['data', 'master'],
  };
}

const FAST = {
  leaderCheckIntervalMs: 200,
  leaderCheckTimeoutMs: 400,
  followerCheckIntervalMs: 200,
  followerCheckTimeoutMs: 400,
  findPeersIntervalMs: 200,
};

async function cluster(n: number, more: (i: number) => Partial<ClusterServiceOptions> = () => ({})) {
  const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
  const seeds = ports.map((p) => `127.0.0.1:${p}`);
  const paths = ports.map(() => mkdtempSync(join(tmpdir(), 'shoal-cluster-')));
  dirs.push(...paths);
  const make = (i: number) => {
    const s = new ClusterService({
      local: node(i + 1, ports[i]!),
      clusterName: 'test',
      dataPath: paths[i]!,
      singleNode: false,
      seedHosts: seeds,
      initialMasterNodes: ports.map((_, j) => `node-${j + 1}`),
      settings: FAST,
      log: quiet,
      ...more(i),
    });
    running.push(s);
    return s;
  };
  const services = ports.map((_, i) => make(i));
  await Promise.all(services.map((s) => s.start()));
  return { services, restart: (i: number) => make(i) };
}

async function until(what: string, test: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const masters = (ss: ClusterService[]) => ss.filter((s) => s.mode === 'LEADER');
const formed = (ss: ClusterService[], size: number) => () => {
  const m = masters(ss);
  if (m.length !== 1) return false;
  const st: ClusterState = m[0]!.state();
  // Applied everywhere (a state only accepted shows no other node).
  return ss.every(
    (s) => s.state().stateUuid === st.stateUuid && Object.keys(s.state().nodes).length === size,
  );
};

describe('ClusterService over loopback TCP', () => {
  it('forms a three-node cluster, replaces a lost master, and applies exclusions from any node', async () => {
    const { services } = await cluster(3);
    await until('one master followed by all', formed(services, 3));
    const state = services[0]!.state();
    expect(state.coordination.lastCommittedConfig).toHaveLength(3);
    expect(state.clusterUuidCommitted).toBe(true);

    const old = masters(services)[0]!;
    await old.stop();
    const rest = services.filter((s) => s !== old);
    await until('a new master', () => masters(rest).length === 1 && masters(rest)[0] !== old);
    await until('the lost master removed', () =>
      rest.every((s) => Object.keys(s.state().nodes).length === 2),
    );

    // A follower asks; the master carries it out; the exclusion shows everywhere.
    const follower = rest.find((s) => s.mode === 'FOLLOWER')!;
    const leader = masters(rest)[0]!;
    await follower.execute({
      op: 'add_voting_config_exclusions',
      request: { nodeNames: [follower.local.name] },
    });
    await until('the exclusion applied', () =>
      rest.every((s) => s.state().coordination.exclusions.some((e) => e.nodeId === follower.local.id)),
    );
    await until('the excluded node out of the configuration', () =>
      rest.every((s) => !s.state().coordination.lastCommittedConfig.includes(follower.local.id)),
    );
    expect(leader.state().coordination.lastCommittedConfig).toContain(leader.local.id);
    // A request over the limit is refused with Elasticsearch's error, whichever node is asked.
    await expect(
      follower.execute({
        op: 'add_voting_config_exclusions',
        request: { nodeIds: Array.from({ length: 10 }, (_, i) => `ghost-${i}`) },
      }),
    ).rejects.toMatchObject({ type: 'illegal_argument_exception', status: 400 });
    await leader.execute({ op: 'clear_voting_config_exclusions' });
    await until('exclusions cleared', () =>
      rest.every((s) => s.state().coordination.exclusions.length === 0),
    );
    // Settings coordination reads travel to the master like any change, and null removes one.
    const key = 'cluster.auto_shrink_voting_configuration';
    await follower.execute({ op: 'put_settings', settings: { [key]: 'false' } });
    await until('the setting everywhere', () => rest.every((s) => s.state().settings[key] === 'false'));
    await follower.execute({ op: 'put_settings', settings: { [key]: null } });
    await until('the setting removed', () => rest.every((s) => !(key in s.state().settings)));
  }, 60_000);

  it('keeps its state across a full restart', async () => {
    const { services, restart } = await cluster(3);
    await until('formed', formed(services, 3));
    const uuid = services[0]!.state().clusterUuid;
    const leader = masters(services)[0]!;
    await leader.execute({ op: 'add_voting_config_exclusions', request: { nodeNames: ['nobody'] } });
    await until('applied', () => services.every((s) => s.state().coordination.exclusions.length === 1));
    await Promise.all(services.map((s) => s.stop()));
    const again = [restart(0), restart(1), restart(2)];
    await Promise.all(again.map((s) => s.start()));
    await until('formed again', formed(again, 3));
    const st = again[0]!.state();
    expect(st.clusterUuid).toBe(uuid);
    expect(st.coordination.exclusions).toEqual([{ nodeId: '_absent_', nodeName: 'nobody' }]);
    // Recovered by the new master; the nodes are the new incarnations only.
    await until('recovered', () => again.every((s) => s.state().stateNotRecovered === undefined));
    expect(
      Object.values(st.nodes)
        .map((n) => n.ephemeralId)
        .sort(),
    ).toEqual(again.map((s) => s.local.ephemeralId).sort());
  }, 60_000);

  it('after a full restart, puts a primary back only on the node that has its data', async () => {
    const index = { name: 'logs', uuid: 'u1', shards: 1, replicas: 0 };
    /** The node that holds the shard's data, once it has opened it. */
    let holder: string | undefined;
    /** The nodes asked for their shard listing since the restart. */
    const asked = new Set<string>();
    const { services, restart } = await cluster(3, () => ({ indicesToAllocate: () => [index] }));
    const serveListings = (ss: ClusterService[]) => {
      for (const s of ss) {
        s.handle(LIST_SHARD_STORES_ACTION, (): ShardStoreListing => {
          asked.add(s.local.id);
          return { shards: s.local.id === holder ? [{ indexUuid: 'u1', shard: 0 }] : [] };
        });
      }
    };
    serveListings(services);
    await until('formed', formed(services, 3));
    const primary = () => masters(services)[0]?.state().routingTable.indices.logs?.shards[0]?.[0];
    await until('the primary placed', () => primary()?.state === 'INITIALIZING');
    holder = primary()!.node!;
    await masters(services)[0]!.execute({
      op: 'shard_started',
      index: 'logs',
      shard: 0,
      allocationId: primary()!.allocationId!,
    });
    await Promise.all(services.map((s) => s.stop()));
    asked.clear();

    // The two other nodes form the cluster again (a quorum): the primary waits, unassigned.
    const at = (s: ClusterService) => services.findIndex((x) => x.local.id === s.local.id);
    const others = services.filter((s) => s.local.id !== holder).map((s) => restart(at(s)));
    serveListings(others);
    /** Where the primary was placed while its node was away (nowhere, it must be). */
    const misplaced: string[] = [];
    for (const s of others) {
      s.onApplied((st) => {
        const node = st.routingTable.indices.logs?.shards[0]?.[0]?.node;
        if (!st.stateNotRecovered && node != null) misplaced.push(node);
      });
    }
    await Promise.all(others.map((s) => s.start()));
    await until('formed by two', formed(others, 2));
    const copy = () => masters(others)[0]?.state().routingTable.indices.logs?.shards[0]?.[0];
    await until('recovered', () => copy()?.unassigned?.reason === 'CLUSTER_RECOVERED');
    await until('both nodes listed their shards', () => asked.size === 2);
    expect(copy()).toMatchObject({ state: 'UNASSIGNED', node: null, inSync: true });
    expect(copy()!.unassigned!.lastNode).toBe(holder);

    // The holder comes back: the primary is allocated to it, from its data.
    const back = restart(services.findIndex((s) => s.local.id === holder));
    serveListings([back]);
    await back.start();
    await until('the primary on its node', () => copy()?.node === holder);
    expect(copy()).toMatchObject({ state: 'INITIALIZING', inSync: true });
    expect(misplaced.filter((n) => n !== holder)).toEqual([]);
  }, 60_000);

  it('a single node elects itself at start, without a transport', async () => {
    const dataPath = mkdtempSync(join(tmpdir(), 'shoal-single-'));
    dirs.push(dataPath);
    const s = new ClusterService({
      local: node(1, 0),
      clusterName: 'test',
      dataPath,
      singleNode: true,
      seedHosts: [],
      initialMasterNodes: [],
      log: quiet,
    });
    running.push(s);
    await s.start();
    expect(s.mode).toBe('LEADER');
    expect(s.state().masterNodeId).toBe('node-1-id');
    expect(s.state().coordination.lastCommittedConfig).toEqual(['node-1-id']);
  });

  it('raises the primary term when the primary is placed again, and refuses a deposed primary’s shard-failed', async () => {
    const dataPath = mkdtempSync(join(tmpdir(), 'shoal-single-'));
    dirs.push(dataPath);
    const s = new ClusterService({
      local: node(1, 0),
      clusterName: 'test',
      dataPath,
      singleNode: true,
      seedHosts: [],
      initialMasterNodes: [],
      log: quiet,
      indicesToAllocate: () => [{ name: 'i', uuid: 'u', shards: 1, replicas: 0 }],
    });
    running.push(s);
    await s.start();
    const primary = () => s.state().routingTable.indices.i!.shards[0]![0]!;
    const term = () => s.state().routingTable.indices.i!.primaryTerms?.[0] ?? 1;
    await until('the index routed', () => s.state().routingTable.indices.i !== undefined);
    const first = primary().allocationId!;
    expect(term()).toBe(1);
    await s.execute({ op: 'shard_started', index: 'i', shard: 0, allocationId: first });
    await s.execute({ op: 'shard_failed', index: 'i', shard: 0, allocationId: first, details: 'disk' });
    expect(primary().allocationId).not.toBe(first);
    expect(term()).toBe(2);
    await expect(
      s.execute({
        op: 'shard_failed',
        index: 'i',
        shard: 0,
        allocationId: primary().allocationId!,
        details: 'a replica write failed',
        primaryTerm: 1,
      }),
    ).rejects.toMatchObject({ type: 'no_longer_primary_shard_exception' });
    expect(term()).toBe(2);
  });
});
