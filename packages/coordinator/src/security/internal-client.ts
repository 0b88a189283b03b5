/**
 * Calls the node's own REST handlers from inside the node, without HTTP and without security:
 * how the security system index is read and written on Shoal's own engine. The handler is
 * chosen by method and route path, and its path parameters are given as values (no encoding).
 */
import { parseJson, stringifyJsonBytes } from '@shoal/protocol';
import type { HttpMethod, RestRequest, Route } from '../http/rest-types.ts';

export interface InternalResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the node's own response bodies, read by known shape
  body: any;
}

class InternalRequest implements RestRequest {
  readonly warnings: string[] = [];
  readonly headers: Record<string, string | undefined> = { 'content-type': 'application/json' };
  readonly signal = new AbortController().signal;

  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly params: Record<string, string>,
    readonly query: Record<string, string>,
    readonly body: Buffer | undefined,
  ) {}

  json(): unknown {
    return this.body === undefined ? undefined : parseJson(this.body);
  }

  onDisconnect(): void {}

  onUndelivered(): void {}
}

function text(out: string | Uint8Array): string {
  return typeof out === 'string'
    ? out
    : Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('utf8');
}

export class InternalClient<S> {
  private readonly byKey = new Map<string, Route<S>>();

  constructor(
    routes: Route<S>[],
    private readonly services: S,
  ) {
    for (const r of routes)
      if (!this.byKey.has(`${r.method} ${r.path}`)) this.byKey.set(`${r.method} ${r.path}`, r);
  }

  async call(
    method: HttpMethod,
    routePath: string,
    params: Record<string, string>,
    opts: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<InternalResponse> {
    const route = this.byKey.get(`${method} ${routePath}`);
    if (!route) throw new Error(`no route [${method} ${routePath}] to call internally`);
    const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const req = new InternalRequest(method, routePath, params, opts.query ?? {}, body);
    try {
      const res = await route.handler(req, this.services);
      const parsed = res.body === undefined ? undefined : JSON.parse(text(stringifyJsonBytes(res.body)));
      return { status: res.status, body: parsed };
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status < 500) return { status, body: { error: err } };
      throw err;
    }
  }
}
