/**
 * The shape of security's REST routes, which the node mounts beside its own: a request with
 * the fields every node request has, and the authentication the node's guard established.
 */
import { illegalArgument, isShoalError, requestBodyRequired, unrecognizedParameters } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';

export type SecurityMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

export interface SecurityRequest {
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: Buffer | undefined;
  json(): unknown;
  headers: Readonly<Record<string, string | undefined>>;
  warnings: string[];
}

export interface SecurityResponse {
  status: number;
  body?: unknown;
}

export interface SecurityRoute {
  method: SecurityMethod;
  /** Hono path syntax: `/_security/user/:username`. */
  path: string;
  /** The transport action name the route is authorized as. */
  action: string;
  /**
   * The action of this very request, where the body picks it (the token endpoint's refresh
   * grant is `token/refresh`, as RestGetTokenAction sends it); `action` otherwise.
   */
  actionOf?(req: SecurityRequest): string;
  handler(req: SecurityRequest, auth: Authentication): Promise<SecurityResponse> | SecurityResponse;
}

/** Parameters every REST endpoint takes (BaseRestHandler's response parameters). */
const COMMON_PARAMS = ['pretty', 'human', 'error_trace', 'filter_path', 'format'];

/** BaseRestHandler.unrecognized: a parameter the endpoint does not read is a 400. */
export function checkParams(req: SecurityRequest, accepted: readonly string[]): void {
  const known = new Set([...COMMON_PARAMS, ...accepted]);
  const invalid = Object.keys(req.query).filter((k) => !known.has(k));
  if (invalid.length > 0) throw unrecognizedParameters(req.path, invalid, known);
}

/** `refresh`: `true` (also empty), `false` or `wait_for`; security writes are always visible at once. */
export function checkRefresh(req: SecurityRequest): void {
  const v = req.query.refresh;
  if (v === undefined || v === '' || v === 'true' || v === 'false' || v === 'wait_for') return;
  throw illegalArgument(`Unknown value for refresh: [${v}].`);
}

export function requiredObjectBody(req: SecurityRequest): Record<string, unknown> {
  if (req.body === undefined || req.body.length === 0) throw requestBodyRequired();
  const body = req.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw illegalArgument('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A path list parameter (`a,b`), empty entries dropped. */
export function listParam(v: string | undefined): string[] {
  return v === undefined ? [] : v.split(',').filter((s) => s !== '');
}

export function ok(body: unknown, status = 200): SecurityResponse {
  return { status, body };
}

/** An error as a bulk API's `errors.details` lists it (`{"type":…,"reason":…}`). */
export function errorCause(e: unknown): Record<string, unknown> {
  if (isShoalError(e)) {
    const out: Record<string, unknown> = { type: e.type, reason: e.reason };
    if (e.causedBy) out.caused_by = errorCause(e.causedBy);
    return out;
  }
  return { type: 'exception', reason: e instanceof Error ? e.message : String(e) };
}

/**
 * The get APIs' answer by names (users, roles, role mappings): every entry when no name is
 * given; else the named ones found, keyed by name, and a 404 with `{}` when none of them is.
 */
export async function byNames(
  names: readonly string[],
  all: () => Promise<Iterable<[string, unknown]>>,
  one: (name: string) => Promise<unknown | undefined>,
): Promise<SecurityResponse> {
  if (names.length === 0) return ok(Object.fromEntries(await all()));
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const found = await one(name);
    if (found !== undefined) out[name] = found;
  }
  return ok(out, Object.keys(out).length === 0 ? 404 : 200);
}
