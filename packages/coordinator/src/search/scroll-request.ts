/**
 * The scroll and clear-scroll requests (RestSearchScrollAction, RestClearScrollAction,
 * paging.md §3.2, §3.3): ids and keep-alive from the path or the query string, then from the
 * body, which wins; the body's own shape rules and errors (#48–#50); and clearing.
 */
import { actionRequestValidation, illegalArgument, parseTimeValue, tokenOf } from '@shoal/protocol';
import { decodeScrollId } from '../contexts/context-id.ts';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';

function unknownParameter(key: string, v: unknown): Error {
  return illegalArgument(
    `Unknown parameter [${key}] in request body or parameter is of the wrong type[${tokenOf(v)}] `,
  );
}

function bodyObject(req: RestRequest): Record<string, unknown> | undefined {
  const body = req.json();
  if (body === undefined) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw illegalArgument('Malformed content, must start with an object');
  }
  return body as Record<string, unknown>;
}

export interface ScrollRequest {
  scrollId: string;
  keepAliveMs?: number;
}

export function parseScrollRequest(req: RestRequest): ScrollRequest {
  let scrollId = req.params.scroll_id ?? req.query.scroll_id;
  let keepAlive = req.query.scroll;
  const body = bodyObject(req);
  for (const [key, v] of Object.entries(body ?? {})) {
    if (key === 'scroll_id' && typeof v === 'string') scrollId = v;
    else if (key === 'scroll' && typeof v === 'string') keepAlive = v;
    else throw unknownParameter(key, v);
  }
  if (scrollId === undefined || scrollId === '') throw actionRequestValidation(['scrollId is missing']);
  const out: ScrollRequest = { scrollId };
  if (keepAlive !== undefined) out.keepAliveMs = parseTimeValue(keepAlive, 'scroll');
  return out;
}

export function parseClearScrollRequest(req: RestRequest): string[] {
  const fromUrl = req.params.scroll_id ?? req.query.scroll_id;
  let ids =
    fromUrl === undefined
      ? []
      : fromUrl
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== '');
  const body = bodyObject(req);
  if (body) {
    ids = [];
    for (const [key, v] of Object.entries(body)) {
      if (key !== 'scroll_id') throw unknownParameter(key, v);
      for (const one of Array.isArray(v) ? v : [v]) {
        if (one === null || typeof one === 'object') {
          throw illegalArgument(
            Array.isArray(v)
              ? 'scroll_id array element should only contain scroll_id'
              : 'scroll_id element should only contain scroll_id',
          );
        }
        ids.push(String(one));
      }
    }
  }
  if (ids.length === 0) throw actionRequestValidation(['no scroll ids specified']);
  return ids;
}

/**
 * Clears scrolls; `num_freed` counts shard contexts, or for `_all` the nodes that answered
 * (ClearScrollController). Every id is decoded first, so one bad id clears nothing.
 */
export async function clearScrolls(
  s: NodeServices,
  ids: string[],
): Promise<{ status: number; freed: number }> {
  if (ids.includes('_all')) {
    await s.leases.freeAllScrolls();
    return { status: 200, freed: 1 };
  }
  const decoded = ids.map(decodeScrollId);
  let freed = 0;
  for (const id of decoded) {
    s.leases.remove(id.lease);
    freed += await s.leases.free(id.shards, 'closed');
  }
  return { status: freed > 0 ? 200 : 404, freed };
}
