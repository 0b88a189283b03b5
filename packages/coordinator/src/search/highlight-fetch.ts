/**
 * The highlight part of a fetch request: the search's `highlight` and query, and
 * `index.highlight.max_analyzed_offset` of each index the shards belong to (only where it is
 * not the default, so a plain highlighted search sends no map). Absent without `highlight`.
 */
import { DEFAULT_MAX_ANALYZED_OFFSET, type HighlightFetch } from '@shoal/engine';
import { getInt, type SearchRequest } from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { ShardTarget } from './shard-targets.ts';

export function highlightFetch(
  search: SearchRequest,
  metas: Iterable<IndexMetadata>,
): { highlight: HighlightFetch } | Record<string, never> {
  if (!search.highlight) return {};
  const fetch: HighlightFetch = { spec: search.highlight, query: search.query };
  for (const meta of metas) {
    const limit = getInt(meta.settings, 'index.highlight.max_analyzed_offset');
    if (limit !== DEFAULT_MAX_ANALYZED_OFFSET) {
      fetch.maxAnalyzedOffset ??= {};
      fetch.maxAnalyzedOffset[meta.name] = limit;
    }
  }
  return { highlight: fetch };
}

/** The distinct indices of some shard targets. */
export function targetMetas(targets: readonly ShardTarget[]): Set<IndexMetadata> {
  return new Set(targets.map((t) => t.meta));
}
