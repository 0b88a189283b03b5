/**
 * The one place that turns an error into Elasticsearch's REST error response
 * (ElasticsearchException.generateFailureXContent plus RestResponse's `status`):
 *
 *   {"error":{"root_cause":[…],"type":…,"reason":…,<metadata>,"caused_by":{…},"header":{…},
 *             "stack_trace":…},"status":N}
 *
 * Root causes are rendered without `caused_by`; `stack_trace` appears only with `error_trace=true`.
 * RestController's own errors (unknown path, wrong method, bad Content-Type) use its flat
 * `{"error":"<reason>","status":N}` form instead.
 */
import { groupShardFailures, guessRootCauses, isElasticsearchError } from './root-cause.ts';
import { ShoalError, type WireError } from './shoal-error.ts';

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  /** HTTP headers the error carries (`Allow`, `WWW-Authenticate`); several values → several header lines. */
  headers?: Record<string, string | string[]>;
}

export function errorBody(err: unknown, opts: { errorTrace?: boolean } = {}): ErrorResponse {
  const e = toShoalError(err);
  const trace = opts.errorTrace === true;
  const headers = collectHeaders(e);
  let body: Record<string, unknown>;
  if (e.extra.oauth2) {
    body = { error: e.type, error_description: e.reason };
  } else if (e.extra.simple) {
    body = { error: e.reason };
    if (e.extra.simple === 'with-status') body.status = e.status;
  } else {
    const rootCause = guessRootCauses(e).map((rc) =>
      rc.wrapped ? renderJava(rc.error, trace) : render(rc.error, true, trace),
    );
    body = { error: { root_cause: rootCause, ...render(e, false, trace) }, status: e.status };
  }
  return headers ? { status: e.status, body, headers } : { status: e.status, body };
}

/**
 * An error as Elasticsearch writes one inside another response (generateThrowableXContent:
 * `{type, reason, …, caused_by}`, no root causes): the `errors.details` of the profile APIs.
 */
export function errorFragment(err: unknown): Record<string, unknown> {
  return render(toShoalError(err), false, false);
}

/**
 * Anything thrown becomes a ShoalError: a ShoalError as is, a WireError that crossed a thread
 * as its ShoalError, anything else as a 500 `exception` carrying its message.
 */
export function toShoalError(err: unknown): ShoalError {
  if (err instanceof ShoalError) return err;
  if (isWireError(err)) return ShoalError.fromWire(err);
  const reason = err instanceof Error ? err.message : String(err);
  const e = new ShoalError('exception', reason, 500);
  if (err instanceof Error && err.stack) e.stack = err.stack;
  return e;
}

function isWireError(x: unknown): x is WireError {
  if (typeof x !== 'object' || x === null) return false;
  const w = x as Record<string, unknown>;
  return typeof w.type === 'string' && typeof w.reason === 'string' && typeof w.status === 'number';
}

function render(e: ShoalError, skipCause: boolean, trace: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = { type: e.type, reason: e.reason };
  for (const [k, v] of Object.entries(e.metadata)) o[k] = v;
  const failures = e.extra.shardFailures;
  if (failures && isElasticsearchError(e)) {
    o.grouped = true;
    o.failed_shards = groupShardFailures(failures).map((f) => {
      const s: Record<string, unknown> = { shard: f.shard, index: f.index };
      if (f.node !== undefined) s.node = f.node;
      s.reason = render(f.reason, false, trace);
      return s;
    });
  }
  if (!skipCause && e.causedBy) o.caused_by = render(e.causedBy, false, trace);
  const bodyHeaders = e.extra.bodyHeaders;
  if (bodyHeaders && Object.keys(bodyHeaders).length > 0) {
    const h: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(bodyHeaders)) {
      if (v.length > 0) h[k] = v.length === 1 ? v[0] : v;
    }
    o.header = h;
  }
  if (trace) o.stack_trace = stackTrace(e);
  return o;
}

/** A Java exception as a root cause: Elasticsearch's wrapper shows its type and message only. */
function renderJava(e: ShoalError, trace: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = { type: e.type, reason: e.reason };
  if (trace) o.stack_trace = stackTrace(e);
  return o;
}

/** A Java-style trace: `<type>: <reason>`, tab-indented frames, then each `Caused by:`. */
function stackTrace(e: ShoalError): string {
  const parts: string[] = [];
  let cur: ShoalError | undefined = e;
  let first = true;
  while (cur) {
    const frames = (cur.stack ?? '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l))
      .map((l) => `\tat ${l.trim().slice(3)}`);
    parts.push([`${first ? '' : 'Caused by: '}${cur.type}: ${cur.reason}`, ...frames].join('\n'));
    first = false;
    cur = cur.causedBy;
  }
  return parts.join('\n');
}

function collectHeaders(e: ShoalError): Record<string, string | string[]> | undefined {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(e.extra.bodyHeaders ?? {})) {
    if (v.length > 0) out[k] = v.length === 1 ? v[0]! : v;
  }
  for (const [k, v] of Object.entries(e.extra.httpHeaders ?? {})) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}
