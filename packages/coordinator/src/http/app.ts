/**
 * The HTTP surface: Hono over @hono/node-server. Builds a RestRequest for each call, runs the
 * handler, and writes Elasticsearch's response conventions: `?pretty`, `?filter_path`,
 * `?error_trace`, `Warning` headers, `X-elastic-product`, content negotiation (Accept,
 * Content-Type and the compatible-with media types), 400/405 for unknown routes, and errors as
 * `{"error":{…},"status":N}`.
 */
import type { ServerResponse } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import {
  errorBody,
  filterPath,
  formatParam,
  isShoalError,
  type MediaTypeChoice,
  methodNotAllowed,
  negotiateRequest,
  noHandlerFound,
  parseJson,
  stringifyJson,
  stringifyJsonBytes,
  warningHeaders,
  type XContentFormat,
} from '@shoal/protocol';
import { type Context, Hono } from 'hono';
import type { Logger } from 'pino';
import { DisconnectWatch } from './disconnect.ts';
import { readRawBody } from './request-body.ts';
import type { HttpMethod, RestRequest, RestResponse, Route } from './rest-types.ts';
import { FirstMatchRouter, MethodIndex, orderRoutes } from './route-table.ts';
import { bodyAsJson, encodeAs } from './xcontent-formats.ts';

type Env = { Bindings: HttpBindings };

export interface AppOptions<S> {
  routes: Route<S>[];
  services: S;
  logger: Logger;
  /** Where the deprecated items requests use are logged (besides their `Warning` headers). */
  deprecationLog?: { record(messages: Iterable<string>, opaqueId?: string): void };
  /**
   * Runs before every handler (security: authenticate and authorize); throws to refuse.
   * `uri` is the request's path and query string as sent.
   */
  guard?: (req: RestRequest, route: Route<S>, uri: string) => Promise<void> | undefined;
  /** Runs after every guarded handler answered (security: who owns the contexts it opened). */
  answered?: (req: RestRequest, route: Route<S>, res: RestResponse) => void;
}

/** The path and query string of a request URL (`http://host:port/a?b` → `/a?b`). */
function requestUri(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? '/' : url.slice(slash);
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

/** The request a handler sees: the body parsed on first use, the disconnect signal built on first use. */
class HttpRestRequest implements RestRequest {
  /** Set by the guard; declared here so every request has the same shape. */
  authentication: RestRequest['authentication'] = undefined;
  #parsed: { v: unknown } | undefined;
  #signal: AbortSignal | undefined;
  readonly #disconnect: DisconnectWatch;
  readonly #outgoing: ServerResponse | undefined;

  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    public params: Record<string, string>,
    readonly query: Record<string, string>,
    readonly body: Buffer | undefined,
    readonly warnings: string[],
    readonly headers: Record<string, string | undefined>,
    disconnect: DisconnectWatch,
    outgoing: ServerResponse | undefined,
  ) {
    this.#disconnect = disconnect;
    this.#outgoing = outgoing;
  }

  json(): unknown {
    if (!this.#parsed) this.#parsed = { v: this.body === undefined ? undefined : parseJson(this.body) };
    return this.#parsed.v;
  }

  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    const ac = new AbortController();
    this.#signal = ac.signal;
    this.#disconnect.on(() => ac.abort());
    return this.#signal;
  }

  onDisconnect(listener: () => void): void {
    this.#disconnect.on(listener);
  }

  onUndelivered(listener: () => void): void {
    const out = this.#outgoing;
    if (!out) return;
    const socket = out.socket;
    // 'close' comes after 'finish' when the response was written out, alone when it was not.
    // A connection reset under a pending write still finishes the response (Node calls back
    // the write that failed): the socket's error tells that case apart.
    const undelivered = () => !out.writableFinished || socket?.errored != null;
    if (out.closed) {
      if (undelivered()) listener();
      return;
    }
    out.once('close', () => {
      if (undelivered()) listener();
    });
  }
}

/**
 * Negotiation is a pure function of the two headers and whether there is a body, and a client
 * sends the same pair on every request: the answers are kept (errors are not, they are thrown
 * each time).
 */
const negotiated = new Map<string, MediaTypeChoice>();
const NEGOTIATED_MAX = 256;

/** The last negotiation: a client sends the same headers on every request. */
let lastNegotiated:
  | { accept: string | undefined; contentType: string | undefined; flags: number; choice: MediaTypeChoice }
  | undefined;

