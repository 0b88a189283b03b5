/**
 * The REST route table: Hono registration in Elasticsearch's precedence (a literal segment
 * beats a parameter, so `/_search` is never taken for an index named `_search`), and the
 * method lookup that answers 405 for a known path with a wrong method.
 */
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
