/**
 * Factories for the search-side exceptions: the grouped search_phase_execution_exception and
 * the scroll/PIT context errors (reference/paging.md §2).
 */
import { groupShardFailures, guessRootCauses } from './root-cause.ts';
import { type ShardFailure, ShoalError } from './shoal-error.ts';

/**
 * Every shard failed in one phase (`query`, `fetch`, `dfs`,
 * `indices:data/read/open_point_in_time`). The body carries `phase`, `grouped: true` and the
 * grouped `failed_shards`; `root_cause` lists each group's root cause.
 *
 * Status (SearchPhaseExecutionException.status): a shard status in 502..504 wins at once,
 * else the last one >= 500, else the first failure's; 503 when there are no failures at all.
 *
 * `caused_by` is the root cause of the first grouped failure, left out when that is the
 * failure's own exception (deduplicateCause). A Java exception (IllegalArgumentException…) is
 * never left out: Elasticsearch wraps it, so the body shows it twice, nested — as real
 * Elasticsearch responses do.
 */
export function searchPhaseExecution(
  phase: string,
  failures: ShardFailure[],
  reason = 'all shards failed',
): ShoalError {
  let status = 503;
  if (failures.length > 0) {
    let serverError: number | undefined;
    let retryable: number | undefined;
    for (const f of failures) {
      const s = f.reason.status;
      if (s >= 502 && s <= 504) {
        retryable = s;
        break;
      }
      if (s >= 500) serverError = s;
    }
    status = retryable ?? serverError ?? failures[0]!.reason.status;
  }
  let causedBy: ShoalError | undefined;
  const first = groupShardFailures(failures)[0];
  if (first) {
    const root = guessRootCauses(first.reason)[0];
    if (root?.wrapped) {
      const e = root.error;
      causedBy = new ShoalError(e.type, e.reason, e.status, {}, e);
    } else if (root && !failures.some((f) => f.reason === root.error)) {
      causedBy = root.error;
    }
  }
  return new ShoalError('search_phase_execution_exception', reason, status, { phase }, causedBy, {
    shardFailures: failures,
  });
}

/**
 * An expired or unknown scroll/PIT reader context; `id` is the shard-local reader id. Shoal may
 * add what it knows of the context's end (`detail`: it expired, when; it was closed).
 */
export function searchContextMissing(id: number | bigint | string, detail?: string): ShoalError {
  const reason = `No search context found for id [${id}]${detail === undefined ? '' : `: ${detail}`}`;
  return new ShoalError('search_context_missing_exception', reason, 404);
}

/** Shoal: 429 `too_many_scroll_contexts_exception`, as in Elasticsearch 8.12+ (paging.md §2.2 #28). */
export function tooManyScrollContexts(max: number): ShoalError {
  return new ShoalError(
    'too_many_scroll_contexts_exception',
    `Trying to create too many scroll contexts. Must be less than or equal to: [${max}]. ` +
      'This limit can be set by changing the [search.max_open_scroll_context] setting.',
    429,
  );
}
