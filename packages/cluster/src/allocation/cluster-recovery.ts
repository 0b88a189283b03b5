/**
 * The routing table after a full-cluster restart, as Elasticsearch's gateway recovers it. The
 * table read from disk names copies on nodes as they were before the restart; none of them is
 * open now. On the first election the master makes every copy unassigned (`CLUSTER_RECOVERED`),
 * remembering the node it was on and whether it was in sync; a recovered primary then goes
 * only to a node that held an in-sync copy and has the shard's data on disk (the allocator
 * asks `hasShardData`), and stays unassigned (its index red) until such a node has joined, so
 * that no empty primary ever replaces data. A shard that never had an in-sync copy (its
 * primary never started) is placed as a new one. Replicas follow their started primaries.
 */
import type { IndexToAllocate } from './allocator.ts';
import type { IndexRouting, RoutingTable, ShardRouting } from './routing-table.ts';

const recovered = (c: ShardRouting, now: number): ShardRouting => {
  const lastNode = c.node ?? c.unassigned?.lastNode;
  // A primary lost with its node before the restart was in sync there (it waited for that node).
  const inSync =
    c.inSync === true ||
    (c.primary && c.node === null && c.unassigned?.reason === 'NODE_LEFT' && lastNode !== undefined);
  return {
    shard: c.shard,
    primary: c.primary,
    state: 'UNASSIGNED',
    node: null,
    allocationId: null,
    unassigned: { reason: 'CLUSTER_RECOVERED', at: now, ...(lastNode !== undefined ? { lastNode } : {}) },
    ...(inSync && lastNode !== undefined ? { inSync: true } : {}),
  };
};

/** `routing` (as recovered from disk) with every copy of every index unassigned, `CLUSTER_RECOVERED`. */
export function recoveredRouting(
  routing: RoutingTable,
  indices: readonly IndexToAllocate[],
  now: number,
): RoutingTable {
  const out: Record<string, IndexRouting> = {};
  for (const spec of indices) {
    const had = routing.indices[spec.name];
    const known = had !== undefined && had.uuid === spec.uuid && had.shards.length === spec.shards;
    const shards = Array.from({ length: spec.shards }, (_, id) => {
      const copies: ShardRouting[] = known ? had.shards[id]!.map((c) => recovered(c, now)) : [];
      if (copies.length === 0) {
        for (let i = 0; i <= spec.replicas; i++)
          copies.push({
            shard: id,
            primary: i === 0,
            state: 'UNASSIGNED',
            node: null,
            allocationId: null,
            unassigned: { reason: 'CLUSTER_RECOVERED', at: now },
          });
      }
      return copies;
    });
    out[spec.name] = { uuid: spec.uuid, shards };
  }
  return { indices: out };
}

/**
 * The nodes that held an in-sync copy of a shard before the restart, for its recovered
 * primary; empty when the shard never had one (or its primary is not a recovered one).
 */
export function inSyncHolders(copies: readonly ShardRouting[]): string[] {
  if (copies[0]?.unassigned?.reason !== 'CLUSTER_RECOVERED') return [];
  const out: string[] = [];
  for (const c of copies) {
    const last = c.unassigned?.lastNode;
    if (c.node === null && c.inSync === true && last !== undefined && !out.includes(last)) out.push(last);
  }
  return out;
}

/** Whether some recovered primary waits for a node that holds its data: store listings are needed. */
export function awaitsShardData(routing: RoutingTable): boolean {
  for (const r of Object.values(routing.indices))
    for (const copies of r.shards)
      if (copies[0]?.node === null && inSyncHolders(copies).length > 0) return true;
  return false;
}
