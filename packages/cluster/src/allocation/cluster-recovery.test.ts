import { describe, expect, it } from 'vitest';
import { type IndexToAllocate, reroute } from './allocator.ts';
import { awaitsShardData, inSyncHolders, recoveredRouting } from './cluster-recovery.ts';
import { type RoutingTable, type ShardRouting, withShardStarted } from './routing-table.ts';

let ids = 0;
const newId = () => `r${++ids}`;
const INDEX: IndexToAllocate = { name: 'logs', uuid: 'u1', shards: 1, replicas: 1 };

const started = (node: string, primary: boolean, inSync: boolean): ShardRouting => ({
  shard: 0,
  primary,
  state: 'STARTED',
  node,
  allocationId: newId(),
  ...(inSync ? { inSync: true } : {}),
});

/** Before the restart: the primary on `a` (in sync), its replica on `b` (not in sync yet). */
const beforeRestart: RoutingTable = {
  indices: { logs: { uuid: 'u1', shards: [[started('a', true, true), started('b', false, false)]] } },
};

function run(
  routing: RoutingTable,
  nodes: string[],
  data: Record<string, string[]> = {},
  indices: IndexToAllocate[] = [INDEX],
): RoutingTable {
  return reroute({
    routing,
    indices,
    dataNodes: nodes,
    newId,
    now: 0,
    hasShardData: (node, uuid, shard) => data[node]?.includes(`${uuid}/${shard}`) === true,
  });
}

const copies = (t: RoutingTable) => t.indices.logs!.shards[0]!;

describe('the routing table recovered after a full-cluster restart', () => {
  it('has every copy unassigned, CLUSTER_RECOVERED, remembering its node and whether it was in sync', () => {
    const t = recoveredRouting(beforeRestart, [INDEX], 5);
    expect(copies(t)).toEqual([
      {
        shard: 0,
        primary: true,
        state: 'UNASSIGNED',
        node: null,
        allocationId: null,
        unassigned: { reason: 'CLUSTER_RECOVERED', at: 5, lastNode: 'a' },
        inSync: true,
      },
      {
        shard: 0,
        primary: false,
        state: 'UNASSIGNED',
        node: null,
        allocationId: null,
        unassigned: { reason: 'CLUSTER_RECOVERED', at: 5, lastNode: 'b' },
      },
    ]);
    expect(inSyncHolders(copies(t))).toEqual(['a']);
    expect(awaitsShardData(t)).toBe(true);
  });

  it('leaves the primary unassigned until the node of an in-sync copy is there with its data', () => {
    const t = recoveredRouting(beforeRestart, [INDEX], 0);
    // Only b has joined, and it has the shard's folder (its replica's): not in sync, not used.
    expect(run(t, ['b', 'c'], { b: ['u1/0'] })).toBe(t);
    // a has joined but its listing has not come yet.
    expect(run(t, ['a', 'b'], { b: ['u1/0'] })).toBe(t);
    const placed = run(t, ['a', 'b'], { a: ['u1/0'], b: ['u1/0'] });
    expect(copies(placed)[0]).toMatchObject({
      primary: true,
      state: 'INITIALIZING',
      node: 'a',
      inSync: true,
    });
    // The replica waits for its primary to start, then goes to another node.
    expect(copies(placed)[1]!.node).toBeNull();
    const primary = copies(placed)[0]!;
    const after = run(withShardStarted(placed, 'logs', 0, primary.allocationId!), ['a', 'b'], {
      a: ['u1/0'],
    });
    expect(copies(after)[1]).toMatchObject({ primary: false, state: 'INITIALIZING', node: 'b' });
    expect(awaitsShardData(after)).toBe(false);
  });

  it('takes any in-sync copy as the primary, a replica slot too', () => {
    const both: RoutingTable = {
      indices: { logs: { uuid: 'u1', shards: [[started('a', true, true), started('b', false, true)]] } },
    };
    const t = recoveredRouting(both, [INDEX], 0);
    const placed = run(t, ['b', 'c'], { b: ['u1/0'] });
    expect(copies(placed)[0]).toMatchObject({ primary: true, node: 'b', inSync: true });
  });

  it('waits for the node a primary was lost with before the restart', () => {
    const lost: RoutingTable = {
      indices: {
        logs: {
          uuid: 'u1',
          shards: [
            [
              {
                shard: 0,
                primary: true,
                state: 'UNASSIGNED',
                node: null,
                allocationId: null,
                unassigned: { reason: 'NODE_LEFT', at: 0, lastNode: 'a' },
              },
              started('b', false, false),
            ],
          ],
        },
      },
    };
    const t = recoveredRouting(lost, [INDEX], 0);
    expect(inSyncHolders(copies(t))).toEqual(['a']);
    expect(run(t, ['b', 'c'], { b: ['u1/0'] })).toBe(t);
    expect(copies(run(t, ['a', 'b'], { a: ['u1/0'] }))[0]!.node).toBe('a');
  });

  it('places a shard whose primary never started as a new one', () => {
    const never: RoutingTable = {
      indices: {
        logs: {
          uuid: 'u1',
          shards: [[{ shard: 0, primary: true, state: 'INITIALIZING', node: 'a', allocationId: 'x' }]],
        },
      },
    };
    const spec = { ...INDEX, replicas: 0 };
    const t = recoveredRouting(never, [spec], 0);
    expect(awaitsShardData(t)).toBe(false);
    expect(copies(run(t, ['c'], {}, [spec]))[0]).toMatchObject({ state: 'INITIALIZING', node: 'c' });
  });

  it('makes copies for an index the old table did not have, and follows the metadata', () => {
    const spec = { name: 'fresh', uuid: 'u2', shards: 2, replicas: 1 };
    const t = recoveredRouting(beforeRestart, [spec], 0);
    expect(Object.keys(t.indices)).toEqual(['fresh']);
    expect(t.indices.fresh!.shards.map((s) => s.map((c) => c.unassigned?.reason))).toEqual([
      ['CLUSTER_RECOVERED', 'CLUSTER_RECOVERED'],
      ['CLUSTER_RECOVERED', 'CLUSTER_RECOVERED'],
    ]);
  });
});
