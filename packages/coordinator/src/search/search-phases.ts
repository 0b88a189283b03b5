/**
 * The phases every kind of search shares once its shards are known — a plain search, a PIT
 * search, each page of a scroll: query phase, k-way merge and cut, max_score, fetch phase, and
 * the response. What differs (which reader each shard reads, what the fetch records) comes in
 * through the query executor and the fetch plan.
 */

import type { ShardFetchRequest } from '@shoal/engine';
import { RawJson, type SearchRequest, type SortSpec } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import { reduceAggregations } from './aggregations.ts';
import { mergeCollapsed } from './collapse.ts';
import { explainFetch, markNodes, refuseUnexplained } from './explain-fetch.ts';
import { fetchFieldsSpec } from './fetch-fields.ts';
import {
  type ContextFetchPlan,
  type FetchedHit,
  fetchRemainder,
  prefetchedHits,
  runFetchPhase,
} from './fetch-phase.ts';
import { highlightFetch } from './highlight-fetch.ts';
import { matchedQueriesFetch } from './matched-queries-fetch.ts';
import { hitComparator, mergeTopHits } from './merge.ts';
import {
  type QueryPhaseResult,
  releaseContexts,
  releaseHeld,
  runQueryPhase,
  type ShardQueryExec,
  type ShardQueryOutcome,
} from './query-phase.ts';
import { concatRenderedPage } from './rendered-page.ts';
import {
  renderedSearchBody,
  type SearchBody,
  type SearchResponseParts,
  searchResponse,
} from './search-response.ts';
import { allShardsFailed, type ShardFailure } from './shard-failure.ts';
import type { ShardTarget } from './shard-targets.ts';

/** What the page is cut and rendered by. */
export interface PageShape {
  search: SearchRequest;
  sort: SortSpec[];
  /** The request named a sort: hits carry `sort` values. */
  hasSort: boolean;
}

export interface PhasesInput {
  /** Known up front, or (a scroll continuation) from what the shards answered. */
  shape: PageShape | ((outcomes: ShardQueryOutcome[]) => PageShape);
  /** Every shard of the search (`_shards.total`). */
  totalShards: number;
  /** The shards to query; the others already failed (`failures`). */
  runnable: ShardTarget[];
  failures: ShardFailure[];
  exec: ShardQueryExec;
  /** The contexts are a PIT's or a scroll's: they stay open. */
  persistent: boolean;
  /** How the page is fetched from PIT or scroll contexts. */
  fetchPlan?: ContextFetchPlan;
  /** The shards fetched their first hits with their query (a scroll step, or a small first page). */
  prefetched?: boolean;
  /** Rewrites query-phase failures (a scroll continuation reports no shard, `-1`). */
  mapFailures?: (failures: ShardFailure[]) => ShardFailure[];
  /** Write the hits straight to bytes (see hits-json.ts). */
  rawHits?: boolean;
  /**
   * The shards sent their first page rendered (a small first page written straight to bytes,
   * from 0, not collapsed): no merge of hit objects, no fetch phase.
   */
  rendered?: boolean;
  /** When the request arrived (for `took`). */
  startedAt: bigint;
}

export interface PhasesOutput {
  outcomes: ShardQueryOutcome[];
  /** The object form, unless the shards rendered the page (`rendered`). */
  body: SearchBody;
}

/** `a` then `b`; no copy when either is empty (failures are read, never changed, after this). */
function concat(a: readonly ShardFailure[], b: readonly ShardFailure[]): ShardFailure[] {
  if (b.length === 0) return a as ShardFailure[];
  if (a.length === 0) return b as ShardFailure[];
  return [...a, ...b];
}

const NOTHING_CONSUMED: ReadonlyMap<number, number> = new Map();
const NO_FAILURES: readonly ShardFailure[] = [];

type PhaseIds = { scrollId?: (consumed: ReadonlyMap<number, number>) => string; pitId?: string };

/** What every page is built from once the query phase is in. */
interface ReducedQueryPhase {
  outcomes: ShardQueryOutcome[];
  failures: ShardFailure[];
  shape: PageShape;
  maxScore: number;
  aggregations: Record<string, unknown> | undefined;
}

export async function runSearchPhases(
  s: NodeServices,
  input: PhasesInput,
  ids: PhaseIds = {},
): Promise<PhasesOutput> {
  const phase = await runQueryPhase(s, input.runnable, input.exec, input.persistent);
  if (input.rendered) {
    try {
      return renderedPage(input, reduceQueryPhase(s, input, phase));
    } finally {
      // The page has been copied out of the reply slots its shards' hits were read in.
      releaseHeld(phase.outcomes);
    }
  }
  return fetchedPage(s, input, ids, reduceQueryPhase(s, input, phase));
}

