/**
 * The primary side of write replication, with the copies' runners and the master faked: which
 * copies a write goes to, what `_shards` says, and that a replica that fails to apply a write
 * is failed by the master before the write is answered (and that the write fails when the
 * master cannot be told).
 */
import type { ClusterService, ClusterTaskSpec } from '@shoal/cluster';
import { ShoalError } from '@shoal/protocol';
import type { WorkerTask, WriteTask } from '@shoal/shard';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type ShardCopy, type ShardRunner, ShardTable } from '../shards/shard-table.ts';
import { WriteReplication } from './write-replication.ts';

const KEY = 'u/0';

/** A runner that records its tasks; a replica's may be told to fail. */
function runner(fail?: () => Error): ShardRunner & { tasks: WorkerTask[] } {
  const tasks: WorkerTask[] = [];
  return {
    id: -1,
    shards: new Set([KEY]),
    tasks,
    release() {},
    async run(task: WorkerTask) {
      tasks.push(task);
      if (fail) throw fail();
      if (task.t === 'write') {
        return {
          kind: 'applied',
          results: [{ status: 201, id: '1', result: 'created', version: 1, seqNo: 0, primaryTerm: 3 }],
          ...(task.replicate ? { replication: new Uint8Array([7, 7]) } : {}),
        };
      }
      return { applied: 1 };
    },
  } as ShardRunner & { tasks: WorkerTask[] };
}

function copy(over: Partial<ShardCopy>): ShardCopy {
  return {
    index: 'i',
    indexUuid: 'u',
    shardId: 0,
    primary: false,
    key: KEY,
    state: 'STARTED',
    primaryTerm: 3,
    ...over,
  };
}

function setup(replicas: ShardCopy[], master: (spec: ClusterTaskSpec) => Promise<void> = async () => {}) {
  const primaryRunner = runner();
  const table = new ShardTable([]);
  const primary = copy({ primary: true, node: 'n1', allocationId: 'p', worker: primaryRunner });
  table.replaceIndex('u', [primary, ...replicas]);
  const told: ClusterTaskSpec[] = [];
  const cluster = {
    handle() {},
    state: () => ({ nodes: {} }),
    execute: async (spec: ClusterTaskSpec) => {
      told.push(spec);
      await master(spec);
    },
  } as unknown as ClusterService;
  const replication = new WriteReplication(cluster, table, pino({ level: 'silent' }));
  return { replication, primary, primaryRunner, told, table };
}

const task = (): WriteTask => ({
  t: 'write',
  key: KEY,
  ops: [],
  bytes: new ArrayBuffer(0),
  refresh: 'false',
});

describe('write replication on the primary', () => {
  it('sends what the primary did to each started replica, with the primary term', async () => {
    const r1 = runner();
    const { replication, primary, primaryRunner } = setup([
      copy({ node: 'n2', allocationId: 'r1', worker: r1, remote: true }),
    ]);
    const { outcome, shards } = await replication.write(primary, task());
    expect(outcome.kind).toBe('applied');
    expect('replication' in outcome).toBe(false);
    expect(shards).toEqual({ total: 2, successful: 2, failures: [] });
    expect(primaryRunner.tasks[0]).toMatchObject({ t: 'write', replicate: true });
    expect(r1.tasks).toEqual([
      { t: 'replica_write', key: KEY, bytes: new Uint8Array([7, 7]), primaryTerm: 3, refresh: 'false' },
    ]);
  });

  it('counts unassigned and unrecovered copies in total only, and asks for no operations without replicas', async () => {
    const initializing = runner();
    const { replication, primary, primaryRunner } = setup([
      copy({ node: 'n2', allocationId: 'r1', worker: initializing, state: 'INITIALIZING', remote: true }),
      copy({ state: 'UNASSIGNED', key: `${KEY}/u2` }),
    ]);
    const { shards } = await replication.write(primary, task());
    expect(shards).toEqual({ total: 3, successful: 1, failures: [] });
    expect(initializing.tasks).toEqual([]);
    // The copy is assigned: the primary hands back its operations for when it is in the group.
    expect(primaryRunner.tasks[0]).toMatchObject({ replicate: true });

    const alone = setup([copy({ state: 'UNASSIGNED', key: `${KEY}/u1` })]);
    await alone.replication.write(alone.primary, task());
    expect(alone.primaryRunner.tasks[0]).toMatchObject({ replicate: false });
  });

  it('writes to a recovering replica from its registration until the table shows it started', async () => {
    const target = runner();
    const recovering = copy({
      node: 'n2',
      allocationId: 'r1',
      worker: target,
      state: 'INITIALIZING',
      remote: true,
    });
    const { replication, primary, table } = setup([recovering]);
    replication.register(KEY, recovering);
    expect((await replication.write(primary, task())).shards.successful).toBe(2);
    expect(target.tasks.map((t) => t.t)).toEqual(['replica_write']);
    // Started in the applied table: one copy, reached through the table.
    table.replaceIndex('u', [primary, { ...recovering, state: 'STARTED' }]);
    expect(replication.targets(primary)).toHaveLength(1);
    replication.unregister(KEY, 'r1');
    expect(replication.targets(primary)).toHaveLength(1);
  });

  it('fails a replica that cannot apply the write through the master before answering', async () => {
    const broken = runner(
      () => new ShoalError('node_not_connected_exception', '[node-2] connection closed', 500),
    );
    const { replication, primary, told } = setup([
      copy({ node: 'n2', allocationId: 'r1', worker: broken, remote: true }),
    ]);
    const { shards } = await replication.write(primary, task());
    expect(shards.total).toBe(2);
    expect(shards.successful).toBe(1);
    expect(shards.failures).toEqual([
      {
        index: 'i',
        shard: 0,
        node: 'n2',
        reason: expect.objectContaining({ type: 'node_not_connected_exception' }),
      },
    ]);
    expect(told).toEqual([
      expect.objectContaining({ op: 'shard_failed', index: 'i', shard: 0, allocationId: 'r1' }),
    ]);
  });

  it('does not acknowledge a write a replica missed when the master cannot be told', async () => {
    const broken = runner(() => new Error('gone'));
    const { replication, primary } = setup(
      [copy({ node: 'n2', allocationId: 'r1', worker: broken, remote: true })],
      async () => {
        throw new ShoalError('master_not_discovered_exception', 'no master', 503);
      },
    );
    await expect(replication.write(primary, task())).rejects.toMatchObject({
      type: 'master_not_discovered_exception',
    });
  });

  it('refuses a write when this node does not hold the started primary', async () => {
    const { replication, primary } = setup([]);
    primary.state = 'INITIALIZING';
    await expect(replication.write(primary, task())).rejects.toMatchObject({
      type: 'unavailable_shards_exception',
      status: 503,
    });
  });
});
