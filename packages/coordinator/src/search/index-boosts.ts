/**
 * `indices_boost` on the coordinator, as TransportSearchAction.resolveIndexBoosts does it: each
 * entry's expression (a name, an alias, a wildcard) is resolved with the request's indices
 * options, and an index keeps the boost of the first entry that reaches it. An expression naming
 * no index fails the search with `index_not_found_exception` unless `ignore_unavailable` allows
 * it. Each shard of a boosted index then runs its query inside a BoostQuery
 * (DefaultSearchContext.preProcess), whose boost multiplies into every leaf's boost.
 */
import { illegalArgument, javaFloat, type QueryNode, type SearchRequest } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { IndicesOptions } from '../state/resolve-indices.ts';

/** Index uuid → boost, per search; kept beside the request rather than inside the protocol type. */
const resolved = new WeakMap<SearchRequest, ReadonlyMap<string, number>>();

/** Resolves the request's `indices_boost` entries (when it has any) for its shard requests. */
export function resolveIndexBoosts(s: NodeServices, search: SearchRequest, opts: IndicesOptions): void {
  const entries = search.indicesBoost;
  if (entries === undefined) return;
  const boosts = new Map<string, number>();
  for (const e of entries) {
    for (const meta of s.indices.resolve(e.index, opts)) {
      if (!boosts.has(meta.uuid)) boosts.set(meta.uuid, e.boost);
    }
  }
  resolved.set(search, boosts);
}

/** The boost the shards of `meta` apply (1: none). */
export function indexBoostOf(search: SearchRequest, meta: IndexMetadata): number {
  return resolved.get(search)?.get(meta.uuid) ?? 1;
}

/**
 * Lucene's BoostQuery refuses a negative boost when the shard builds its query, so every shard of
 * such an index fails with this error.
 */
export function indexBoostError(search: SearchRequest, meta: IndexMetadata) {
  const boost = indexBoostOf(search, meta);
  if (boost < 0 || Object.is(boost, -0))
    return illegalArgument(`boost must be a positive float, got ${javaFloat(boost)}`);
  return null;
}

/**
 * `query` scored × `boost`: the boost goes into the query's own (every query node carries one),
 * as BoostQuery.rewrite folds nested boosts, so the leaves score with the product in float.
 */
export function boostedQuery(query: QueryNode, boost: number): QueryNode {
  if (boost === 1) return query;
  if ('boost' in query) return { ...query, boost: Math.fround(query.boost * boost) } as QueryNode;
  return { type: 'bool', must: [query], filter: [], should: [], mustNot: [], boost };
}
