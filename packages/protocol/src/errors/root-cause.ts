/**
 * Elasticsearch's root-cause guessing (ElasticsearchException.guessRootCauses) and shard-failure
 * grouping (ExceptionsHelper.groupBy), shared by the search_phase_execution_exception factory
 * and by `errorBody`'s `root_cause` array.
 */
import { isElasticsearchType, isXContentParseType } from './exception-kind.ts';
import type { ShardFailure, ShoalError } from './shoal-error.ts';

/**
 * A guessed root cause. `wrapped` marks a Java (non-Elasticsearch) exception, which
 * Elasticsearch wraps in a fresh object whose cause is the exception itself: rendered in full,
 * such a wrapper repeats the exception as its own `caused_by`.
 */
export interface RootCause {
  error: ShoalError;
  wrapped: boolean;
}

/** Whether `e` is an ElasticsearchException (and not a Java exception written with such a type). */
export function isElasticsearchError(e: ShoalError): boolean {
  return e.extra.foreign !== true && isElasticsearchType(e.type);
}

/** The deepest causes: through Elasticsearch exceptions only, per shard failure when grouped. */
export function guessRootCauses(e: ShoalError): RootCause[] {
  const failures = e.extra.shardFailures;
  if (failures && isElasticsearchError(e)) {
    return groupShardFailures(failures).flatMap((f) => guessRootCauses(f.reason));
  }
  if (isElasticsearchError(e)) {
    if (e.causedBy && isElasticsearchError(e.causedBy)) return guessRootCauses(e.causedBy);
    return [{ error: e, wrapped: false }];
  }
  if (e.extra.foreign !== true && isXContentParseType(e.type) && e.causedBy) {
    const c = e.causedBy;
    if (isXContentParseType(c.type) || isElasticsearchError(c)) return guessRootCauses(c);
  }
  return [{ error: e, wrapped: true }];
}

/**
 * Deduplicates shard failures that share index, reason and exception type; the first of each
 * group is kept, in order. The index comes from the failure, else from the cause's `index`.
 */
export function groupShardFailures(failures: readonly ShardFailure[]): ShardFailure[] {
  const seen = new Set<string>();
  const out: ShardFailure[] = [];
  for (const f of failures) {
    const metaIndex = f.reason.metadata.index;
    const index = f.index ?? (typeof metaIndex === 'string' ? metaIndex : null);
    const key = JSON.stringify([index, f.reason.reason, f.reason.type]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}
