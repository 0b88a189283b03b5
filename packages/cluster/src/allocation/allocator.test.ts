import { describe, expect, it } from 'vitest';
import { Prng } from '../sim/prng.ts';
import { type IndexToAllocate, reroute } from './allocator.ts';
import {
  EMPTY_ROUTING,
  isActive,
  type RoutingTable,
  type ShardRouting,
  withShardFailed,
  withShardStarted,
} from './routing-table.ts';

let ids = 0;
const newId = () => `a${++ids}`;

function run(routing: RoutingTable, indices: IndexToAllocate[], dataNodes: string[]): RoutingTable {
  return reroute({ routing, indices, dataNodes, newId, now: 0 });
}

/** Starts every initializing copy and reroutes, until nothing changes (a cluster that settles). */
function settle(routing: RoutingTable, indices: IndexToAllocate[], nodes: string[]): RoutingTable {
  let t = run(routing, indices, nodes);
  for (let i = 0; i < 20; i++) {
    let started = t;
    for (const [name, r] of Object.entries(t.indices))
      for (const copies of r.shards)
        for (const c of copies)
          if (c.state === 'INITIALIZING') started = withShardStarted(started, name, c.shard, c.allocationId!);
    const next = run(started, indices, nodes);
    if (next === started && started === t) return t;
    t = next;
  }
  throw new Error('allocation does not settle');
}

/** Every started copy in sync (as replication will make them once it has recovered them). */
function inSync(t: RoutingTable): RoutingTable {
  const indices = Object.fromEntries(
    Object.entries(t.indices).map(([n, r]) => [
      n,
      {
        ...r,
        shards: r.shards.map((cs) => cs.map((c) => (c.state === 'STARTED' ? { ...c, inSync: true } : c))),
      },
    ]),
  );
  return { indices };
}

const all = (t: RoutingTable): ShardRouting[] => Object.values(t.indices).flatMap((r) => r.shards.flat());
const perNode = (t: RoutingTable) => {
  const m = new Map<string, number>();
  for (const c of all(t)) if (c.node) m.set(c.node, (m.get(c.node) ?? 0) + 1);
  return m;
};

/** The rules every table must keep, whatever happened before. */
function checkInvariants(t: RoutingTable, indices: IndexToAllocate[], nodes: string[]): void {
  expect(Object.keys(t.indices).sort()).toEqual(indices.map((i) => i.name).sort());
  for (const spec of indices) {
    const r = t.indices[spec.name]!;
    expect(r.uuid).toBe(spec.uuid);
    expect(r.shards).toHaveLength(spec.shards);
    for (const [id, copies] of r.shards.entries()) {
      expect(copies).toHaveLength(spec.replicas + 1);
      expect(copies.filter((c) => c.primary)).toHaveLength(1);
      expect(copies[0]!.primary).toBe(true);
      const held = copies.filter((c) => c.node !== null).map((c) => c.node);
      // Same shard: never two copies of one shard on one node, and only on live nodes.
      expect(new Set(held).size).toBe(held.length);
      for (const n of held) expect(nodes).toContain(n);
      for (const c of copies) {
        expect(c.shard).toBe(id);
        if (!c.primary && c.node !== null) expect(copies[0]!.state === 'STARTED' || isActive(c)).toBe(true);
        expect(c.node === null).toBe(c.state === 'UNASSIGNED');
      }
    }
  }
}

