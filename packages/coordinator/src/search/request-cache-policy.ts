/**
 * Which searches the shard request cache may answer (IndicesService.canCache): searches that
 * return no hits (`size: 0`: their totals and aggregations), on indices with
 * `index.requests.cache.enable` (default true) unless the `request_cache` parameter says
 * otherwise. A search whose results depend on when it runs is never cached: date math on `now`
 * anywhere in its query, post_filter, aggregations or runtime mappings, and scripts (which may
 * read the clock or draw random numbers; Elasticsearch looks inside them, Shoal does not).
 * Scrolls and PIT searches never reach it.
 */
import { getBool, type SearchRequest } from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';

/** Whether the search itself may be cached, whatever its indices say. */
export function cacheableSearch(search: SearchRequest): boolean {
  if (search.requestCache === false || search.size !== 0) return false;
  if (search.scripts !== undefined && search.scripts.length > 0) return false;
  return !readsTheClock([search.query, search.postFilter, search.aggs, search.runtimeMappings]);
}

/** Whether the shards of `meta` cache such a search: the parameter, else the index setting. */
export function indexCachesRequests(meta: IndexMetadata, search: SearchRequest): boolean {
  return search.requestCache === true || getBool(meta.settings, 'index.requests.cache.enable');
}

/** Any string that starts as date math on `now` (`now`, `now-1d/d`, `now+1h`…). */
function readsTheClock(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.startsWith('now')) return true;
    } else if (v !== null && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
      else if (Array.isArray(v)) for (const x of v) stack.push(x);
      else if (!ArrayBuffer.isView(v)) for (const x of Object.values(v)) stack.push(x);
    }
  }
  return false;
}
