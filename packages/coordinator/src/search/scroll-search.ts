/**
 * Scroll (paging.md §3): `?scroll=<keep-alive>` on a search opens a context on every shard and
 * answers the first batch with a `_scroll_id`; each continuation returns the next batch. The
 * scroll's lease holds where it stands (scroll-cursor.ts): every continuation goes on from
 * there and advances it, whichever of the scroll's ids it presents, as Elasticsearch's do. Each
 * shard keeps, per step, where its part of the next page starts (it learns from the cursor how
 * many of its hits a page consumed), so a page the node knows it did not deliver can be
 * answered again. The total is counted once, on the first page, and is the same on every page.
 * A continuation without `scroll` returns its batch and frees the contexts; a failed one frees
 * them too.
 *
 * A scroll sorted without scores (the `_doc` export idiom) has its continuations rendered by
 * the shards: each shard reads its next batch ahead, renders every hit of it, and the page is
 * the merge of the shards' lists with the rendered hits concatenated (`renderedContinuation`).
 */

import {
  getInt,
  type SearchRequest,
  type ShoalError,
  searchPhaseExecution,
  TRACK_TOTAL_HITS_ACCURATE,
} from '@shoal/protocol';
import { type CancelToken, PackedCursor, type ScrollSpec, unpackHits } from '@shoal/shard';
import {
  decodeScrollId,
  encodeContextId,
  type ScrollId,
  type ShardContextEntry,
} from '../contexts/context-id.ts';
import { ScrollCursor, type ScrollPoint } from '../contexts/scroll-cursor.ts';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { contextTargets, contextWorker } from './context-targets.ts';
import { fetchFieldsSpec } from './fetch-fields.ts';
import { highlightFetch, targetMetas } from './highlight-fetch.ts';
import { keepAliveTooLarge, reapIntervalMs } from './keep-alive.ts';
import { matchedQueriesFetch } from './matched-queries-fetch.ts';
import { hitComparator } from './merge.ts';
import {
  contextCopy,
  renderedResult,
  runQueryPhase,
  type ShardQueryExec,
  type ShardQueryOutcome,
  withAggregations,
} from './query-phase.ts';
import { fetchFor } from './read-restrictions.ts';
import { concatRenderedPage } from './rendered-page.ts';
import { type PageShape, runSearchPhases } from './search-phases.ts';
import { type SearchBody, searchResponse } from './search-response.ts';
import { allShardsFailed, type ShardFailure } from './shard-failure.ts';
import { applyShardLimits, SCORE_SORT, shardRequests } from './shard-request.ts';
import type { ShardTarget } from './shard-targets.ts';
import { shardSlice } from './slice-targets.ts';

function keepAliveFailure(
  s: NodeServices,
  error: ShoalError,
  shards: { shard: number; index: string | null }[],
) {
  return searchPhaseExecution(
    'query',
    shards.map((x) => ({ ...x, node: s.node.id, reason: error })),
  );
}

/** A scroll sorted without scores: its hits carry no score and its pages no max_score. */
function renderable(spec: ScrollSpec): boolean {
  // Hits with `fields` and highlighted hits are rendered here, from their fetch (as the shards decide).
  if (spec.fetch.fields || spec.fetch.highlight) return false;
  return spec.explicitSort && !spec.trackScores && !spec.sort.some((x) => x.kind === 'score');
}

/** The leases of this node whose continuations the shards render (kept as long as the lease). */
const renderedLeases = new WeakSet<object>();

