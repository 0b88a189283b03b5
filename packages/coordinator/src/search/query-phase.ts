/**
 * Query phase: every target shard returns its top `k` partial hits (sort values, score, doc id)
 * and its hit count, and keeps its reader for the fetch phase. Shards that are not started or
 * that fail are collected as failures; the search goes on with the others.
 */
import type { ShardQueryRequest, ShardQueryResult } from '@shoal/engine';
import { ShoalError } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import type { MergeHit } from './merge.ts';
import { asShoalError, type ShardFailure } from './shard-failure.ts';
import type { ShardTarget } from './shard-targets.ts';

export interface ShardQueryOutcome {
  target: ShardTarget;
  result: ShardQueryResult;
  hits: MergeHit[];
  contextId?: number;
}

export interface QueryPhaseResult {
  outcomes: ShardQueryOutcome[];
  failures: ShardFailure[];
}

function notStarted(t: ShardTarget): ShoalError {
  const state = t.copy?.state ?? 'UNASSIGNED';
  const why = t.copy?.reason ? `: ${t.copy.reason}` : '';
  return new ShoalError(
    'no_shard_available_action_exception',
    `[${t.meta.name}][${t.shardId}] shard copy is ${state}${why}`,
    503,
    { index_uuid: t.meta.uuid, shard: String(t.shardId), index: t.meta.name },
  );
}

export async function runQueryPhase(
  s: NodeServices,
  targets: ShardTarget[],
  build: (t: ShardTarget) => ShardQueryRequest,
  cancel: SharedArrayBuffer,
  keepContext: boolean,
): Promise<QueryPhaseResult> {
  const outcomes: ShardQueryOutcome[] = [];
  const failures: ShardFailure[] = [];
  const started = Date.now();
  s.counters.queryCurrent += targets.length;
  await Promise.all(
    targets.map(async (t) => {
      const copy = t.copy;
      try {
        if (copy?.state !== 'STARTED' || !copy.worker) throw notStarted(t);
        const reply = await copy.worker.run({
          t: 'query',
          key: copy.key,
          req: build(t),
          cancel,
          keepContext,
        });
        const hits = reply.result.hits.map((h) => ({ ...h, shardIndex: t.shardIndex }) as MergeHit);
        outcomes.push({ target: t, result: reply.result, hits, contextId: reply.contextId });
      } catch (e) {
        s.counters.queryFailure++;
        failures.push({ shard: t.shardId, index: t.meta.name, node: s.node.id, error: asShoalError(e) });
      }
    }),
  );
  s.counters.queryCurrent -= targets.length;
  s.counters.queryTotal += targets.length;
  s.counters.queryTimeMs += Date.now() - started;
  outcomes.sort((a, b) => a.target.shardIndex - b.target.shardIndex);
  return { outcomes, failures };
}

/** Frees the reader contexts that the fetch phase will not use. */
export function releaseContexts(outcomes: ShardQueryOutcome[]): void {
  for (const o of outcomes) {
    if (o.contextId !== undefined && o.target.copy?.worker) {
      o.target.copy.worker.run({ t: 'release', contextIds: [o.contextId] }).catch(() => {});
    }
  }
}
