/**
 * What a REST handler sees and returns. Handlers are plain async functions; the HTTP layer
 * (app.ts) builds the request, and turns the response (or a thrown ShoalError) into bytes.
 */
import type { Authentication, IndexAccess } from '@shoal/security';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

export interface RestRequest {
  method: HttpMethod;
  /** The path as sent, without the query string. */
  path: string;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
  /** Query-string parameters (the last value wins, as in Elasticsearch). */
  query: Record<string, string>;
  /** The raw body, or undefined when none was sent. */
  body: Buffer | undefined;
  /** The body parsed as JSON (integers beyond 2^53 as bigint); undefined when empty. */
  json(): unknown;
  /** Aborted when the client disconnects before the answer is sent. */
  signal: AbortSignal;
  /**
   * Calls `listener` once if the client disconnects before the handler is done (at once when it
   * already has). Cheaper than `signal` on a hot path: no AbortController, no listener objects.
   */
  onDisconnect(listener: () => void): void;
  /**
   * Calls `listener` once if the response is not written out whole: the connection closed or
   * failed before its last byte was handed to the operating system. At once when that is
   * already known. Written out is not received; it is what the node can know.
   */
  onUndelivered(listener: () => void): void;
  /** Deprecation warnings to return as `Warning` headers. */
  warnings: string[];
  /** Lower-cased request headers. */
  headers: Record<string, string | undefined>;
  /** Who sent the request, once security has authenticated it (unset when security is off). */
  authentication?: Authentication;
  /**
   * `_bulk` items security refused, by position, with the error each answers with (the
   * others run; unset when none was refused).
   */
  deniedItems?: ReadonlyMap<number, Error>;
  /**
   * The documents and fields the user may read of each index (document- and field-level
   * security); unset when nothing is restricted.
   */
  indexAccess?: IndexAccess;
}

export interface RestResponse {
  status: number;
  /** A JSON value (may contain bigint and RawJson); or a text body when `text` is set. */
  body?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Pretty-printed unless the request has a `pretty` parameter of its own (`GET /_license`). */
  pretty?: boolean;
}

export type RestHandler<S> = (req: RestRequest, services: S) => Promise<RestResponse> | RestResponse;

export interface Route<S> {
  method: HttpMethod;
  /** Hono path syntax: `/:index/_doc/:id`. */
  path: string;
  /** Elasticsearch's action name, used for authorization: `indices:data/read/search`. */
  action: string;
  handler: RestHandler<S>;
}

export function ok(body: unknown, status = 200): RestResponse {
  return { status, body };
}
