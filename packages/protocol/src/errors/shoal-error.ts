/**
 * Every error Shoal reports is a ShoalError carrying Elasticsearch's exception type
 * (`index_not_found_exception`), reason, HTTP status and extra fields (`index`,
 * `resource.id`, …). Handlers throw them; `errorBody` (in error-body.ts) turns them into the
 * `{"error":{…},"status":N}` JSON. Build them with the factories in `catalogue.ts`, never by hand.
 */
export interface WireError {
  type: string;
  reason: string;
  status: number;
  metadata?: Record<string, unknown>;
  causedBy?: WireError;
  extra?: WireErrorExtra;
  stack?: string;
}

/** One shard's failure inside a `search_phase_execution_exception` (ShardSearchFailure). */
export interface ShardFailure {
  /** -1 when the shard is not known (scroll continuations). */
  shard: number;
  index: string | null;
  node?: string;
  reason: ShoalError;
}

export interface WireShardFailure {
  shard: number;
  index: string | null;
  node?: string;
  reason: WireError;
}

/**
 * The less common parts of an Elasticsearch exception:
 * - `bodyHeaders` are written in the body as `"header":{…}` and also sent as HTTP headers
 *   (security's `WWW-Authenticate`);
 * - `httpHeaders` are only sent as HTTP headers (`Allow` on a 405);
 * - `simple` selects RestController's flat bodies: `{"error":"<reason>","status":N}`
 *   ('with-status') or `{"error":"<reason>"}` ('without-status', the unknown-path 400);
 * - `shardFailures` makes the error a search_phase_execution_exception-style grouped failure.
 */
export interface ShoalErrorExtra {
  bodyHeaders?: Record<string, string[]>;
  httpHeaders?: Record<string, string>;
  simple?: 'with-status' | 'without-status';
  shardFailures?: ShardFailure[];
  /**
   * A Java exception that is not an ElasticsearchException although its wire type names one
   * (Lucene's query-parser `ParseException` is written `parse_exception`, as is
   * ElasticsearchParseException): root-cause guessing stops above it.
   */
  foreign?: true;
  /**
   * The messages of an action_request_validation_exception, one per problem: a request made of
   * several (`_msearch`) gathers its parts' problems into one exception, as
   * ActionRequestValidationException.addValidationErrors does.
   */
  validationErrors?: string[];
  /**
   * The body of RFC 6749 §5.2 that Elasticsearch's token endpoint answers with:
   * `{"error":"<type>","error_description":"<reason>"}` (the type is the OAuth2 error code).
   */
  oauth2?: true;
}

interface WireErrorExtra {
  bodyHeaders?: Record<string, string[]>;
  httpHeaders?: Record<string, string>;
  simple?: 'with-status' | 'without-status';
  shardFailures?: WireShardFailure[];
  foreign?: true;
  oauth2?: true;
}

export class ShoalError extends Error {
  readonly type: string;
  readonly reason: string;
  readonly status: number;
  /** Extra fields written after `reason`, in insertion order (`index_uuid`, `index`, …). */
  readonly metadata: Record<string, unknown>;
  readonly causedBy?: ShoalError;
  readonly extra: ShoalErrorExtra;

  constructor(
    type: string,
    reason: string,
    status: number,
    metadata: Record<string, unknown> = {},
    causedBy?: ShoalError,
    extra: ShoalErrorExtra = {},
  ) {
    super(reason);
    this.name = 'ShoalError';
    this.type = type;
    this.reason = reason;
    this.status = status;
    this.metadata = metadata;
    this.causedBy = causedBy;
    this.extra = extra;
  }

  /** Plain form for crossing a thread or a node. */
  toWire(): WireError {
    const w: WireError = { type: this.type, reason: this.reason, status: this.status };
    if (Object.keys(this.metadata).length > 0) w.metadata = this.metadata;
    if (this.causedBy) w.causedBy = this.causedBy.toWire();
    const x = this.extra;
    if (x.bodyHeaders || x.httpHeaders || x.simple || x.shardFailures || x.foreign || x.oauth2) {
      const e: WireErrorExtra = {};
      if (x.foreign) e.foreign = true;
      if (x.oauth2) e.oauth2 = true;
      if (x.bodyHeaders) e.bodyHeaders = x.bodyHeaders;
      if (x.httpHeaders) e.httpHeaders = x.httpHeaders;
      if (x.simple) e.simple = x.simple;
      if (x.shardFailures) {
        e.shardFailures = x.shardFailures.map((f) => ({ ...f, reason: f.reason.toWire() }));
      }
      w.extra = e;
    }
    if (this.stack) w.stack = this.stack;
    return w;
  }

  static fromWire(w: WireError): ShoalError {
    const x = w.extra;
    const extra: ShoalErrorExtra = {};
    if (x?.bodyHeaders) extra.bodyHeaders = x.bodyHeaders;
    if (x?.httpHeaders) extra.httpHeaders = x.httpHeaders;
    if (x?.simple) extra.simple = x.simple;
    if (x?.foreign) extra.foreign = true;
    if (x?.oauth2) extra.oauth2 = true;
    if (x?.shardFailures) {
      extra.shardFailures = x.shardFailures.map((f) => ({ ...f, reason: ShoalError.fromWire(f.reason) }));
    }
    const e = new ShoalError(
      w.type,
      w.reason,
      w.status,
      w.metadata ?? {},
      w.causedBy ? ShoalError.fromWire(w.causedBy) : undefined,
      extra,
    );
    // Keep the stack of the thread or node that raised it, for `error_trace`.
    if (w.stack) e.stack = w.stack;
    return e;
  }
}

export function isShoalError(e: unknown): e is ShoalError {
  return e instanceof ShoalError;
}
