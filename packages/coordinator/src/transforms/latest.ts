/**
 * The latest function at work: the source is walked with `search_after`, sorted by the unique
 * key fields and then by the `sort` field descending, so the first document of each key is its
 * latest; that document's `_source` is written as it is, under an `_id` derived from the key.
 * Documents missing a key field are left out. A page boundary can split only documents with
 * equal key and sort values, and of those only the first is ever written.
 */
import type { LatestConfig } from './latest-config.ts';
import { type DestDoc, docIdOf, type PageResult } from './pivot.ts';

export interface LatestPosition {
  searchAfter: unknown[];
  /** The key of the last document of the previous page (its later documents are older). */
  lastKey: string;
}

export function latestPageBody(
  l: LatestConfig,
  query: Record<string, unknown>,
  size: number,
  after: LatestPosition | undefined,
  runtimeMappings?: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    size,
    query: { bool: { filter: [query, ...l.uniqueKey.map((field) => ({ exists: { field } }))] } },
    sort: [...l.uniqueKey.map((k) => ({ [k]: { order: 'asc' } })), { [l.sort]: { order: 'desc' } }],
    track_total_hits: false,
  };
  if (after) body.search_after = after.searchAfter;
  if (runtimeMappings) body.runtime_mappings = runtimeMappings;
  return body;
}

export function readLatestPage(
  l: LatestConfig,
  response: Record<string, unknown>,
  after: LatestPosition | undefined,
): PageResult & { position: LatestPosition | undefined } {
  const hits = ((response.hits as { hits?: Record<string, unknown>[] } | undefined)?.hits ?? []) as {
    _source?: Record<string, unknown>;
    sort?: unknown[];
  }[];
  const docs: DestDoc[] = [];
  let lastKey = after?.lastKey;
  for (const h of hits) {
    const keys = (h.sort ?? []).slice(0, l.uniqueKey.length);
    const key = JSON.stringify(keys);
    if (key === lastKey) continue;
    lastKey = key;
    docs.push({ id: docIdOf(keys), source: h._source ?? {} });
  }
  const last = hits[hits.length - 1];
  const position =
    last === undefined ? undefined : { searchAfter: last.sort ?? [], lastKey: lastKey ?? JSON.stringify([]) };
  return {
    docs,
    after: position as unknown as Record<string, unknown> | undefined,
    docsProcessed: hits.length,
    position,
  };
}
