/** A shard that failed its part of a search, and how Elasticsearch reports it. */
import { isShoalError, ShoalError, searchPhaseExecution } from '@shoal/protocol';

export interface ShardFailure {
  /** -1, with a null index, when the shard is not known (scroll continuations). */
  shard: number;
  index: string | null;
  node?: string;
  error: ShoalError;
}

export function asShoalError(e: unknown): ShoalError {
  if (isShoalError(e)) return e;
  return new ShoalError('exception', e instanceof Error ? e.message : String(e), 500);
}

function reasonJson(e: ShoalError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: e.type, reason: e.reason, ...e.metadata };
  if (e.causedBy) out.caused_by = reasonJson(e.causedBy);
  return out;
}

/** One entry of `_shards.failures`; failures with the same index and reason are reported once. */
export function shardFailuresJson(failures: ShardFailure[]): Record<string, unknown>[] {
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const f of failures) {
    const key = `${f.index}\u0000${f.error.type}\u0000${f.error.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry: Record<string, unknown> = { shard: f.shard, index: f.index };
    if (f.node) entry.node = f.node;
    entry.reason = reasonJson(f.error);
    out.push(entry);
  }
  return out;
}

/** The error of a search whose every shard failed (`search_phase_execution_exception`). */
export function allShardsFailed(phase: string, failures: ShardFailure[]): ShoalError {
  return searchPhaseExecution(
    phase,
    failures.map((f) => ({ shard: f.shard, index: f.index, node: f.node, reason: f.error })),
  );
}
