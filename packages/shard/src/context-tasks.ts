/**
 * The worker side of PIT and scroll: opening contexts on the shard's current reader, PIT
 * searches on a pinned reader, scroll steps, and freeing. A scroll step queries and fetches in
 * one task (the coordinator then needs no fetch round trip per page): the shard returns its
 * next `size` hits with their documents, and the coordinator keeps those of the merged page.
 * Positions stay here, per step: the scroll id tells each shard how many of its hits the
 * previous page consumed, and the step starts right after the last of them — so a call
 * retried with an older id recomputes the same page (paging.md §3.2; Shoal keeps the last
 * few steps).
 *
 * When the coordinator takes rendered hits (`render`, a scroll sorted without scores), a step
 * returns all its hits rendered, from the context's read-ahead window (scroll-window.ts), and
 * the next step's hits are read, fetched and rendered as soon as the reply is sent.
 */
import {
  executeFetch,
  queryShard,
  type ShardFetchRequest,
  type ShardFetchResult,
  type ShardQueryRequest,
  type ShardQueryResult,
  type ShardReader,
} from '@shoal/engine';
import { type QueryNode, type SortSpec, TRACK_TOTAL_HITS_DISABLED, withAliasFilter } from '@shoal/protocol';
import type { CancelToken } from './cancel-slots.ts';
import { explainFetched } from './explain-fetch.ts';
import { type PackedReply, packedQueryReply, packHits } from './hit-codec.ts';
import {
  type ContextRef,
  type ReaderContext,
  type ReaderContexts,
  recordScrollStep,
  scrollFrom,
} from './reader-contexts.ts';
import { type ResumedQuery, ScrollWindow, scrollWindowBytes } from './scroll-window.ts';

import type { ShardHost } from './shard-host.ts';
import type { ShardKey, WireTaskResults } from './tasks.ts';

/** What the scroll windows of one shard worker thread may hold before read-ahead stops. */
const READ_AHEAD_BUDGET_BYTES = 128 * 1024 * 1024;

/** What a scroll continuation needs besides the shard's query: kept with every shard context. */
export interface ScrollSpec {
  sort: SortSpec[];
  /** The request named a sort (hits then carry `sort` values). */
  explicitSort: boolean;
  size: number;
  fetch: Omit<ShardFetchRequest, 'docs'>;
  trackScores: boolean;
}

export type ContextTask =
  | {
      t: 'open_pit';
      key: ShardKey;
      keepAliveMs: number;
      reapIntervalMs: number;
      /** The filter of the aliases the PIT was opened through; every search on it reads through it. */
      aliasFilter?: QueryNode;
    }
  | {
      t: 'scroll_start';
      key: ShardKey;
      req: ShardQueryRequest;
      cancel: CancelToken;
      keepAliveMs: number;
      /** `search.max_open_scroll_context`. */
      maxOpenScrolls: number;
      spec: ScrollSpec;
      reapIntervalMs: number;
      /** Fetch the documents of this many of the first hits with the query. */
      prefetch: number;
      /** Later steps return their hits rendered: start reading the next step ahead. */
      render?: boolean;
    }
  | {
      t: 'scroll_next';
      key: ShardKey;
      context: ContextRef;
      step: number;
      /** How many of this shard's hits the previous page consumed (named by the scroll id). */
      consumed: number;
      /** The new keep-alive; absent: the context keeps its own (and is freed after this page). */
      keepAliveMs?: number;
      cancel: CancelToken;
      /** Fetch the documents of this many of the first hits with the query. */
      prefetch: number;
      /**
       * Return every hit rendered (RenderedHits) instead of `prefetch` fetched ones: only for
       * a scroll sorted without scores (`renderable`).
       */
      render?: boolean;
    }
  | { t: 'free_contexts'; contexts: { key: ShardKey; context: ContextRef }[]; reason: 'closed' | 'expired' }
  | { t: 'free_scrolls' };

export interface ContextTaskResults {
  open_pit: { context: ContextRef };
  /** The first page: the shard's hits and their documents, packed (hit-codec.ts). */
  scroll_start: PackedReply & { context: ContextRef; aggregations?: ShardQueryResult['aggregations'] };
  scroll_next: PackedReply & { spec: ScrollSpec };
  free_contexts: { freed: number };
  free_scrolls: { freed: number };
}

/** A query on a PIT's pinned reader (the `pit` of a query task). */
export interface PitQuery {
  context: ContextRef;
  /** Extends the PIT's lease when given. */
  keepAliveMs?: number;
}

/** A fetch on a PIT's (or a scroll's) context. */
export interface ContextFetch {
  session: string;
}

export interface ContextDeps {
  host(key: ShardKey): ShardHost;
  contexts: ReaderContexts;
  isCancelled(cancel: CancelToken): () => boolean;
}

const notCancelled = () => false;

function queryContext(h: ShardHost, deps: ContextDeps, cancel: CancelToken | undefined) {
  return {
    index: h.spec.index,
    indexUuid: h.spec.indexUuid,
    shardId: h.spec.shardId,
    isCancelled: cancel === undefined ? notCancelled : deps.isCancelled(cancel),
    nowMillis: Date.now(),
  };
}

