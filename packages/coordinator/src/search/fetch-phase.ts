/**
 * Fetch phase: only the shards that own hits of the final page are asked for them, by doc id,
 * on the reader their query phase used; `_source` comes back as bytes and is spliced into the
 * response without being parsed. Transient contexts are released by their fetch (or at once
 * when the shard has no hit on the page); PIT and scroll contexts stay open. A scroll page
 * also tells every shard how many of its hits the page consumed, which is where that shard's
 * next page starts.
 */
import type { ShardFetchRequest, ShardFetchResult } from '@shoal/engine';
import type { ContextFetch } from '@shoal/shard';
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

/** How a PIT or scroll page fetches: which context, and for a scroll what it consumed. */
export interface ContextFetchPlan {
  via(outcome: ShardQueryOutcome, consumed: number): ContextFetch;
  /** Ask every shard, also those without a hit on the page (a scroll records their position). */
  everyShard: boolean;
}

export async function runFetchPhase(
  s: NodeServices,
  page: MergeHit[],
  outcomes: ShardQueryOutcome[],
  req: Omit<ShardFetchRequest, 'docs'>,
  plan?: ContextFetchPlan,
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
      const { worker, contextId } = outcome;
      const entry = byShard.get(outcome.target.shardIndex);
      if (contextId === undefined) return;
      if (!entry && !(plan?.everyShard ?? false)) {
        if (!outcome.persistent) await worker.run({ t: 'release', contextIds: [contextId] }).catch(() => {});
        return;
      }
      try {
        const positions = entry?.positions ?? [];
        const docs = positions.map((p) => page[p]!.doc);
        const fetched = await worker.run({
          t: 'fetch',
          key: outcome.key,
          contextId,
          req: { ...req, docs },
          release: !outcome.persistent,
          ...(plan ? { context: plan.via(outcome, docs.length) } : {}),
        });
        positions.forEach((p, i) => {
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
