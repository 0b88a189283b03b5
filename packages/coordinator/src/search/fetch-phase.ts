/**
 * Fetch phase: only the shards that own hits of the final page are asked for them, by doc id,
 * on the reader their query phase used; `_source` comes back as bytes and is spliced into the
 * response without being parsed.
 */
import type { ShardFetchRequest, ShardFetchResult } from '@shoal/engine';
import type { NodeServices } from '../services.ts';
import type { MergeHit } from './merge.ts';
import type { ShardQueryOutcome } from './query-phase.ts';
import { asShoalError, type ShardFailure } from './shard-failure.ts';

export interface FetchedHit {
  hit: MergeHit;
  outcome: ShardQueryOutcome;
  fetched: ShardFetchResult;
  /** Position in `fetched`. */
  i: number;
}

export async function runFetchPhase(
  s: NodeServices,
  page: MergeHit[],
  outcomes: ShardQueryOutcome[],
  req: Omit<ShardFetchRequest, 'docs'>,
): Promise<{ hits: (FetchedHit | undefined)[]; failures: ShardFailure[] }> {
  const byShard = new Map<number, { outcome: ShardQueryOutcome; positions: number[] }>();
  const outcomeOf = new Map(outcomes.map((o) => [o.target.shardIndex, o]));
  page.forEach((hit, pos) => {
    let entry = byShard.get(hit.shardIndex);
    if (!entry) {
      entry = { outcome: outcomeOf.get(hit.shardIndex)!, positions: [] };
      byShard.set(hit.shardIndex, entry);
    }
    entry.positions.push(pos);
  });
  const hits: (FetchedHit | undefined)[] = new Array(page.length);
  const failures: ShardFailure[] = [];
  const started = Date.now();
  s.counters.fetchCurrent += byShard.size;
  await Promise.all(
    outcomes.map(async (outcome) => {
      const worker = outcome.target.copy?.worker;
      const entry = byShard.get(outcome.target.shardIndex);
      if (outcome.contextId === undefined || !worker) return;
      if (!entry) {
        await worker.run({ t: 'release', contextIds: [outcome.contextId] }).catch(() => {});
        return;
      }
      try {
        const docs = entry.positions.map((p) => page[p]!.doc);
        const fetched = await worker.run({
          t: 'fetch',
          key: outcome.target.copy!.key,
          contextId: outcome.contextId,
          req: { ...req, docs },
          release: true,
        });
        entry.positions.forEach((p, i) => {
          hits[p] = { hit: page[p]!, outcome, fetched, i };
        });
      } catch (e) {
        s.counters.fetchFailure++;
        failures.push({
          shard: outcome.target.shardId,
          index: outcome.target.meta.name,
          node: s.node.id,
          error: asShoalError(e),
        });
      }
    }),
  );
  s.counters.fetchCurrent -= byShard.size;
  s.counters.fetchTotal += byShard.size;
  s.counters.fetchTimeMs += Date.now() - started;
  return { hits, failures };
}
