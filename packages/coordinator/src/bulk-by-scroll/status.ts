/**
 * What a reindex or by-query run has done so far (Elasticsearch's BulkByScrollTask.Status),
 * and its JSON in Elasticsearch's field order: the task status `GET /_tasks` shows while it
 * runs, and the body of the final response. `_delete_by_query` leaves out `created` and
 * `updated`, `_update_by_query` leaves out `created`, as their REST handlers ask.
 */
import { type BulkByScrollKind, javaFloat, RawJson } from '@shoal/protocol';

export class ByScrollStatus {
  total = 0;
  updated = 0;
  created = 0;
  deleted = 0;
  batches = 0;
  versionConflicts = 0;
  noops = 0;
  bulkRetries = 0;
  searchRetries = 0;
  throttledMillis = 0;
  /** When the current throttle wait ends (epoch ms), 0 when not waiting. */
  throttledUntil = 0;
  canceled: string | undefined;

  constructor(
    readonly kind: BulkByScrollKind,
    /** Documents per second (Infinity: unthrottled). */
    public requestsPerSecond: number,
    readonly sliceId?: number,
  ) {}

  /** Documents this run has finished with (written, conflicting or skipped). */
  get done(): number {
    return this.updated + this.created + this.deleted + this.versionConflicts + this.noops;
  }
}

function rps(v: number): RawJson {
  return new RawJson(javaFloat(Number.isFinite(v) ? v : -1));
}

function fields(kind: BulkByScrollKind, s: Totals, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.sliceId !== undefined) out.slice_id = s.sliceId;
  out.total = s.total;
  if (kind !== 'delete_by_query') out.updated = s.updated;
  if (kind === 'reindex') out.created = s.created;
  out.deleted = s.deleted;
  out.batches = s.batches;
  out.version_conflicts = s.versionConflicts;
  out.noops = s.noops;
  out.retries = { bulk: s.bulkRetries, search: s.searchRetries };
  out.throttled_millis = s.throttledMillis;
  out.requests_per_second = rps(s.requestsPerSecond);
  if (s.canceled !== undefined) out.canceled = s.canceled;
  out.throttled_until_millis = s.throttledUntil > now ? s.throttledUntil - now : 0;
  return out;
}

type Totals = Omit<ByScrollStatus, 'done' | 'kind'>;

/**
 * A run's status, or a sliced run's: the sum of its slices with each slice's own status under
 * `slices` (a slice still to start shows as null, as in Elasticsearch).
 */
export function statusJson(
  kind: BulkByScrollKind,
  whole: ByScrollStatus,
  slices?: (ByScrollStatus | undefined)[],
): Record<string, unknown> {
  const now = Date.now();
  if (!slices) return fields(kind, whole, now);
  const sum: Totals = {
    total: 0,
    updated: 0,
    created: 0,
    deleted: 0,
    batches: 0,
    versionConflicts: 0,
    noops: 0,
    bulkRetries: 0,
    searchRetries: 0,
    throttledMillis: 0,
    throttledUntil: 0,
    canceled: whole.canceled,
    requestsPerSecond: whole.requestsPerSecond,
    sliceId: undefined,
  };
  for (const s of slices) {
    if (!s) continue;
    sum.total += s.total;
    sum.updated += s.updated;
    sum.created += s.created;
    sum.deleted += s.deleted;
    sum.batches += s.batches;
    sum.versionConflicts += s.versionConflicts;
    sum.noops += s.noops;
    sum.bulkRetries += s.bulkRetries;
    sum.searchRetries += s.searchRetries;
    sum.throttledMillis += s.throttledMillis;
    sum.throttledUntil = Math.min(
      sum.throttledUntil || s.throttledUntil,
      s.throttledUntil || sum.throttledUntil,
    );
  }
  return { ...fields(kind, sum, now), slices: slices.map((s) => (s ? fields(kind, s, now) : null)) };
}
