/**
 * The master's shard allocation, after Elasticsearch's AllocationService.reroute with its basic
 * deciders: the routing table follows the indices (new ones, deleted ones, a changed number of
 * replicas), copies on nodes that left are unassigned (a lost primary is replaced by a started
 * replica), and unassigned copies are placed:
 *
 * - same shard: never two copies of one shard on one node;
 * - replica after primary: a replica is placed once its primary is started (it recovers from it);
 * - a primary lost with its node waits for that node (its data is there), as Elasticsearch's
 *   gateway allocator does; a primary recovered after a full-cluster restart goes to a node that
 *   held an in-sync copy and has its data on disk (cluster-recovery.ts); a new primary goes anywhere;
 * - balance: the node with the fewest copies wins (ties by node id, so the outcome is the
 *   same on every run).
 *
 * Pure: the same inputs give the same table, and a table that needs no change comes back as it is.
 */
import { inSyncHolders } from './cluster-recovery.ts';
import {
  type IndexRouting,
  promoted,
  type RoutingTable,
  type ShardRouting,
  type UnassignedReason,
  withoutOrphans,
} from './routing-table.ts';

/** What allocation reads of an index's metadata. */
export interface IndexToAllocate {
  name: string;
  uuid: string;
  shards: number;
  replicas: number;
}

export interface RerouteInput {
  routing: RoutingTable;
  indices: readonly IndexToAllocate[];
  /** The ids of the data nodes in the cluster now. */
  dataNodes: readonly string[];
  /** New allocation ids. */
  newId: () => string;
  now: number;
  /**
   * Whether `node` has data of the shard on disk (its store listing), for primaries recovered
   * after a full-cluster restart; without it they wait.
   */
  hasShardData?: (node: string, indexUuid: string, shard: number) => boolean;
}

const unassigned = (
  shard: number,
  primary: boolean,
  reason: UnassignedReason,
  now: number,
): ShardRouting => ({
  shard,
  primary,
  state: 'UNASSIGNED',
  node: null,
  allocationId: null,
  unassigned: { reason, at: now },
});

/** A copy whose node left: unassigned, remembering the node (its data is there). */
const lost = (c: ShardRouting, now: number): ShardRouting => ({
  shard: c.shard,
  primary: c.primary,
  state: 'UNASSIGNED',
  node: null,
  allocationId: null,
  unassigned: { reason: 'NODE_LEFT', at: now, lastNode: c.node ?? undefined },
});

/** The copies of shard `id` with `replicas` replicas: extra ones dropped (unassigned first), missing ones added. */
function withReplicaCount(copies: ShardRouting[], id: number, replicas: number, now: number): ShardRouting[] {
  const [primary, ...rest] = copies;
  if (rest.length === replicas) return copies;
  if (rest.length < replicas) {
    const added = Array.from({ length: replicas - rest.length }, () =>
      unassigned(id, false, 'REPLICA_ADDED', now),
    );
    return [primary!, ...rest, ...added];
  }
  const rank = (c: ShardRouting) => (c.node === null ? 0 : c.state === 'INITIALIZING' ? 1 : 2);
  const kept = rest
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(b.c) - rank(a.c) || a.i - b.i)
    .slice(0, replicas)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.c);
  return [primary!, ...kept];
}

