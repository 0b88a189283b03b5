/** The named-query part of a fetch request (`matched_queries`): absent when the query names none. */
import type { ShardFetchRequest } from '@shoal/engine';
import { namedQueries, type SearchRequest } from '@shoal/protocol';

export function matchedQueriesFetch(
  search: SearchRequest,
): Pick<ShardFetchRequest, 'namedQueries' | 'namedQueriesScore'> {
  const named = namedQueries(search.query);
  if (named.length === 0) return {};
  return search.includeNamedQueriesScore
    ? { namedQueries: named, namedQueriesScore: true }
    : { namedQueries: named };
}
