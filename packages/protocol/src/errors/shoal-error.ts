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
}

export class ShoalError extends Error {
  readonly type: string;
  readonly reason: string;
  readonly status: number;
  /** Extra fields written after `reason`, in insertion order (`index_uuid`, `index`, …). */
  readonly metadata: Record<string, unknown>;
  readonly causedBy?: ShoalError;

  constructor(
    type: string,
    reason: string,
    status: number,
    metadata: Record<string, unknown> = {},
    causedBy?: ShoalError,
  ) {
    super(reason);
    this.name = 'ShoalError';
    this.type = type;
    this.reason = reason;
    this.status = status;
    this.metadata = metadata;
    this.causedBy = causedBy;
  }

  /** Plain form for crossing a thread or a node. */
  toWire(): WireError {
    const w: WireError = { type: this.type, reason: this.reason, status: this.status };
    if (Object.keys(this.metadata).length > 0) w.metadata = this.metadata;
    if (this.causedBy) w.causedBy = this.causedBy.toWire();
    return w;
  }

  static fromWire(w: WireError): ShoalError {
    return new ShoalError(
      w.type,
      w.reason,
      w.status,
      w.metadata ?? {},
      w.causedBy ? ShoalError.fromWire(w.causedBy) : undefined,
    );
  }
}

export function isShoalError(e: unknown): e is ShoalError {
  return e instanceof ShoalError;
}
