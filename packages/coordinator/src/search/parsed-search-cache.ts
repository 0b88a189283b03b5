/**
 * The parsed form of the searches a node was sent last, by their request text. A client that
 * repeats a search — a dashboard refreshing, a monitor polling, a load test — sends the same
 * bytes each time: their JSON and the search request they make are parsed once, and the later
 * copies get the same SearchRequest, frozen so that no search can change what another reads.
 *
 * A search request is a pure function of the path, the URL parameters and the body: relative
 * dates such as `now-1d/d` stay in the query as written and are resolved on the shards, per
 * search, and index names are resolved against the cluster state per search as well. So a kept
 * request is exactly what a fresh parse would give. Only what parsed is kept (a bad request is
 * parsed, and refused, every time), only bodies up to `maxBodyBytes`, and at most `capacity`
 * requests, the oldest dropped first. A capacity of 0 keeps nothing.
 */
import type { SearchRequest } from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';

export const DEFAULT_PARSED_SEARCHES = 128;
const DEFAULT_MAX_BODY_BYTES = 4096;

export type SearchRequestText = Pick<RestRequest, 'path' | 'query' | 'body'>;

/** A parsed search: its request, and whether its body named a PIT. */
export interface ParsedSearch {
  search: SearchRequest;
  pit: boolean;
}

export class ParsedSearchCache {
  private readonly entries = new Map<string, ParsedSearch>();
  /** The key of the last request without URL parameters, and what it was made of. */
  private last: { path: string; body: Buffer | undefined; key: string } | undefined;

  constructor(
    readonly capacity: number = DEFAULT_PARSED_SEARCHES,
    readonly maxBodyBytes: number = DEFAULT_MAX_BODY_BYTES,
  ) {}

  /**
   * The request's text as one key (undefined when it is not kept): the path, each parameter and
   * the body, each after its length, so that no two requests share a key.
   */
  keyOf(req: SearchRequestText): string | undefined {
    if (this.capacity === 0) return undefined;
    const body = req.body;
    if (body !== undefined && body.length > this.maxBodyBytes) return undefined;
    const query = req.query;
    let plain = true;
    for (const _ in query) {
      plain = false;
      break;
    }
    // The last request without parameters, sent again (the same string: its hash is kept).
    const last = this.last;
    if (plain && last !== undefined && last.path === req.path && sameBody(last.body, body)) return last.key;
    let key = `${req.path.length}:${req.path}`;
    for (const k in query) {
      const v = query[k]!;
      key += `${k.length}:${k}${v.length}:${v}`;
    }
    // One char per byte: the body's bytes as they are, whatever their encoding.
    key = body === undefined ? `${key}-` : `${key}+${body.toString('latin1')}`;
    if (plain) this.last = { path: req.path, body, key };
    return key;
  }

  get(key: string): ParsedSearch | undefined {
    return this.entries.get(key);
  }

  /** Keeps `parsed` (its request frozen, with everything it holds) as the parse of `key`. */
  set(key: string, parsed: ParsedSearch): void {
    deepFreeze(parsed.search);
    if (this.entries.size >= this.capacity && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, Object.freeze(parsed));
  }

  get size(): number {
    return this.entries.size;
  }

  /** Forgets every parse (they resolved stored scripts that changed). */
  clear(): void {
    this.entries.clear();
  }
}

function sameBody(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

/**
 * Freezes plain objects and arrays, and what they hold. Typed arrays (their elements cannot be
 * frozen) and class instances (RawJson caches its own text) are left as they are.
 */
function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  if (Array.isArray(v)) {
    Object.freeze(v);
    for (const x of v) deepFreeze(x);
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return;
  Object.freeze(v);
  for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
}
