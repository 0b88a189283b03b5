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
import { fetchFor } from './read-restrictions.ts';
import { asShoalError, type ShardFailure } from './shard-failure.ts';

export interface FetchedHit {
  hit: MergeHit;
  outcome: ShardQueryOutcome;
  fetched: ShardFetchResult;
  /** Position in `fetched`. */
  i: number;
  /** With search `explain`: the node id of the copy that fetched it (explain-fetch.ts). */
  node?: string;
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
  /** What a shard's fetch request adds of its own (search `explain`: its query). */
  perShard?: (o: ShardQueryOutcome) => Partial<ShardFetchRequest>,
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
          req: fetchFor({ ...req, ...perShard?.(outcome), docs }, outcome.target),
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
 * step, a small first page): the page takes a prefix of every shard's list, so the k-th page
 * hit of a shard is its k-th fetched document. What a shard did not prefetch is left
 * `undefined` in `hits` and listed in `rest` (page positions by shard index), for
 * fetchRemainder. Also returns how many hits the page took from each shard, by shard index.
 */
export function prefetchedHits(
  page: MergeHit[],
  outcomes: ShardQueryOutcome[],
): {
  hits: (FetchedHit | undefined)[];
  consumed: Map<number, number>;
  rest: Map<number, number[]> | undefined;
} {
  // By shard index; a holey array is cheaper than a Map for a handful of small integers.
  const outcomeOf: ShardQueryOutcome[] = [];
  for (const o of outcomes) outcomeOf[o.target.shardIndex] = o;
  const taken: number[] = new Array(outcomeOf.length).fill(0);
  let rest: Map<number, number[]> | undefined;
  const hits: (FetchedHit | undefined)[] = new Array(page.length);
  for (let pos = 0; pos < page.length; pos++) {
    const hit = page[pos]!;
    const outcome = outcomeOf[hit.shardIndex]!;
    const i = taken[hit.shardIndex]!;
    taken[hit.shardIndex] = i + 1;
    const fetched = outcome.fetched!;
    if (i < fetched.ids.length) {
      hits[pos] = { hit, outcome, fetched, i };
      continue;
    }
    rest ??= new Map();
    const list = rest.get(hit.shardIndex);
    if (list) list.push(pos);
    else rest.set(hit.shardIndex, [pos]);
  }
  const consumed = new Map<number, number>();
  for (let shardIndex = 0; shardIndex < taken.length; shardIndex++) {
    if (taken[shardIndex]! > 0) consumed.set(shardIndex, taken[shardIndex]!);
  }
  return { hits, consumed, rest };
}

/** Fetches the page hits a prefetch did not cover (prefetchedHits' `rest`) into `hits`. */
export async function fetchRemainder(
  s: NodeServices,
  page: MergeHit[],
  outcomes: ShardQueryOutcome[],
  rest: Map<number, number[]>,
  hits: (FetchedHit | undefined)[],
  req: Omit<ShardFetchRequest, 'docs'>,
  plan: ContextFetchPlan | undefined,
): Promise<ShardFailure[]> {
  const outcomeOf = new Map(outcomes.map((o) => [o.target.shardIndex, o]));
  const failures: ShardFailure[] = [];
  await Promise.all(
    [...rest].map(async ([shardIndex, positions]) => {
      const outcome = outcomeOf.get(shardIndex)!;
      try {
        const fetched = await outcome.worker.run({
          t: 'fetch',
          key: outcome.key,
          contextId: outcome.contextId!,
          req: fetchFor({ ...req, docs: positions.map((p) => page[p]!.doc) }, outcome.target),
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
  return failures;
}
