/**
 * The routing table of the cluster state: for every index, for every shard, its copies — the
 * primary first, then the replicas — each with its state and the node that holds it, as
 * Elasticsearch's IndexRoutingTable and ShardRouting have them.
 */

export type ShardRoutingState = 'UNASSIGNED' | 'INITIALIZING' | 'STARTED' | 'RELOCATING';

/** Why a copy is unassigned (Elasticsearch's UnassignedInfo.Reason names). */
export type UnassignedReason =
  | 'INDEX_CREATED'
  | 'REPLICA_ADDED'
  | 'NODE_LEFT'
  | 'ALLOCATION_FAILED'
  | 'PRIMARY_FAILED'
  | 'CLUSTER_RECOVERED';

export interface UnassignedInfo {
  reason: UnassignedReason;
  /** When it became unassigned (ms since the epoch). */
  at: number;
  /** The node that held the copy (lost with its node, or before a full-cluster restart): its data is there. */
  lastNode?: string;
  details?: string;
}

export interface ShardRouting {
  shard: number;
  primary: boolean;
  state: ShardRoutingState;
  node: string | null;
  /** Unique to one assignment of the copy; null while unassigned. */
  allocationId: string | null;
  unassigned?: UnassignedInfo;
  /**
   * The copy has every acknowledged operation of its shard (Elasticsearch's in-sync
   * allocation ids): only such a copy may become primary. A started primary is; a replica is
   * once it has recovered from its primary and receives its writes.
   */
  inSync?: boolean;
}

export interface IndexRouting {
  uuid: string;
  /** `shards[id]`: the copies of shard `id`, the primary first. */
  shards: ShardRouting[][];
  /** Each shard's primary term (primary-terms.ts); absent: 1 for every shard. */
  primaryTerms?: readonly number[];
}

export interface RoutingTable {
  indices: Readonly<Record<string, IndexRouting>>;
}

export const EMPTY_ROUTING: RoutingTable = { indices: {} };

export const isActive = (r: ShardRouting): boolean => r.state === 'STARTED' || r.state === 'RELOCATING';
export const isAssigned = (r: ShardRouting): boolean => r.node !== null;

/** Every copy assigned to `nodeId`, with its index. */
export function copiesOnNode(table: RoutingTable, nodeId: string): { index: string; copy: ShardRouting }[] {
  const out: { index: string; copy: ShardRouting }[] = [];
  for (const [index, r] of Object.entries(table.indices)) {
    for (const copies of r.shards)
      for (const c of copies) if (c.node === nodeId) out.push({ index, copy: c });
  }
  return out;
}

/** The copy of `index`'s shard `shard` with `allocationId`, started; the table itself when there is none to start. */
export function withShardStarted(
  table: RoutingTable,
  index: string,
  shard: number,
  allocationId: string,
): RoutingTable {
  return mapCopy(table, index, shard, allocationId, (c) =>
    // A replica starts once it has recovered from its primary, which has been sending it every
    // write since the recovery began: from now on it is in sync (it may be promoted).
    c.state === 'INITIALIZING' ? { ...c, state: 'STARTED', inSync: true } : c,
  );
}

/**
 * The copy with `allocationId` failed on its node: it becomes unassigned (a failed primary is
 * replaced by a started replica when there is one, as Elasticsearch promotes it).
 */
export function withShardFailed(
  table: RoutingTable,
  index: string,
  shard: number,
  allocationId: string,
  details: string,
  now: number,
): RoutingTable {
  const r = table.indices[index];
  const copies = r?.shards[shard];
  const failed = copies?.find((c) => c.allocationId === allocationId);
  if (!r || !copies || !failed) return table;
  const unassigned: ShardRouting = {
    shard,
    primary: failed.primary,
    state: 'UNASSIGNED',
    node: null,
    allocationId: null,
    unassigned: { reason: 'ALLOCATION_FAILED', at: now, details },
  };
  let next = copies.map((c) => (c === failed ? unassigned : c));
  if (failed.primary) next = withoutOrphans(promoted(next, now) ?? next, now);
  return replaceShard(table, index, shard, next);
}

/**
 * The copies of a shard whose primary is unassigned, with a started in-sync replica made
 * primary (and the old primary a replica, still unassigned); undefined when there is none: a
 * stale copy is never promoted.
 */
export function promoted(copies: readonly ShardRouting[], _now: number): ShardRouting[] | undefined {
  const old = copies[0];
  if (!old || old.node !== null) return undefined;
  const heir = copies.find((c) => !c.primary && c.state === 'STARTED' && c.inSync === true);
  if (!heir) return undefined;
  const rest = copies.filter((c) => c !== heir && c !== old);
  return [{ ...heir, primary: true }, { ...old, primary: false }, ...rest];
}

/**
 * A replica recovers from its primary: with no active primary, a replica still initializing
 * fails too (Elasticsearch's PRIMARY_FAILED).
 */
export function withoutOrphans(copies: ShardRouting[], now: number): ShardRouting[] {
  if (isActive(copies[0]!) || !copies.some((c) => !c.primary && c.state === 'INITIALIZING')) return copies;
  return copies.map((c) =>
    !c.primary && c.state === 'INITIALIZING'
      ? {
          shard: c.shard,
          primary: false,
          state: 'UNASSIGNED',
          node: null,
          allocationId: null,
          unassigned: { reason: 'PRIMARY_FAILED', at: now },
        }
      : c,
  );
}

function mapCopy(
  table: RoutingTable,
  index: string,
  shard: number,
  allocationId: string,
  f: (c: ShardRouting) => ShardRouting,
): RoutingTable {
  const copies = table.indices[index]?.shards[shard];
  if (!copies) return table;
  let changed = false;
  const next = copies.map((c) => {
    if (c.allocationId !== allocationId) return c;
    const d = f(c);
    if (d !== c) changed = true;
    return d;
  });
  return changed ? replaceShard(table, index, shard, next) : table;
}

function replaceShard(
  table: RoutingTable,
  index: string,
  shard: number,
  copies: ShardRouting[],
): RoutingTable {
  const r = table.indices[index]!;
  const shards = r.shards.slice();
  shards[shard] = copies;
  return { indices: { ...table.indices, [index]: { ...r, shards } } };
}
