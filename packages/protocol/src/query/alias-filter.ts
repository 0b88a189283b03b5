/**
 * Alias filters as Elasticsearch applies them to a search (AliasFilter, ShardSearchRequest
 * .parseAliasFilter, DefaultSearchContext.buildFilteredQuery): the filters of the aliases an
 * index was reached through are OR-ed, and the result narrows the query as a non-scoring
 * clause, so the scores of the hits are those of the query alone.
 */
import type { QueryNode } from './ast.ts';

/** One alias: its filter as it is; several: a bool whose should clauses are their filters. */
export function combineAliasFilters(filters: readonly QueryNode[]): QueryNode {
  if (filters.length === 1) return filters[0]!;
  return { type: 'bool', must: [], filter: [], should: [...filters], mustNot: [], boost: 1 };
}

/** `bool { must: query, filter: aliasFilter }`, what a shard reached through filtered aliases runs. */
export function withAliasFilter(query: QueryNode, aliasFilter: QueryNode): QueryNode {
  // A knn search picks its nearest neighbours among the alias's documents, not before them.
  if (query.type === 'knn') return { ...query, filter: [...query.filter, aliasFilter] };
  return { type: 'bool', must: [query], filter: [aliasFilter], should: [], mustNot: [], boost: 1 };
}