function negotiate(
  headers: Record<string, string | undefined>,
  hasBody: boolean,
  routed: boolean,
): MediaTypeChoice {
  const accept = headers.accept;
  const contentType = headers['content-type'];
  const flags = (hasBody ? 1 : 0) | (routed ? 2 : 0);
  const last = lastNegotiated;
  if (
    last !== undefined &&
    last.flags === flags &&
    last.accept === accept &&
    last.contentType === contentType
  )
    return last.choice;
  // Header values hold no NUL and no newline, so the key is unambiguous.
  const key = `${accept ?? '\u0000'}\n${contentType ?? '\u0000'}\n${hasBody ? 1 : 0}${routed ? 1 : 0}`;
  let choice = negotiated.get(key);
  if (choice === undefined) {
    choice = negotiateRequest(accept, contentType, { hasBody, routed });
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(key, choice);
  }
  lastNegotiated = { accept, contentType, flags, choice };
  return choice;
}

/**
 * What an error is answered in when the request's own headers could not be negotiated:
 * Elasticsearch drops the failed headers and answers JSON.
 */
const FALLBACK_CONTENT_TYPE = 'application/json';

/**
 * RestController adds `X-elastic-product: Elasticsearch` to every response, errors included;
 * the official clients (JS ≥ 7.14) refuse to talk to a server that leaves it out.
 */
const PRODUCT_HEADER = 'x-elastic-product';
const PRODUCT = 'Elasticsearch';

function isPretty(query: Record<string, string>): boolean {
  return 'pretty' in query && query.pretty !== 'false';
}

export interface Rendered {
  status: number;
  headers: Record<string, string | string[]>;
  /** null for HEAD. */
  text: string | Uint8Array | null;
}

export interface RenderContext {
  method: HttpMethod;
  query: Record<string, string>;
  /** The negotiated response Content-Type, used for a JSON body without its own. */
  contentType: string;
  /** The negotiated response format (JSON unless YAML or CBOR was asked for). */
  format?: XContentFormat;
  warnings: string[];
  /**
   * An error body: `filter_path` is not applied, as Elasticsearch's AbstractRestChannel builds
   * error bodies without filtering (a filter would leave `{}` where the client needs the error).
   */
  error?: boolean;
}

export function render(ctx: RenderContext, res: RestResponse): Rendered {
  const { method, query, warnings } = ctx;
  const out: Record<string, string | string[]> = {};
  // One header per distinct message, however often the request used the item.
  if (warnings.length > 0) out.warning = warningHeaders(warnings);
  if (res.headers) for (const k in res.headers) out[k.toLowerCase()] = res.headers[k]!;
  out[PRODUCT_HEADER] = PRODUCT;
  let text: string | Uint8Array;
  if (res.text !== undefined) {
    text = res.text;
    out['content-type'] = res.contentType ?? 'text/plain; charset=UTF-8';
  } else {
    let value = res.body;
    if (query.filter_path && value !== undefined && ctx.error !== true)
      value = filterPath(value, query.filter_path);
    const format = ctx.format ?? 'json';
    if (format !== 'json' && value !== undefined) {
      text = encodeAs(value, format);
      out['content-type'] = ctx.contentType;
    } else {
      // Pages of hits the shards rendered go out as the bytes they arrived in.
      const pretty = 'pretty' in query ? isPretty(query) : res.pretty === true;
      text = value === undefined ? '' : pretty ? stringifyJson(value, true) : stringifyJsonBytes(value);
      out['content-type'] = res.contentType ?? ctx.contentType;
    }
  }
  if (method === 'HEAD') {
    out['content-length'] = String(typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength);
    return { status: res.status, headers: out, text: null };
  }
  return { status: res.status, headers: out, text };
}

/**
 * The Response, built directly with a plain header object: Hono's `c.body` turns more than one
 * header into a Fetch `Headers` (validated and normalized one by one, then converted back for
 * Node), while @hono/node-server hands a plain object straight to `writeHead`.
 */
function send(r: Rendered): Response {
  type Init = NonNullable<ConstructorParameters<typeof Response>[1]>;
  return new Response(r.text as ConstructorParameters<typeof Response>[0], {
    status: r.status,
    headers: r.headers as Init['headers'],
  });
}

/** The last resort when even rendering an error failed: Elasticsearch's shape, built by errorBody. */
function sendBare(c: Context<Env>, err: unknown): Response {
  const { status, body } = errorBody(err);
  const headers = { 'content-type': FALLBACK_CONTENT_TYPE, [PRODUCT_HEADER]: PRODUCT };
  return c.req.method === 'HEAD'
    ? c.body(null, status as 500, headers)
    : c.body(JSON.stringify(body), status as 500, headers);
}