export function reroute(input: RerouteInput): RoutingTable {
  const { now } = input;
  const live = new Set(input.dataNodes);
  const indices: Record<string, IndexRouting> = {};
  let changed = Object.keys(input.routing.indices).length !== input.indices.length;
  for (const spec of input.indices) {
    const had = input.routing.indices[spec.name];
    let shards: ShardRouting[][];
    if (!had || had.uuid !== spec.uuid) {
      changed = true;
      shards = Array.from({ length: spec.shards }, (_, id) => [
        unassigned(id, true, 'INDEX_CREATED', now),
        ...Array.from({ length: spec.replicas }, () => unassigned(id, false, 'INDEX_CREATED', now)),
      ]);
    } else {
      shards = had.shards.map((copies, id) => {
        let next = withReplicaCount(copies, id, spec.replicas, now);
        if (next.some((c) => c.node !== null && !live.has(c.node))) {
          next = next.map((c) => (c.node !== null && !live.has(c.node) ? lost(c, now) : c));
          next = withoutOrphans(promoted(next, now) ?? next, now);
        }
        return next;
      });
      if (shards.some((s, i) => s !== had.shards[i])) changed = true;
    }
    const terms = had?.uuid === spec.uuid ? had.primaryTerms : undefined;
    indices[spec.name] = terms
      ? { uuid: spec.uuid, shards, primaryTerms: terms }
      : { uuid: spec.uuid, shards };
  }
  if (assignUnassigned(indices, input)) changed = true;
  return changed ? { indices } : input.routing;
}

/** Places unassigned copies where the deciders allow; true when any was placed. */
function assignUnassigned(indices: Record<string, IndexRouting>, input: RerouteInput): boolean {
  const nodes = [...input.dataNodes].sort();
  if (nodes.length === 0) return false;
  const load = new Map(nodes.map((n) => [n, 0]));
  for (const r of Object.values(indices)) {
    for (const copies of r.shards)
      for (const c of copies) if (c.node !== null) load.set(c.node, (load.get(c.node) ?? 0) + 1);
  }
  /**
   * The least-loaded allowed node; ties go to the first one after `after` in node order (a
   * replica to the node after its primary's), which spreads the copies of a new index evenly.
   */
  const leastLoaded = (allowed: (n: string) => boolean, after?: string): string | undefined => {
    const start = after === undefined ? 0 : nodes.findIndex((n) => n > after);
    let best: string | undefined;
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[(Math.max(start, 0) + k) % nodes.length]!;
      if (allowed(n) && (best === undefined || load.get(n)! < load.get(best)!)) best = n;
    }
    return best;
  };
  let placed = false;
  const names = Object.keys(indices).sort();
  // Primaries first, then replicas (whose primaries may have started meanwhile, in a later reroute).
  for (const wantPrimary of [true, false]) {
    for (const name of names) {
      const r = indices[name]!;
      r.shards = r.shards.map((copies) => {
        let out = copies;
        for (let i = 0; i < out.length; i++) {
          const c = out[i]!;
          if (c.node !== null || c.primary !== wantPrimary) continue;
          const holders = new Set(out.filter((x) => x.node !== null).map((x) => x.node!));
          let node: string | undefined;
          let inSync = false;
          if (c.primary) {
            const last = c.unassigned?.lastNode;
            const recovered = inSyncHolders(out);
            if (recovered.length > 0) {
              // Recovered after a full restart: only onto an in-sync copy's data.
              const has = input.hasShardData;
              node = leastLoaded(
                (n) => !holders.has(n) && recovered.includes(n) && has?.(n, r.uuid, c.shard) === true,
              );
              inSync = true;
            }
            // A primary lost with its node waits for it; a new (or failed) one goes anywhere.
            else if (last !== undefined && c.unassigned?.reason === 'NODE_LEFT')
              node = load.has(last) ? last : undefined;
            else node = leastLoaded((n) => !holders.has(n));
          } else {
            if (out[0]?.state !== 'STARTED') continue;
            node = leastLoaded((n) => !holders.has(n), out[0].node ?? undefined);
          }
          if (node === undefined) continue;
          load.set(node, load.get(node)! + 1);
          const assigned: ShardRouting = {
            shard: c.shard,
            primary: c.primary,
            state: 'INITIALIZING',
            node,
            allocationId: input.newId(),
            ...(inSync ? { inSync: true } : {}),
          };
          out = out.map((x, j) => (j === i ? assigned : x));
          placed = true;
        }
        return out;
      });
    }
  }
  return placed;
}