export function runContextTask(
  task: ContextTask,
  deps: ContextDeps,
): ContextTaskResults[keyof ContextTaskResults] {
  const { contexts } = deps;
  switch (task.t) {
    case 'open_pit': {
      contexts.setReapInterval(task.reapIntervalMs);
      const reader = deps.host(task.key).engine.acquireReader();
      return { context: contexts.openPit(task.key, reader, task.keepAliveMs, task.aliasFilter) };
    }
    case 'scroll_start':
      return startScroll(task, deps);
    case 'scroll_next':
      return nextScroll(task, deps);
    case 'free_contexts': {
      let freed = 0;
      for (const c of task.contexts) if (contexts.freeRef(c.key, c.context, task.reason)) freed++;
      return { freed };
    }
    case 'free_scrolls':
      return { freed: contexts.freeScrolls() };
  }
}

/** Whether a scroll's steps can be rendered ahead: its hits carry no score, its pages no max_score. */
function renderable(spec: ScrollSpec): boolean {
  // Hits with `fields` go through the fetch path, which renders them on the coordinator.
  if (spec.fetch.fields) return false;
  // Highlighted hits too: the highlight is made at fetch time.
  if (spec.fetch.highlight) return false;
  return spec.explicitSort && !spec.trackScores && !spec.sort.some((x) => x.kind === 'score');
}

function startScroll(task: Extract<ContextTask, { t: 'scroll_start' }>, deps: ContextDeps) {
  const { contexts } = deps;
  contexts.setReapInterval(task.reapIntervalMs);
  const h = deps.host(task.key);
  const reader = h.engine.acquireReader();
  let ctx: ReturnType<ReaderContexts['openScroll']>;
  try {
    // Aggregations belong to the first page only: the steps after it run the query without them.
    const { aggs: _firstPageOnly, ...stepReq } = task.req;
    ctx = contexts.openScroll(task.key, reader, task.keepAliveMs, task.maxOpenScrolls, {
      req: stepReq,
      spec: task.spec,
      total: 0,
      relation: 'eq',
      floatingKeys: 0,
    });
  } catch (e) {
    reader.release();
    throw e;
  }
  try {
    const { result, positions } = queryShard(reader, h.mapping, task.req, queryContext(h, deps, task.cancel));
    const state = ctx.scroll!;
    state.total = result.totalHits;
    state.relation = result.totalRelation;
    state.floatingKeys = result.floatingKeys ?? 0;
    recordScrollStep(ctx, 0, undefined, positions);
    if (task.req.slice) contexts.recountSliceBytes();
    const fetched = fetchHits(reader, result, task.spec, task.prefetch, h);
    if (task.render && renderable(task.spec) && result.hits.length === task.req.k) {
      const window = new ScrollWindow(
        h.spec.index,
        task.spec.size,
        task.spec.fetch,
        task.spec.explicitSort,
        state.floatingKeys,
      );
      state.window = window;
      readAhead(ctx, window, h, deps);
    }
    const reply: ContextTaskResults['scroll_start'] = {
      ...packHits(result, task.req.shardIndex, fetched),
      context: { id: ctx.id, session: contexts.session },
    };
    if (result.aggregations !== undefined) reply.aggregations = result.aggregations;
    return reply;
  } catch (e) {
    // Elasticsearch frees a scroll's context on any failure of its phases.
    contexts.free(ctx.id, 'closed');
    throw e;
  }
}

function nextScroll(task: Extract<ContextTask, { t: 'scroll_next' }>, deps: ContextDeps) {
  const { contexts } = deps;
  const ctx = contexts.use(task.key, task.context, task.keepAliveMs);
  const state = ctx.scroll;
  if (!state) throw contexts.missing(task.context);
  const from = scrollFrom(ctx, task.step, task.consumed);
  const h = deps.host(task.key);
  try {
    const spec = state.spec as ScrollSpec;
    if (task.render && renderable(spec)) {
      let window = state.window as ScrollWindow | undefined;
      if (!window) {
        window = new ScrollWindow(h.spec.index, spec.size, spec.fetch, spec.explicitSort, state.floatingKeys);
        state.window = window;
      }
      const query = resumedQuery(ctx, h, deps, task.cancel);
      const step = window.take(from, ctx.reader, query);
      recordScrollStep(ctx, task.step, from, step.positions);
      const out: ShardQueryResult = {
        totalHits: state.total,
        totalRelation: state.relation,
        maxScore: Number.NaN,
        hits: step.hits,
      };
      if (state.floatingKeys !== 0) out.floatingKeys = state.floatingKeys;
      if (task.keepAliveMs !== undefined && step.hits.length === spec.size) readAhead(ctx, window, h, deps);
      return { ...packHits(out, state.req.shardIndex, undefined, step.rendered), spec };
    }
    // The total was counted on the first page; later pages need not count it again.
    const req: ShardQueryRequest = { ...state.req, trackTotalHitsUpTo: TRACK_TOTAL_HITS_DISABLED };
    if (from) req.resumeAfter = from;
    const { result, positions } = queryShard(ctx.reader, h.mapping, req, queryContext(h, deps, task.cancel));
    recordScrollStep(ctx, task.step, from, positions);
    const out: ShardQueryResult = { ...result, totalHits: state.total, totalRelation: state.relation };
    return {
      ...packHits(out, state.req.shardIndex, fetchHits(ctx.reader, result, spec, task.prefetch, h)),
      spec,
    };
  } catch (e) {
    contexts.free(ctx.id, 'closed');
    throw e;
  } finally {
    // A continuation without `scroll` is the last: its batch, then the context is freed.
    if (task.keepAliveMs === undefined) contexts.free(ctx.id, 'closed');
  }
}

