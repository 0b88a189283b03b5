/**
 * Search `explain`: each shard explains its fetched hits against the query its query phase ran
 * (alias filter, index boost and post_filter folded in as there; document-level security as
 * its reader applied it), and each hit names the shard and node it came from.
 */
import type { HitExplainSpec, ShardFetchRequest } from '@shoal/engine';
import type { SearchRequest, SortSpec } from '@shoal/protocol';
import type { FetchedHit } from './fetch-phase.ts';
import type { ShardQueryOutcome } from './query-phase.ts';
import type { ShardFailure } from './shard-failure.ts';
import { shardRequests } from './shard-request.ts';

/** The explain part of each shard's fetch request, built from the shard's own query request. */
export function explainFetch(
  search: SearchRequest,
  sort: SortSpec[],
  numShards: number,
): (o: ShardQueryOutcome) => Pick<ShardFetchRequest, 'explain'> {
  const build = shardRequests(search, sort, numShards, 'scroll');
  return (o) => {
    const req = build(o.target);
    const explain: HitExplainSpec = { query: req.query };
    if (req.limits) explain.limits = req.limits;
    if (req.documentFilter) explain.documentFilter = req.documentFilter;
    return { explain };
  };
}

/**
 * A query the engine cannot explain fails the search with its 501 naming what is missing, as
 * `_explain` answers, rather than leaving its hits out as shard failures.
 */
export function refuseUnexplained(failures: readonly ShardFailure[]): void {
  const unexplained = failures.find((f) => f.error.status === 501);
  if (unexplained) throw unexplained.error;
}

/** Each explained hit is told the node its shard copy is on (`_node`). */
export function markNodes(hits: readonly (FetchedHit | undefined)[], localNode: string): void {
  for (const h of hits) if (h) h.node = h.outcome.target.copy?.node ?? localNode;
}

/** The `_shard` and `_node` an explained hit starts with (SearchHit#toXContent). */
export function explainedShard(f: FetchedHit, node: string): { _shard: string; _node: string } {
  const t = f.outcome.target;
  return { _shard: `[${t.meta.name}][${t.shardId}]`, _node: node };
}