export async function startScroll(
  s: NodeServices,
  search: SearchRequest,
  targets: ShardTarget[],
  cancel: CancelToken,
  startedAt: bigint,
  rawHits = false,
  delivery?: Delivery,
): Promise<SearchBody> {
  const keepAliveMs = search.scrollKeepAliveMs!;
  const tooLarge = keepAliveTooLarge(s, keepAliveMs);
  if (tooLarge && targets.length > 0) {
    throw keepAliveFailure(
      s,
      tooLarge,
      targets.map((t) => ({ shard: t.shardId, index: t.meta.name })),
    );
  }
  const sort = search.sort ?? SCORE_SORT;
  const hasSort = search.sort !== undefined;
  const limits = applyShardLimits(targets, search, s, true);
  const build = shardRequests(search, sort, targets.length, 'scroll');
  const spec: ScrollSpec = {
    sort,
    explicitSort: hasSort,
    size: search.size,
    fetch: {
      source: search.source,
      version: search.version,
      seqNoPrimaryTerm: search.seqNoPrimaryTerm,
      ...(fetchFieldsSpec(search) ? { fields: fetchFieldsSpec(search) } : {}),
      ...highlightFetch(search, targetMetas(targets)),
      ...matchedQueriesFetch(search),
    },
    trackScores: search.trackScores,
  };
  const maxOpenScrolls = getInt(s.clusterSettings.effective(), 'search.max_open_scroll_context');
  const runnable = outsideSlice(limits.runnable, search, targets.length);
  const opened = new Map<number, ShardContextEntry>();
  const exec: ShardQueryExec = async (t) => {
    const { worker, key } = contextCopy(t);
    const r = await worker.run({
      t: 'scroll_start',
      key,
      req: build(t),
      cancel,
      keepAliveMs,
      maxOpenScrolls,
      spec: t.fieldVisibility ? { ...spec, fetch: fetchFor(spec.fetch, t) } : spec,
      reapIntervalMs: reapIntervalMs(s),
      prefetch: prefetchCount(search.size, runnable.length),
      render: rawHits && renderable(spec),
    });
    opened.set(t.shardIndex, {
      node: s.node.id,
      index: t.meta.name,
      uuid: t.meta.uuid,
      shardId: t.shardId,
      worker: worker.id,
      context: r.context,
    });
    const { result, fetched } = unpackHits(r);
    return { reply: { result: withAggregations(result, r), contextId: r.context.id }, worker, key, fetched };
  };
  const lease = s.leases.newLeaseId();
  const shardIndexes = () => [...opened.keys()].sort((a, b) => a - b);
  const scrollId = (step: number, consumed: ReadonlyMap<number, number>) =>
    encodeContextId({
      kind: 'scroll',
      lease,
      step,
      shards: shardIndexes().map((i) => opened.get(i)!),
      consumed: shardIndexes().map((i) => consumed.get(i) ?? 0),
      totalShards: targets.length,
    });
  let firstPage: ReadonlyMap<number, number> = new Map();
  try {
    const { body } = await runSearchPhases(
      s,
      {
        shape: { search, sort, hasSort },
        totalShards: targets.length,
        runnable,
        failures: limits.failures,
        exec,
        persistent: true,
        prefetched: true,
        fetchPlan: { via: (o) => ({ session: opened.get(o.target.shardIndex)!.context.session }) },
        rawHits,
        startedAt,
      },
      {
        scrollId: (consumed) => {
          firstPage = consumed;
          return scrollId(1, consumed);
        },
      },
    );
    const shards = shardIndexes().map((i) => opened.get(i)!);
    const added = s.leases.add({
      id: lease,
      kind: 'scroll',
      encoded: scrollId(0, new Map()),
      shards,
      keepAliveMs,
      size: search.size,
      cursor: new ScrollCursor({ step: 1, consumed: shardIndexes().map((i) => firstPage.get(i) ?? 0) }),
    });
    if (renderable(spec)) renderedLeases.add(added);
    // A first page that never reached its client leaves nobody who knows the scroll's id.
    delivery?.onUndelivered(() => {
      if (s.leases.remove(lease) === added) void s.leases.free(shards, 'closed');
    });
    return body;
  } catch (e) {
    await s.leases.free([...opened.values()], 'closed');
    throw e;
  }
}

/**
 * The shards a sliced scroll reads: a shard outside the slice would answer nothing on every
 * page, so it gets no context (Elasticsearch short-circuits it the same way) and still counts
 * as a successful shard.
 */
function outsideSlice(targets: ShardTarget[], search: SearchRequest, numShards: number): ShardTarget[] {
  const slice = search.slice;
  if (!slice) return targets;
  return targets.filter((t) => shardSlice(slice, t.shardIndex, numShards, 'scroll').max !== 0);
}

/**
 * How many of its hits each shard fetches with its query: about what it gave the previous
 * page, or its even share of a first page, with some room (the rest is fetched after the
 * merge). One shard fetches the whole page.
 */
function prefetchCount(size: number, shards: number, previous?: number): number {
  if (shards <= 1) return size;
  const expected = previous ?? size / shards;
  return Math.min(size, Math.ceil(expected * 1.15) + 16);
}

/** A scroll over no shard (a wildcard that matched nothing) has nothing to continue. */
const EMPTY_SPEC: ScrollSpec = {
  sort: SCORE_SORT,
  explicitSort: false,
  size: 0,
  fetch: { source: { enabled: true, includes: [], excludes: [] }, version: false, seqNoPrimaryTerm: false },
  trackScores: false,
};