describe('reroute', () => {
  it('spreads a new index with one replica over three nodes, primaries first, and goes all started', () => {
    const idx = [{ name: 'i', uuid: 'u', shards: 3, replicas: 1 }];
    const first = run(EMPTY_ROUTING, idx, ['n1', 'n2', 'n3']);
    // Replicas wait for their primaries to start.
    expect(
      all(first)
        .filter((c) => c.primary)
        .every((c) => c.state === 'INITIALIZING'),
    ).toBe(true);
    expect(
      all(first)
        .filter((c) => !c.primary)
        .every((c) => c.state === 'UNASSIGNED'),
    ).toBe(true);
    expect([...perNode(first).values()]).toEqual([1, 1, 1]);
    const done = settle(first, idx, ['n1', 'n2', 'n3']);
    expect(all(done).every((c) => c.state === 'STARTED')).toBe(true);
    expect([...perNode(done).values()]).toEqual([2, 2, 2]);
    checkInvariants(done, idx, ['n1', 'n2', 'n3']);
  });

  it('leaves a replica unassigned when there are too few nodes, and places it once a node joins', () => {
    const idx = [{ name: 'i', uuid: 'u', shards: 1, replicas: 1 }];
    const one = settle(EMPTY_ROUTING, idx, ['n1']);
    expect(one.indices.i!.shards[0]!.map((c) => c.state)).toEqual(['STARTED', 'UNASSIGNED']);
    expect(one.indices.i!.shards[0]![1]!.unassigned?.reason).toBe('INDEX_CREATED');
    const two = settle(one, idx, ['n1', 'n2']);
    expect(two.indices.i!.shards[0]!.map((c) => [c.state, c.node])).toEqual([
      ['STARTED', 'n1'],
      ['STARTED', 'n2'],
    ]);
  });

  it('promotes an in-sync replica when the primary node leaves, and waits for a lost primary with no replica', () => {
    const idx = [
      { name: 'r', uuid: 'u1', shards: 1, replicas: 1 },
      { name: 'p', uuid: 'u2', shards: 1, replicas: 0 },
    ];
    const t = inSync(settle(EMPTY_ROUTING, idx, ['n1', 'n2']));
    const primaryNode = t.indices.r!.shards[0]![0]!.node!;
    const other = primaryNode === 'n1' ? 'n2' : 'n1';
    const pNode = t.indices.p!.shards[0]![0]!.node!;
    const after = run(t, idx, [other]);
    const r = after.indices.r!.shards[0]!;
    expect(r[0]).toMatchObject({ primary: true, state: 'STARTED', node: other });
    expect(r[1]).toMatchObject({ primary: false, state: 'UNASSIGNED', unassigned: { reason: 'NODE_LEFT' } });
    if (pNode === primaryNode) {
      // Its data is on the node that left: red until that node is back, then there again.
      expect(after.indices.p!.shards[0]![0]).toMatchObject({
        state: 'UNASSIGNED',
        unassigned: { lastNode: pNode },
      });
      const back = run(after, idx, ['n1', 'n2']);
      expect(back.indices.p!.shards[0]![0]).toMatchObject({ state: 'INITIALIZING', node: pNode });
    }
  });

  it('follows the number of replicas, dropping unassigned copies first', () => {
    const two = [{ name: 'i', uuid: 'u', shards: 1, replicas: 2 }];
    const t = settle(EMPTY_ROUTING, two, ['n1', 'n2']);
    expect(t.indices.i!.shards[0]!.map((c) => c.state)).toEqual(['STARTED', 'STARTED', 'UNASSIGNED']);
    const one = run(t, [{ ...two[0]!, replicas: 1 }], ['n1', 'n2']);
    expect(one.indices.i!.shards[0]!.map((c) => c.state)).toEqual(['STARTED', 'STARTED']);
  });

  it('drops deleted indices and starts over for an index of the same name and another uuid', () => {
    const t = settle(EMPTY_ROUTING, [{ name: 'i', uuid: 'u', shards: 1, replicas: 0 }], ['n1']);
    expect(run(t, [], ['n1'])).toEqual(EMPTY_ROUTING);
    const again = run(t, [{ name: 'i', uuid: 'v', shards: 2, replicas: 0 }], ['n1']);
    expect(again.indices.i).toMatchObject({ uuid: 'v' });
    expect(again.indices.i!.shards.flat().every((c) => c.state === 'INITIALIZING')).toBe(true);
  });

  it('gives back the same table when nothing is to change', () => {
    const idx = [{ name: 'i', uuid: 'u', shards: 2, replicas: 1 }];
    const t = settle(EMPTY_ROUTING, idx, ['n1', 'n2']);
    expect(run(t, idx, ['n1', 'n2'])).toBe(t);
  });

  it('never promotes a replica that is not in sync: the shard waits for its primary', () => {
    const idx = [{ name: 'i', uuid: 'u', shards: 1, replicas: 1 }];
    // The primary started; its replica was placed and is still recovering.
    const placed = run(EMPTY_ROUTING, idx, ['n1', 'n2']);
    const p0 = placed.indices.i!.shards[0]![0]!;
    const t = run(withShardStarted(placed, 'i', 0, p0.allocationId!), idx, ['n1', 'n2']);
    const [p, r] = t.indices.i!.shards[0]!;
    expect(p!.inSync).toBe(true);
    expect(r).toMatchObject({ state: 'INITIALIZING' });
    expect(r!.inSync).toBeUndefined();
    const after = run(t, idx, [r!.node!]);
    expect(after.indices.i!.shards[0]![0]).toMatchObject({
      primary: true,
      state: 'UNASSIGNED',
      unassigned: { reason: 'NODE_LEFT', lastNode: p!.node },
    });
    // With no active primary to recover from, the recovering replica fails too.
    expect(after.indices.i!.shards[0]![1]).toMatchObject({ state: 'UNASSIGNED' });
  });

  it('counts a replica in sync once it has started (recovered from its primary)', () => {
    const idx = [{ name: 'i', uuid: 'u', shards: 1, replicas: 1 }];
    const t = settle(EMPTY_ROUTING, idx, ['n1', 'n2']);
    expect(t.indices.i!.shards[0]!.map((c) => c.inSync)).toEqual([true, true]);
  });

  it('a failed primary is replaced by its in-sync replica', () => {
    const idx = [{ name: 'i', uuid: 'u', shards: 1, replicas: 1 }];
    const t = inSync(settle(EMPTY_ROUTING, idx, ['n1', 'n2']));
    const p = t.indices.i!.shards[0]![0]!;
    const failed = withShardFailed(t, 'i', 0, p.allocationId!, 'disk', 0);
    expect(failed.indices.i!.shards[0]![0]).toMatchObject({ primary: true, state: 'STARTED' });
    expect(failed.indices.i!.shards[0]![0]!.node).not.toBe(p.node);
  });

  it('keeps its rules over random sequences of nodes joining and leaving and indices changing', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rnd = new Prng(seed);
      const pick = (n: number) => Math.floor(rnd.next() * n);
      let nodes = ['n1', 'n2', 'n3'];
      let indices: IndexToAllocate[] = [];
      let t: RoutingTable = EMPTY_ROUTING;
      for (let step = 0; step < 25; step++) {
        const what = pick(6);
        if (what === 0)
          indices = [
            ...indices,
            { name: `i${step}`, uuid: `u${step}`, shards: 1 + pick(4), replicas: pick(3) },
          ];
        else if (what === 1 && indices.length > 0)
          indices = indices.filter((_, i) => i !== pick(indices.length));
        else if (what === 2 && indices.length > 0) {
          const k = pick(indices.length);
          indices = indices.map((x, i) => (i === k ? { ...x, replicas: pick(3) } : x));
        } else if (what === 3 && nodes.length > 1) nodes = nodes.filter((_, i) => i !== pick(nodes.length));
        else if (what === 4 && nodes.length < 5) nodes = [...nodes, `n${4 + step}`];
        t = what === 5 ? settle(t, indices, nodes) : run(t, indices, nodes);
        checkInvariants(t, indices, nodes);
      }
      // Settled with enough nodes, every copy is started and the shard counts differ by at most one.
      const many = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];
      const fresh = settle(EMPTY_ROUTING, indices, many);
      checkInvariants(fresh, indices, many);
      expect(all(fresh).every((c) => c.state === 'STARTED')).toBe(true);
      const counts = many.map((n) => perNode(fresh).get(n) ?? 0);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });
});