/** The failures, the page's shape, max_score and the reduced aggregations. */
function reduceQueryPhase(s: NodeServices, input: PhasesInput, phase: QueryPhaseResult): ReducedQueryPhase {
  const { outcomes } = phase;
  const failures = concat(input.failures, input.mapFailures?.(phase.failures) ?? phase.failures);
  if (input.totalShards > 0 && outcomes.length === 0) throw allShardsFailed('query', failures);
  const shape = typeof input.shape === 'function' ? input.shape(outcomes) : input.shape;
  const { search, sort, hasSort } = shape;

  const scoreSorted = sort.some((x) => x.kind === 'score');
  let maxScore = Number.NaN;
  if (!hasSort || search.trackScores || scoreSorted) {
    for (const o of outcomes) {
      if (!Number.isNaN(o.result.maxScore) && !(o.result.maxScore <= maxScore)) maxScore = o.result.maxScore;
    }
  }
  // A size-0 search collects no top hits, so no shard has a max score (Elasticsearch's empty
  // TopDocs: NaN, rendered null) whatever the query, the aggregations or track_total_hits.
  if ((hasSort && !search.trackScores && !scoreSorted) || search.size === 0) maxScore = Number.NaN;
  if (input.totalShards === 0) maxScore = 0;
  let aggregations: Record<string, unknown> | undefined;
  if (search.aggs) {
    try {
      aggregations = reduceAggregations(
        s,
        search.aggs,
        outcomes.map((o) => o.result),
        search.typedKeys,
      );
    } catch (e) {
      // Too many buckets: the search fails, and the contexts kept for its fetch phase go.
      releaseContexts(outcomes);
      throw e;
    }
  }
  return { outcomes, failures, shape, maxScore, aggregations };
}

/**
 * Each shard sent its first page rendered: the page is merged and copied from them, and the
 * body assembled at once — the hits are read in the shards' reply slots, freed after this.
 */
function renderedPage(input: PhasesInput, r: ReducedQueryPhase): PhasesOutput {
  const { outcomes, failures, maxScore, aggregations } = r;
  const { search, sort, hasSort } = r.shape;
  const page = concatRenderedPage(
    outcomes.map((o) => {
      if (!o.rendered) throw new Error('a shard did not send its hits rendered');
      return o.rendered;
    }),
    hitComparator(sort),
    search.size,
  );
  const parts: SearchResponseParts = {
    took: Number((process.hrtime.bigint() - input.startedAt) / 1_000_000n),
    req: search,
    totalShards: input.totalShards,
    skipped: 0,
    outcomes,
    failures,
    hits: [],
    renderedHits: page.hits,
    hasSort,
    maxScore,
    aggregations,
  };
  const whole = renderedSearchBody(parts, page.hits);
  if (whole) return { outcomes, body: whole.assemble() };
  parts.renderedHits = new RawJson(page.hits).assemble().writer;
  return { outcomes, body: searchResponse(parts) };
}

/** A page merged from hit objects, its documents prefetched or fetched. */
async function fetchedPage(
  s: NodeServices,
  input: PhasesInput,
  ids: PhaseIds,
  r: ReducedQueryPhase,
): Promise<PhasesOutput> {
  const { outcomes, failures, maxScore, aggregations } = r;
  const { search, sort, hasSort } = r.shape;
  const page =
    search.collapse !== undefined
      ? mergeCollapsed(outcomes, hitComparator(sort), search.from, search.size)
      : mergeTopHits(
          outcomes.map((o) => o.hits),
          hitComparator(sort),
          search.from,
          search.size,
        );
  const fetchReq: Omit<ShardFetchRequest, 'docs'> = {
    source: search.source,
    version: search.version,
    seqNoPrimaryTerm: search.seqNoPrimaryTerm,
  };
  const fieldsSpec = fetchFieldsSpec(search);
  if (fieldsSpec) fetchReq.fields = fieldsSpec;
  Object.assign(fetchReq, matchedQueriesFetch(search));
  if (search.highlight)
    Object.assign(
      fetchReq,
      highlightFetch(
        search,
        outcomes.map((o) => o.target.meta),
      ),
    );
  let fetched: { hits: (FetchedHit | undefined)[]; failures: readonly ShardFailure[] };
  let consumed: ReadonlyMap<number, number> = NOTHING_CONSUMED;
  if (input.prefetched) {
    const pre = prefetchedHits(page, outcomes);
    consumed = pre.consumed;
    // Usually the prefetch covers the page: then there is nothing to wait for.
    const failures = pre.rest
      ? await fetchRemainder(s, page, outcomes, pre.rest, pre.hits, fetchReq, input.fetchPlan)
      : NO_FAILURES;
    fetched = { hits: pre.hits, failures };
  } else {
    try {
      const explain = search.explain ? explainFetch(search, sort, input.totalShards) : undefined;
      fetched = await runFetchPhase(s, page, outcomes, fetchReq, input.fetchPlan, explain);
      if (explain) {
        refuseUnexplained(fetched.failures);
        markNodes(fetched.hits, s.node.id);
      }
    } catch (e) {
      releaseContexts(outcomes);
      throw e;
    }
  }
  const took = Number((process.hrtime.bigint() - input.startedAt) / 1_000_000n);
  const body = searchResponse({
    took,
    req: search,
    totalShards: input.totalShards,
    skipped: 0,
    outcomes,
    failures: concat(failures, fetched.failures),
    hits: fetched.hits,
    hasSort,
    maxScore,
    scrollId: ids.scrollId?.(consumed),
    rawHits: input.rawHits,
    pitId: ids.pitId,
    aggregations,
  });
  return { outcomes, body };
}
