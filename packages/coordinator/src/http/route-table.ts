/**
 * The REST route table: Hono registration in Elasticsearch's precedence (a literal segment
 * beats a parameter, so `/_search` is never taken for an index named `_search`), the router
 * that finds a request's route, and the method lookup that answers 405 for a known path with a
 * wrong method.
 */
import type { Result, Router } from 'hono/router';
import type { HttpMethod, Route } from './rest-types.ts';

function paramCount(path: string): number {
  return path.split('/').filter((s) => s.startsWith(':')).length;
}

export function orderRoutes<S>(routes: Route<S>[]): Route<S>[] {
  return routes
    .map((r, i) => ({ r, i }))
    .sort((a, b) => paramCount(a.r.path) - paramCount(b.r.path) || a.i - b.i)
    .map((x) => x.r);
}

function pathRegex(path: string): RegExp {
  const src = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${src}/?$`);
}

export class MethodIndex {
  private readonly patterns: { re: RegExp; method: HttpMethod }[];

  constructor(routes: Route<unknown>[]) {
    this.patterns = routes.map((r) => ({ re: pathRegex(r.path), method: r.method }));
  }

  /** Methods that some route accepts for this path (HEAD implied by GET). */
  allowed(path: string): HttpMethod[] {
    const set = new Set<HttpMethod>();
    for (const p of this.patterns) if (p.re.test(path)) set.add(p.method);
    if (set.has('GET')) set.add('HEAD');
    return [...set];
  }
}

interface RouterEntry<T> {
  method: string;
  /** Per segment: the literal, or null for a `:param`. */
  literals: (string | null)[];
  /** Per segment: the parameter name, or null for a literal. */
  names: (string | null)[];
  handler: T;
  /** Registration order. */
  seq: number;
}

/**
 * The first registered route that matches, for route paths made of literal and `:param`
 * segments only (what every Shoal route is). Hono's TrieRouter returns every matching route,
 * sorted by registration order, and walks a trie per request to build them; Shoal's handlers
 * always answer, so only the first ever runs. A `:param` matches one non-empty segment, as in
 * TrieRouter; parameter values are left encoded (Hono decodes them on `param()`).
 */
export class FirstMatchRouter<T> implements Router<T> {
  readonly name = 'FirstMatchRouter';
  /** By method, then by segment count, in registration order. */
  private readonly byMethod = new Map<string, RouterEntry<T>[][]>();
  private added = 0;
  /**
   * Answers by method and path: clients send the same few paths (`/{index}/_search`,
   * `/_bulk`) over and over, and a match walks every route of that length. Bounded; emptied
   * when full or when a route is added.
   */
  private readonly answered = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.answered.clear();
    this.last = undefined;
    const parts = splitPath(path);
    const literals: (string | null)[] = [];
    const names: (string | null)[] = [];
    for (const part of parts) {
      if (part.includes('*') || part.includes('{') || part.endsWith('?') || part.indexOf(':') > 0) {
        throw new Error(
          `unsupported route path [${path}]: the node's router takes literal segments and whole-segment :params only (no wildcards, regexps or optional params)`,
        );
      }
      const param = part.startsWith(':');
      literals.push(param ? null : part);
      names.push(param ? part.slice(1) : null);
    }
    let byLength = this.byMethod.get(method);
    if (!byLength) {
      byLength = [];
      this.byMethod.set(method, byLength);
    }
    let list = byLength[parts.length];
    if (!list) {
      list = [];
      byLength[parts.length] = list;
    }
    list.push({ method, literals, names, handler, seq: this.added++ });
  }

  /** The last answer: a client repeating one request is answered without building a key. */
  private last: { method: string; path: string; result: Result<T> } | undefined;

  match(method: string, path: string): Result<T> {
    const last = this.last;
    if (last !== undefined && last.path === path && last.method === method) return last.result;
    // Method names hold no space: the key is unambiguous.
    const key = `${method} ${path}`;
    let result = this.answered.get(key);
    if (result === undefined) {
      result = this.find(method, path);
      if (this.answered.size >= ANSWERED_MAX) this.answered.clear();
      this.answered.set(key, result);
    }
    this.last = { method, path, result };
    return result;
  }

  private find(method: string, path: string): Result<T> {
    const parts = splitPath(path);
    const own = this.byMethod.get(method)?.[parts.length];
    const any = this.byMethod.get('ALL')?.[parts.length];
    const a = own && firstMatch(own, parts);
    const b = any && firstMatch(any, parts);
    // Registration order decides between a method route and an ALL route; each list is in it.
    const found = a && b ? (a.seq < b.seq ? a : b) : (a ?? b);
    if (!found) return [[]];
    const params: Record<string, string> = Object.create(null);
    for (let i = 0; i < parts.length; i++) {
      const name = found.names[i];
      if (name != null && !Object.hasOwn(params, name)) params[name] = parts[i]!;
    }
    return [[[found.handler, params]]];
  }
}

/** How many method-and-path answers the router keeps. */
const ANSWERED_MAX = 1024;

function splitPath(path: string): string[] {
  const parts = path.split('/');
  if (parts[0] === '') parts.shift();
  return parts;
}

function firstMatch<T>(entries: RouterEntry<T>[], parts: string[]): RouterEntry<T> | undefined {
  outer: for (const e of entries) {
    for (let i = 0; i < parts.length; i++) {
      const literal = e.literals[i];
      if (literal === null ? parts[i] === '' : literal !== parts[i]) continue outer;
    }
    return e;
  }
  return undefined;
}
