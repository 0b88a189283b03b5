/**
 * Scroll and point-in-time contexts belong to the user who opened them (Elasticsearch's
 * SecuritySearchOperationListener): the ids a user's searches are given are remembered with
 * their owner, and another user who continues, searches or clears one is told it does not
 * exist, as Elasticsearch answers (404 `search_context_missing_exception`). The ids are
 * opaque to security; a context whose id it never saw (opened while security was off) is
 * left alone.
 */
import { createHash } from 'node:crypto';
import { RawJson, searchContextMissing } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import type { AuthorizationRequest } from './authorizer.ts';

const SEARCH = 'indices:data/read/search';
const SCROLL = 'indices:data/read/scroll';
const CLEAR_SCROLL = 'indices:data/read/scroll/clear';
/** Elasticsearch's `_pit` actions, and the OpenSearch-style `_search/point_in_time` ones. */
const OPEN_PIT = new Set(['indices:data/read/open_point_in_time', 'indices:data/read/point_in_time/create']);
const CLOSE_PIT = new Set([
  'indices:data/read/close_point_in_time',
  'indices:data/read/point_in_time/delete',
]);

/** Ids remembered at most; the oldest are forgotten first (their contexts have long expired). */
const MAX_IDS = 50_000;
/** How much of a rendered response is read for its id (ids come first in these bodies). */
const HEAD_BYTES = 8192;

/**
 * What an id is remembered by: a 128-bit digest rather than the id itself (ids of contexts over
 * many shards run to kilobytes, and each scroll page may hand out a new one).
 */
function keyOf(id: string): string {
  return createHash('sha256').update(id).digest('base64').slice(0, 22);
}

function ownerOf(auth: Authentication): string {
  return auth.apiKey ? `api_key/${auth.apiKey.id}` : `${auth.lookupRealm.name}/${auth.user.username}`;
}

function idsOf(v: unknown): string[] {
  if (typeof v === 'string') return v.split(',').filter((s) => s !== '');
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

function bodyOf(req: AuthorizationRequest): Record<string, unknown> {
  if (req.body === undefined || req.body.length === 0) return {};
  const b = req.json();
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

/** A field of a response body, also when the body is a page rendered to bytes. */
function responseField(body: unknown, field: string): string | undefined {
  if (body instanceof RawJson) {
    const bytes = body.bytes;
    const head = bytes
      ? Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEAD_BYTES)).toString('utf8')
      : body.text.slice(0, HEAD_BYTES);
    const m = new RegExp(`"${field}"\\s*:\\s*"([^"]+)"`).exec(head);
    return m?.[1];
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const v = (body as Record<string, unknown>)[field];
  return typeof v === 'string' ? v : undefined;
}

export class ContextOwners {
  private readonly owners = new Map<string, string>();

  /** The context ids a request names (empty for requests that name none). */
  private static named(req: AuthorizationRequest, action: string): string[] | 'all' {
    // A search without a point in time names no context: its body is not parsed here.
    if (action === SEARCH && !req.body?.includes('"pit"')) return [];
    const body = bodyOf(req);
    if (action === SCROLL) return idsOf(req.params.scroll_id ?? req.query.scroll_id ?? body.scroll_id);
    if (action === CLEAR_SCROLL) {
      const ids = idsOf(req.params.scroll_id ?? req.query.scroll_id ?? body.scroll_id);
      return ids.includes('_all') ? 'all' : ids;
    }
    if (CLOSE_PIT.has(action)) {
      if (req.path.endsWith('/_all')) return 'all';
      return [...idsOf(body.id), ...idsOf(body.pit_id)];
    }
    if (action === SEARCH) {
      const pit = body.pit as { id?: unknown } | undefined;
      return typeof pit?.id === 'string' ? [pit.id] : [];
    }
    return [];
  }

  /**
   * Refuses a request that names another user's context. Clearing every context (`_all`)
   * needs the action on every index, since it reaches other users' contexts too.
   */
  check(auth: Authentication, req: AuthorizationRequest, action: string, mayReachAll: boolean): void {
    const named = ContextOwners.named(req, action);
    if (named === 'all') {
      if (!mayReachAll) throw searchContextMissing('_all');
      return;
    }
    if (named.length === 0) return;
    const me = ownerOf(auth);
    for (const id of named) {
      const owner = this.owners.get(keyOf(id));
      if (owner !== undefined && owner !== me) throw searchContextMissing(id);
    }
  }

  /** Forgets the contexts a successful clear or close released. */
  forget(req: AuthorizationRequest, action: string): void {
    if (action !== CLEAR_SCROLL && !CLOSE_PIT.has(action)) return;
    const named = ContextOwners.named(req, action);
    if (named === 'all') this.owners.clear();
    else for (const id of named) this.owners.delete(keyOf(id));
  }

  /** Remembers the contexts a response hands out (a scroll id, a point in time). */
  record(auth: Authentication, req: AuthorizationRequest, action: string, body: unknown): void {
    let id: string | undefined;
    if (action === SCROLL || (action === SEARCH && req.query.scroll !== undefined))
      id = responseField(body, '_scroll_id');
    else if (OPEN_PIT.has(action)) id = responseField(body, 'id') ?? responseField(body, 'pit_id');
    else if (action === SEARCH && req.body?.includes('"pit"') && 'pit' in bodyOf(req)) {
      id = responseField(body, 'pit_id');
    }
    if (id === undefined) return;
    const key = keyOf(id);
    if (this.owners.has(key)) return;
    if (this.owners.size >= MAX_IDS) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(key, ownerOf(auth));
  }
}