/** The page shape a continuation renders, from what its shards kept. */
function continuationShape(spec: ScrollSpec, restTotalHitsAsInt: boolean): PageShape {
  const search: SearchRequest = {
    query: { type: 'match_all', boost: 1 },
    from: 0,
    size: spec.size,
    sort: spec.explicitSort ? spec.sort : undefined,
    trackTotalHits: TRACK_TOTAL_HITS_ACCURATE,
    trackScores: spec.trackScores,
    source: spec.fetch.source,
    version: spec.fetch.version,
    seqNoPrimaryTerm: spec.fetch.seqNoPrimaryTerm,
    restTotalHitsAsInt,
  };
  if (spec.fetch.fields?.storedNone) search.storedFields = { fetch: false, names: [] };
  return { search, sort: spec.sort, hasSort: spec.explicitSort };
}

/** How a handler learns that its response did not reach the client (RestRequest.onUndelivered). */
export type Delivery = Pick<RestRequest, 'onUndelivered'>;

export interface ScrollContinuation {
  scrollId: string;
  /** The new keep-alive; absent: this is the last page, the contexts are freed after it. */
  keepAliveMs?: number;
  restTotalHitsAsInt: boolean;
  /** Write the hits straight to bytes (see hits-json.ts). */
  rawHits?: boolean;
  /** Told when the page was not delivered: it is then answered again by the next continuation. */
  delivery?: Delivery;
}

/** A page of a scroll and how many of each shard's hits it consumed (in the id's shard order). */
interface ScrollPage {
  body: SearchBody;
  consumed: number[];
}

export async function continueScroll(
  s: NodeServices,
  c: ScrollContinuation,
  cancel: CancelToken,
  startedAt: bigint,
): Promise<SearchBody> {
  const presented: ScrollId = decodeScrollId(c.scrollId);
  if (c.keepAliveMs !== undefined) {
    const tooLarge = keepAliveTooLarge(s, c.keepAliveMs);
    if (tooLarge) {
      // Elasticsearch frees a scroll's contexts when a continuation fails.
      s.leases.remove(presented.lease);
      await s.leases.free(presented.shards, 'closed');
      throw keepAliveFailure(
        s,
        tooLarge,
        presented.shards.map(() => ({ shard: -1, index: null })),
      );
    }
  }
  const cursor = s.leases.get(presented.lease)?.cursor;
  // A scroll this node holds no lease for goes on from the position its id names.
  if (!cursor) return (await scrollPage(s, c, presented, cancel, startedAt)).body;
  const turn = await cursor.turn(async (at: ScrollPoint) => {
    const id: ScrollId = { ...presented, step: at.step, consumed: [...at.consumed] };
    const { body, consumed } = await scrollPage(s, c, id, cancel, startedAt);
    return { value: body, next: { step: at.step + 1, consumed } };
  });
  // The last page freed the contexts: there is nothing to answer again.
  if (c.keepAliveMs !== undefined) c.delivery?.onUndelivered(turn.undo);
  return turn.value;
}

/** The page of a scroll at the position `id` names, on the contexts it names. */
async function scrollPage(
  s: NodeServices,
  c: ScrollContinuation,
  id: ScrollId,
  cancel: CancelToken,
  startedAt: bigint,
): Promise<ScrollPage> {
  const { targets, failures } = contextTargets(s, id.shards, false);
  const lease = s.leases.get(id.lease);
  if (c.rawHits && lease && renderedLeases.has(lease) && id.shards.length > 0) {
    const page = await renderedContinuation(s, c, id, targets, failures, cancel, startedAt);
    if (c.keepAliveMs === undefined) s.leases.remove(id.lease);
    else s.leases.touch(id.lease, c.keepAliveMs);
    return page;
  }
  const specs = new Map<number, ScrollSpec>();
  // The batch size is the shards' to know; this node's lease knows it too (else: fetch all).
  const size = lease?.size ?? Number.MAX_SAFE_INTEGER;
  const exec: ShardQueryExec = async (t) => {
    const { worker, key, context, r } = await scrollNext(s, c, id, t, cancel, {
      // The last page frees its contexts: nothing could be fetched from them afterwards.
      prefetch:
        c.keepAliveMs === undefined
          ? Number.MAX_SAFE_INTEGER
          : prefetchCount(size, id.shards.length, id.consumed[t.shardIndex]),
    });
    specs.set(t.shardIndex, r.spec);
    const { result, fetched } = unpackHits(r);
    return { reply: { result, contextId: context.id }, worker, key, fetched };
  };
  let consumedNow: number[] = id.shards.map(() => 0);
  const { body } = await runSearchPhases(
    s,
    {
      shape: (outcomes: ShardQueryOutcome[]) => {
        const spec = outcomes[0] && specs.get(outcomes[0].target.shardIndex);
        return continuationShape(spec ?? EMPTY_SPEC, c.restTotalHitsAsInt);
      },
      totalShards: id.totalShards,
      runnable: targets,
      failures,
      // A continuation is not addressed to a shard (Elasticsearch reports shard -1, index null).
      mapFailures: (fs) => fs.map((f) => ({ ...f, shard: -1, index: null })),
      exec,
      persistent: true,
      prefetched: true,
      fetchPlan: { via: (o) => ({ session: id.shards[o.target.shardIndex]!.context.session }) },
      rawHits: c.rawHits,
      startedAt,
    },
    {
      scrollId: (consumed) => {
        consumedNow = id.shards.map((_, i) => consumed.get(i) ?? 0);
        return encodeContextId({ ...id, step: id.step + 1, consumed: consumedNow });
      },
    },
  );
  if (c.keepAliveMs === undefined) s.leases.remove(id.lease);
  else s.leases.touch(id.lease, c.keepAliveMs);
  return { body, consumed: consumedNow };
}

