/**
 * Primary terms, as Elasticsearch's IndexMetadata keeps them per shard: a shard's term rises
 * by one each time its primary is given to another allocation (a replica promoted, or a new
 * copy assigned after the last one was lost), so operations of a deposed primary are known
 * by their older term and refused by the copies that saw the change. A new index starts at 1.
 */
import type { IndexRouting, RoutingTable } from './routing-table.ts';

/** The term of shard `shard` of an index's routing (1 when none is recorded). */
export function primaryTermOf(r: IndexRouting | undefined, shard: number): number {
  return r?.primaryTerms?.[shard] ?? 1;
}

/**
 * `next` with each index's primary terms carried over from `prev` and raised where the
 * primary's allocation changed to a new one; `next` itself when nothing changed.
 */
export function withPrimaryTerms(prev: RoutingTable, next: RoutingTable): RoutingTable {
  let indices: Record<string, IndexRouting> | undefined;
  for (const [name, r] of Object.entries(next.indices)) {
    const before = prev.indices[name];
    const same = before !== undefined && before.uuid === r.uuid;
    const terms = r.shards.map((copies, id) => {
      const term = same ? primaryTermOf(before, id) : primaryTermOf(r, id);
      const now = copies[0]?.allocationId ?? null;
      const was = same ? (before.shards[id]?.[0]?.allocationId ?? null) : now;
      return now !== null && now !== was ? term + 1 : term;
    });
    const had = r.primaryTerms;
    const unchanged =
      (had === undefined && terms.every((t) => t === 1)) ||
      (had !== undefined && had.length === terms.length && had.every((t, i) => t === terms[i]));
    if (unchanged) continue;
    indices ??= { ...next.indices };
    indices[name] = { ...r, primaryTerms: terms };
  }
  return indices ? { indices } : next;
}