/** The scroll's query (its total not counted again) resumed after a position. */
function resumedQuery(
  ctx: ReaderContext,
  h: ShardHost,
  deps: ContextDeps,
  cancel: CancelToken | undefined,
): ResumedQuery {
  const state = ctx.scroll!;
  return (from) => {
    const req: ShardQueryRequest = { ...state.req, trackTotalHitsUpTo: TRACK_TOTAL_HITS_DISABLED };
    if (from) req.resumeAfter = from;
    const qc = queryContext(h, deps, cancel);
    const { result, positions } = queryShard(ctx.reader, h.mapping, req, qc);
    return { hits: result.hits, positions };
  };
}

/**
 * Reads the next step ahead once this reply is on its way (the thread is otherwise idle until
 * the next task). A failure here is dropped with the window: the next step reads afresh, and
 * reports it if it happens again.
 */
function readAhead(ctx: ReaderContext, window: ScrollWindow, h: ShardHost, deps: ContextDeps): void {
  if (scrollWindowBytes() > READ_AHEAD_BUDGET_BYTES) {
    // Many scrolls are open at once: this one gives its window back, and its next step is
    // read when it is asked for.
    if (ctx.scroll?.window === window) ctx.scroll.window = undefined;
    window.dispose();
    return;
  }
  setImmediate(() => {
    const state = ctx.scroll;
    if (!state || state.window !== window || !deps.contexts.isOpen(ctx)) return;
    try {
      window.readAhead(ctx.reader, resumedQuery(ctx, h, deps, undefined));
    } catch {
      state.window = undefined;
      window.dispose();
    }
  });
}

/**
 * The documents of the first `prefetch` hits a scroll step returns, in hit order: the page
 * usually takes about its share from each shard, and the coordinator fetches any rest.
 */
function fetchHits(
  reader: ShardReader,
  result: ShardQueryResult,
  spec: ScrollSpec,
  prefetch: number,
  h?: ShardHost,
): ShardFetchResult {
  const n = Math.min(prefetch, result.hits.length);
  if (n === 0) return emptyFetch();
  const docs = new Array<number>(n);
  for (let i = 0; i < n; i++) docs[i] = result.hits[i]!.doc;
  return executeFetch(reader, { ...spec.fetch, docs }, h?.mapping, h?.spec.index);
}

/** A query task with a `pit`: runs on the PIT's reader; the context id is the PIT's own. */
export function pitQuery(
  key: ShardKey,
  req: ShardQueryRequest,
  pit: PitQuery,
  cancel: CancelToken,
  deps: ContextDeps,
): WireTaskResults['query'] {
  const ctx = deps.contexts.use(key, pit.context, pit.keepAliveMs);
  const h = deps.host(key);
  const filtered = ctx.aliasFilter ? { ...req, query: withAliasFilter(req.query, ctx.aliasFilter) } : req;
  const { result } = queryShard(ctx.reader, h.mapping, filtered, queryContext(h, deps, cancel));
  if (req.slice) deps.contexts.recountSliceBytes();
  return { ...packedQueryReply(result, req.shardIndex), contextId: ctx.id };
}

const emptyFetch = (): ShardFetchResult => ({
  ids: [],
  routing: [],
  versions: [],
  seqNos: [],
  primaryTerms: [],
  sourceBytes: new Uint8Array(0),
  sourceOffsets: new Uint32Array(1),
});

/** The fetch phase on a PIT's or a scroll's context (which stays open). */
export function contextFetch(
  key: ShardKey,
  contextId: number,
  req: ShardFetchRequest,
  via: ContextFetch,
  deps: ContextDeps,
): ShardFetchResult {
  const ctx = deps.contexts.use(key, { id: contextId, session: via.session });
  const h = req.fields || req.highlight || req.explain ? deps.host(key) : undefined;
  if (req.docs.length === 0) return emptyFetch();
  const fetched = executeFetch(ctx.reader, req, h?.mapping, h?.spec.index);
  // A PIT opened through filtering aliases reads through their filter (pitQuery): so does the explain.
  const explain =
    req.explain && ctx.aliasFilter
      ? { ...req, explain: { ...req.explain, query: withAliasFilter(req.explain.query, ctx.aliasFilter) } }
      : req;
  const explanations = h && explainFetched(h, ctx.reader, explain);
  if (explanations) fetched.explanations = explanations;
  return fetched;
}