/** One shard's step of a scroll continuation, on the worker holding its context. */
async function scrollNext(
  s: NodeServices,
  c: ScrollContinuation,
  id: ScrollId,
  t: ShardTarget,
  cancel: CancelToken,
  opts: { prefetch: number; render?: boolean },
) {
  const { worker, key, context } = contextWorker(s, id.shards[t.shardIndex]!);
  const r = await worker.run({
    t: 'scroll_next',
    key,
    context,
    step: id.step,
    consumed: id.consumed[t.shardIndex]!,
    keepAliveMs: c.keepAliveMs,
    cancel,
    ...opts,
  });
  return { worker, key, context, r };
}

/**
 * A continuation whose shards render their hits (a scroll sorted without scores, written
 * straight to bytes): the same page as the search phases would give — the merge of the shards'
 * lists cut at the batch size, each shard's part a prefix of its list — with no fetch phase and
 * no hit rendering here: each page hit is its shard's rendered JSON, concatenated.
 */
async function renderedContinuation(
  s: NodeServices,
  c: ScrollContinuation,
  id: ScrollId,
  targets: ShardTarget[],
  failed: ShardFailure[],
  cancel: CancelToken,
  startedAt: bigint,
): Promise<ScrollPage> {
  const specs = new Map<number, ScrollSpec>();
  const packed = new Map<number, PackedCursor>();
  const phase = await runQueryPhase(
    s,
    targets,
    async (t) => {
      const { worker, key, context, r } = await scrollNext(s, c, id, t, cancel, {
        prefetch: 0,
        render: true,
      });
      const cursor = new PackedCursor(r, t.shardIndex);
      const header = cursor.header;
      if (!header.rendered) throw new Error('the shard did not render its scroll hits');
      specs.set(t.shardIndex, r.spec);
      packed.set(t.shardIndex, cursor);
      // The hits stay packed: the page is merged from them below, without a hit object each.
      return { reply: { result: renderedResult(header), contextId: context.id }, worker, key };
    },
    true,
  );
  const { outcomes } = phase;
  // A continuation is not addressed to a shard (Elasticsearch reports shard -1, index null).
  const failures = [...failed, ...phase.failures.map((f) => ({ ...f, shard: -1, index: null }))];
  if (outcomes.length === 0) throw allShardsFailed('query', failures);
  const { search, sort, hasSort } = continuationShape(
    specs.get(outcomes[0]!.target.shardIndex)!,
    c.restTotalHitsAsInt,
  );
  const { hits: pageHits, consumed } = concatRenderedPage(
    outcomes.map((o) => packed.get(o.target.shardIndex)!),
    hitComparator(sort),
    search.size,
  );
  const consumedNow = id.shards.map((_, i) => consumed.get(i) ?? 0);
  const body = searchResponse({
    took: Number((process.hrtime.bigint() - startedAt) / 1_000_000n),
    req: search,
    totalShards: id.totalShards,
    skipped: 0,
    outcomes,
    failures,
    hits: [],
    hasSort,
    maxScore: Number.NaN,
    scrollId: encodeContextId({ ...id, step: id.step + 1, consumed: consumedNow }),
    rawHits: true,
    renderedHits: pageHits,
  });
  return { body, consumed: consumedNow };
}
