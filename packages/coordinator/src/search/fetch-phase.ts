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

/** How a PIT page fetches: from each shard's PIT context. */
export interface ContextFetchPlan {
  via(outcome: ShardQueryOutcome): ContextFetch;
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
      if (!entry) {
        if (!outcome.persistent) await worker.run({ t: 'release', contextIds: [contextId] }).catch(() => {});
        return;
      }
      try {
        const positions = entry.positions;
        const docs = positions.map((p) => page[p]!.doc);
        const fetched = await worker.run({
          t: 'fetch',
          key: outcome.key,
          contextId,
          req: { ...req, docs },
          release: !outcome.persistent,
          ...(plan ? { context: plan.via(outcome) } : {}),
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

/**
 * The page's documents when each shard fetched (some of) its hits with its query (a scroll
 * step): the page takes a prefix of every shard's list, so the k-th page hit of a shard is its
 * k-th fetched document; what a shard did not prefetch is fetched now from its context.
 * Also returns how many hits the page took from each shard, by shard index.
 */
export async function prefetchedPage(
  s: NodeServices,
  page: MergeHit[],
  outcomes: ShardQueryOutcome[],
  req: Omit<ShardFetchRequest, 'docs'>,
  plan: ContextFetchPlan | undefined,
): Promise<{ hits: (FetchedHit | undefined)[]; failures: ShardFailure[]; consumed: Map<number, number> }> {
  const outcomeOf = new Map(outcomes.map((o) => [o.target.shardIndex, o]));
  const consumed = new Map<number, number>();
  const rest = new Map<number, number[]>();
  const hits: (FetchedHit | undefined)[] = page.map((hit, pos) => {
    const outcome = outcomeOf.get(hit.shardIndex)!;
    const i = consumed.get(hit.shardIndex) ?? 0;
    consumed.set(hit.shardIndex, i + 1);
    const fetched = outcome.fetched!;
    if (i < fetched.ids.length) return { hit, outcome, fetched, i };
    const list = rest.get(hit.shardIndex) ?? [];
    list.push(pos);
    rest.set(hit.shardIndex, list);
    return undefined;
  });
  const failures: ShardFailure[] = [];
  await Promise.all(
    [...rest].map(async ([shardIndex, positions]) => {
      const outcome = outcomeOf.get(shardIndex)!;
      try {
        const fetched = await outcome.worker.run({
          t: 'fetch',
          key: outcome.key,
          contextId: outcome.contextId!,
          req: { ...req, docs: positions.map((p) => page[p]!.doc) },
          release: false,
          context: plan?.via(outcome),
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
  return { hits, failures, consumed };
}
