/**
 * The alias filter of each index a read reaches (IndexNameExpressionResolver.filteringAliases,
 * IndicesService.buildAliasFilter): an index reached only through aliases that all have a
 * filter is read through the OR of their filters; an index also reached by its own name (or a
 * wildcard on index names), or through any alias without a filter, is read whole.
 */
import { combineAliasFilters, parseQuery, type QueryNode } from '@shoal/protocol';
import type { AliasMetadata, IndexMetadata } from '../state/index-metadata.ts';
import type { ReachedNames } from '../state/resolve-indices.ts';

/** The names of the filtering aliases `meta` was reached through, or undefined when none apply. */
export function filteringAliases(meta: IndexMetadata, reached: ReachedNames): string[] | undefined {
  if (!reached.aliases || reached.indices?.has(meta.name)) return undefined;
  const names: string[] = [];
  for (const alias of reached.aliases) {
    const a = meta.aliases.get(alias);
    if (!a) continue;
    if (!a.filter) return undefined;
    names.push(alias);
  }
  return names.length > 0 ? names : undefined;
}

/** Alias metadata is replaced, never mutated: each filter is parsed once. */
const parsed = new WeakMap<AliasMetadata, QueryNode>();

/**
 * An alias filter as a query; parsed as a request's query is, so that the shards build it (and
 * fail on it) the same way. The filter was validated when the alias was added.
 */
export function aliasFilterQuery(alias: AliasMetadata): QueryNode {
  let q = parsed.get(alias);
  if (!q) {
    q = parseQuery(alias.filter);
    parsed.set(alias, q);
  }
  return q;
}

/** The filter the shards of `meta` read through, when it was reached through filtering aliases. */
export function aliasFilterFor(meta: IndexMetadata, reached: ReachedNames): QueryNode | undefined {
  const names = filteringAliases(meta, reached);
  if (!names) return undefined;
  return combineAliasFilters(names.map((n) => aliasFilterQuery(meta.aliases.get(n)!)));
}