export function createApp<S>(opts: AppOptions<S>): Hono<Env> {
  const app = new Hono<Env>({ router: new FirstMatchRouter() });
  const methods = new MethodIndex(opts.routes as Route<unknown>[]);

  const fail = (ctx: Omit<RenderContext, 'error'>, err: unknown): Rendered => {
    const {
      status,
      body,
      headers: errHeaders,
    } = errorBody(err, { errorTrace: ctx.query.error_trace === 'true' });
    if (!isShoalError(err) || status >= 500) opts.logger.error({ err }, 'request failed');
    const res = render({ ...ctx, error: true }, { status, body });
    for (const [k, v] of Object.entries(errHeaders ?? {})) res.headers[k.toLowerCase()] = v;
    return res;
  };

  for (const route of orderRoutes(opts.routes)) {
    // A route's params are a function of the path alone: a client repeating one path (every
    // `/{index}/_search`) gets the same decoded params back (frozen, as they are shared).
    let lastPath: string | undefined;
    let lastParams: Record<string, string> = {};
    app.on(route.method, route.path, async (c) => {
      const method = c.req.method as HttpMethod;
      const query = queryParams(c.req.url);
      const headers = lowerHeaders(c);
      const warnings: string[] = [];
      const incoming = c.env?.incoming;
      const disconnect = new DisconnectWatch(incoming?.socket);
      let contentType = FALLBACK_CONTENT_TYPE;
      let format: XContentFormat = 'json';
      try {
        const raw = await readRawBody(incoming);
        const choice = negotiate(headers, raw !== undefined, true);
        contentType = choice.responseContentType;
        format = choice.responseFormat;
        // `format` outranks Accept (AbstractRestChannel).
        const asked = formatParam(query.format);
        if (asked) {
          contentType = asked.contentType;
          format = asked.format;
        }
        // YAML and CBOR bodies are read as the JSON they stand for.
        const body =
          raw !== undefined && choice.requestFormat !== 'json'
            ? bodyAsJson(raw, choice.requestFormat, route.path)
            : raw;
        const path = c.req.path;
        if (path !== lastPath) {
          lastParams = Object.freeze(c.req.param() as Record<string, string>);
          lastPath = path;
        }
        const req = new HttpRestRequest(
          method,
          path,
          lastParams,
          query,
          body,
          warnings,
          headers,
          disconnect,
          c.env?.outgoing as ServerResponse | undefined,
        );
        if (opts.guard) {
          // Undefined when the guard decided at once (cached credentials): no promise to wait on.
          const guarded = opts.guard(req, route, requestUri(c.req.url));
          if (guarded) await guarded;
        }
        const res = await route.handler(req, opts.services);
        opts.answered?.(req, route, res);
        return send(render({ method, query, contentType, format, warnings }, res));
      } catch (err) {
        return send(fail({ method, query, contentType, format, warnings }, err));
      } finally {
        disconnect.done();
        if (warnings.length > 0) opts.deprecationLog?.record(warnings, headers['x-opaque-id']);
      }
    });
  }

  app.notFound(async (c) => {
    const method = c.req.method as HttpMethod;
    const query = queryParams(c.req.url);
    const headers = lowerHeaders(c);
    const ctx = { method, query, contentType: FALLBACK_CONTENT_TYPE, warnings: [] };
    try {
      // Elasticsearch checks the media-type headers while it builds the request, before it
      // looks for a handler; the Content-Type of a body is only judged once one is found.
      const body = await readRawBody(c.env?.incoming);
      ctx.contentType = negotiate(headers, body !== undefined, false).responseContentType;
      const allowed = methods.allowed(c.req.path);
      if (allowed.length > 0) throw methodNotAllowed(c.req.path, method, allowed);
      throw noHandlerFound(c.req.path, method);
    } catch (err) {
      return send(fail(ctx, err));
    }
  });

  // Whatever escapes the handlers above still answers in Elasticsearch's format, never with
  // Hono's bare text/plain 500.
  app.onError((err, c) => {
    try {
      const method = c.req.method as HttpMethod;
      return send(
        fail(
          { method, query: queryParams(c.req.url), contentType: FALLBACK_CONTENT_TYPE, warnings: [] },
          err,
        ),
      );
    } catch (inner) {
      opts.logger.error({ err: inner }, 'failed to send failure response');
      return sendBare(c, err);
    }
  });

  return app;
}
