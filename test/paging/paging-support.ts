/**
 * Helpers for the paging end-to-end tests: index set-up over real HTTP, and the three ways to
 * walk a whole result (PIT + search_after, scroll, slices of either), each returning the hits
 * in the order they came.
 */
import { expect } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';

export type Json = Record<string, unknown>;

export interface Hit {
  _index: string;
  _id: string;
  _source?: Json;
  sort?: unknown[];
}

export async function createIndex(url: string, index: string, body: Json): Promise<void> {
  const r = await http(url, 'PUT', `/${index}`, body);
  expect(r.status, r.text).toBe(200);
}

/** Bulk-indexes `[id, source]` pairs (`null` source deletes) and refreshes when asked. */
export async function bulk(
  url: string,
  index: string,
  docs: [string, Json | null][],
  refresh = true,
): Promise<void> {
  if (docs.length === 0) return;
  const lines: unknown[] = [];
  for (const [id, src] of docs) {
    if (src === null) lines.push({ delete: { _index: index, _id: id } });
    else lines.push({ index: { _index: index, _id: id } }, src);
  }
  const r = await http(url, 'POST', `/_bulk${refresh ? '?refresh=true' : ''}`, ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(r.status, r.text).toBe(200);
  expect(r.json.errors, r.text).toBe(false);
}

export async function refresh(url: string, index: string): Promise<void> {
  const r = await http(url, 'POST', `/${index}/_refresh`);
  expect(r.status, r.text).toBe(200);
}

export async function openPit(url: string, index: string, keepAlive = '5m'): Promise<string> {
  const r = await http(url, 'POST', `/${index}/_pit?keep_alive=${keepAlive}`);
  expect(r.status, r.text).toBe(200);
  return r.json.id as string;
}

export async function closePit(url: string, id: string): Promise<HttpResult> {
  return http(url, 'DELETE', '/_pit', { id });
}

export async function search(url: string, path: string, body: Json): Promise<HttpResult> {
  return http(url, 'POST', path, body);
}

/** Walks a PIT with search_after; `between` runs after each page (writes, refreshes…). */
export async function walkPit(
  url: string,
  pit: string,
  body: Json,
  between: () => Promise<void> = async () => {},
): Promise<Hit[]> {
  const out: Hit[] = [];
  let id = pit;
  let after: unknown[] | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const req: Json = { ...body, pit: { id, keep_alive: '1m' } };
    if (after) req.search_after = after;
    const r = await search(url, '/_search', req);
    expect(r.status, r.text).toBe(200);
    id = r.json.pit_id;
    const hits = r.json.hits.hits as Hit[];
    if (hits.length === 0) return out;
    out.push(...hits);
    after = hits[hits.length - 1]!.sort;
    await between();
  }
  throw new Error('PIT walk did not end');
}

/** Starts a scroll on `path` and continues it to the end; `between` runs after each page. */
export async function walkScroll(
  url: string,
  path: string,
  body: Json,
  between: () => Promise<void> = async () => {},
): Promise<{ hits: Hit[]; totals: unknown[]; scrollId: string }> {
  const first = await search(url, `${path}${path.includes('?') ? '&' : '?'}scroll=1m`, body);
  expect(first.status, first.text).toBe(200);
  const hits: Hit[] = [...first.json.hits.hits];
  const totals: unknown[] = [first.json.hits.total];
  let scrollId = first.json._scroll_id as string;
  let last = first.json.hits.hits.length;
  for (let guard = 0; last > 0 && guard < 100_000; guard++) {
    await between();
    const r = await http(url, 'POST', '/_search/scroll', { scroll_id: scrollId, scroll: '1m' });
    expect(r.status, r.text).toBe(200);
    scrollId = r.json._scroll_id;
    totals.push(r.json.hits.total);
    hits.push(...r.json.hits.hits);
    last = r.json.hits.hits.length;
  }
  return { hits, totals, scrollId };
}

export async function clearScroll(url: string, scrollId: string): Promise<HttpResult> {
  return http(url, 'DELETE', '/_search/scroll', { scroll_id: scrollId });
}

export async function searchStats(url: string): Promise<Json> {
  const r = await http(url, 'GET', '/_nodes/stats/indices/search');
  expect(r.status, r.text).toBe(200);
  const nodes = Object.values(r.json.nodes as Record<string, { indices: { search: Json } }>);
  return nodes[0]!.indices.search;
}

/** The documents of an index (matching `query`, when given) once it is refreshed. */
export async function refreshedCount(url: string, index: string, query?: Json): Promise<number> {
  await refresh(url, index);
  const r = await http(url, 'POST', `/${index}/_count`, query ? { query } : undefined);
  expect(r.status, r.text).toBe(200);
  return r.json.count as number;
}

export function ids(hits: Hit[]): string[] {
  return hits.map((h) => h._id);
}

/** `{type, reason}` of the first root cause, with the top-level type and the HTTP status. */
export function errorOf(r: HttpResult): { status: number; type: string; root: string; reason: string } {
  const e = r.json?.error ?? {};
  return {
    status: r.status,
    type: e.type,
    root: e.root_cause?.[0]?.type,
    reason: e.root_cause?.[0]?.reason ?? e.reason,
  };
}
