/**
 * The HTTP surface: Hono over @hono/node-server. Builds a RestRequest for each call, runs the
 * handler, and writes Elasticsearch's response conventions: `?pretty`, `?filter_path`,
 * `?error_trace`, `Warning` headers, the compatible-with media types, 404/405 for unknown routes,
 * and errors as `{"error":{…},"status":N}`.
 */
import type { HttpBindings } from '@hono/node-server';
import {
  deprecationWarning,
  errorBody,
  filterPath,
  isShoalError,
  methodNotAllowed,
  negotiateMediaType,
  noHandlerFound,
  parseJson,
  stringifyJson,
} from '@shoal/protocol';
import { type Context, Hono } from 'hono';
import type { Logger } from 'pino';
import { readRawBody } from './request-body.ts';
import type { HttpMethod, RestRequest, RestResponse, Route } from './rest-types.ts';
import { MethodIndex, orderRoutes } from './route-table.ts';

type Env = { Bindings: HttpBindings };

export interface AppOptions<S> {
  routes: Route<S>[];
  services: S;
  logger: Logger;
}

function queryParams(url: string): Record<string, string> {
  const q = url.indexOf('?');
  const out: Record<string, string> = {};
  if (q < 0 || q === url.length - 1) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) out[k] = v;
  return out;
}

/** Node's request headers are already lower-cased; reading them skips building a Fetch `Headers`. */
function lowerHeaders(c: Context<Env>): Record<string, string | undefined> {
  const incoming = c.env?.incoming;
  if (incoming) return incoming.headers as Record<string, string | undefined>;
  const out: Record<string, string | undefined> = {};
  c.req.raw.headers.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/**
 * Aborts when the client goes away before the response is complete. Built on first use: most
 * handlers never look at it.
 */
function lazyDisconnectSignal(c: Context<Env>): () => AbortSignal {
  let signal: AbortSignal | undefined;
  return () => {
    if (signal) return signal;
    const ac = new AbortController();
    signal = ac.signal;
    const out = c.env?.outgoing;
    if (out) {
      if (out.destroyed && !out.writableFinished) ac.abort();
      else
        out.once('close', () => {
          if (!out.writableFinished) ac.abort();
        });
    }
    return signal;
  };
}

function isPretty(query: Record<string, string>): boolean {
  return 'pretty' in query && query.pretty !== 'false';
}

export interface Rendered {
  status: number;
  headers: Record<string, string | string[]>;
  /** null for HEAD. */
  text: string | null;
}

export function render(
  method: HttpMethod,
  query: Record<string, string>,
  headers: Record<string, string | undefined>,
  res: RestResponse,
  warnings: string[],
): Rendered {
  const out: Record<string, string | string[]> = {};
  if (warnings.length > 0) out.warning = warnings.map((w) => deprecationWarning(w));
  for (const [k, v] of Object.entries(res.headers ?? {})) out[k.toLowerCase()] = v;
  let text: string;
  if (res.text !== undefined) {
    text = res.text;
    out['content-type'] = res.contentType ?? 'text/plain; charset=UTF-8';
  } else {
    let value = res.body;
    if (query.filter_path && value !== undefined) value = filterPath(value, query.filter_path);
    text = value === undefined ? '' : stringifyJson(value, isPretty(query));
    out['content-type'] = res.contentType ?? negotiateMediaType(headers.accept, headers['content-type']);
  }
  if (method === 'HEAD') {
    out['content-length'] = String(Buffer.byteLength(text));
    return { status: res.status, headers: out, text: null };
  }
  return { status: res.status, headers: out, text };
}

function send(c: Context<Env>, r: Rendered): Response {
  return r.text === null
    ? c.body(null, r.status as 200, r.headers)
    : c.body(r.text, r.status as 200, r.headers);
}

export function createApp<S>(opts: AppOptions<S>): Hono<Env> {
  const app = new Hono<Env>();
  const methods = new MethodIndex(opts.routes as Route<unknown>[]);

  const fail = (
    method: HttpMethod,
    query: Record<string, string>,
    headers: Record<string, string | undefined>,
    err: unknown,
    warnings: string[],
  ): Rendered => {
    const {
      status,
      body,
      headers: errHeaders,
    } = errorBody(err, { errorTrace: query.error_trace === 'true' });
    if (!isShoalError(err) || status >= 500) opts.logger.error({ err }, 'request failed');
    const res = render(method, query, headers, { status, body }, warnings);
    for (const [k, v] of Object.entries(errHeaders ?? {})) res.headers[k.toLowerCase()] = v;
    return res;
  };

  for (const route of orderRoutes(opts.routes)) {
    app.on(route.method, route.path, async (c) => {
      const method = c.req.method as HttpMethod;
      const query = queryParams(c.req.url);
      const headers = lowerHeaders(c);
      const warnings: string[] = [];
      const signal = lazyDisconnectSignal(c);
      try {
        const body = await readRawBody(c.env?.incoming);
        let parsed: { v: unknown } | undefined;
        const req: RestRequest = {
          method,
          path: c.req.path,
          params: c.req.param() as Record<string, string>,
          query,
          body,
          json: () => {
            if (!parsed) parsed = { v: body === undefined ? undefined : parseJson(body) };
            return parsed.v;
          },
          get signal() {
            return signal();
          },
          warnings,
          headers,
        };
        const res = await route.handler(req, opts.services);
        return send(c, render(method, query, headers, res, warnings));
      } catch (err) {
        return send(c, fail(method, query, headers, err, warnings));
      }
    });
  }

  app.notFound((c) => {
    const method = c.req.method as HttpMethod;
    const query = queryParams(c.req.url);
    const headers = lowerHeaders(c);
    const allowed = methods.allowed(c.req.path);
    if (allowed.length > 0)
      return send(c, fail(method, query, headers, methodNotAllowed(c.req.path, method, allowed), []));
    return send(c, fail(method, query, headers, noHandlerFound(c.req.path, method), []));
  });

  return app;
}
