/**
 * The worker side of PIT and scroll: opening contexts on the shard's current reader, PIT
 * searches on a pinned reader, scroll steps, the fetch that records which hits a scroll page
 * consumed, and freeing. A scroll's position is kept here, per step: each step starts after
 * the last hit this shard contributed to the previous page, so a retried call with an older
 * scroll id recomputes the same page (paging.md §3.2; Shoal keeps the last few steps).
 */
import {
  executeFetch,
  queryShard,
  type ShardFetchRequest,
  type ShardFetchResult,
  type ShardQueryRequest,
  type ShardQueryResult,
} from '@shoal/engine';
import { type SortSpec, TRACK_TOTAL_HITS_DISABLED } from '@shoal/protocol';
import type { CounterRef } from './context-counters.ts';
import { advanceScroll, type ContextRef, type ReaderContexts, scrollStep } from './reader-contexts.ts';
import type { ShardHost } from './shard-host.ts';
import type { QueryTaskResult, ShardKey } from './tasks.ts';

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
  | { t: 'open_pit'; key: ShardKey; keepAliveMs: number; counters: CounterRef; reapIntervalMs: number }
  | {
      t: 'scroll_start';
      key: ShardKey;
      req: ShardQueryRequest;
      cancel: SharedArrayBuffer;
      keepAliveMs: number;
      /** `search.max_open_scroll_context`. */
      maxOpenScrolls: number;
      spec: ScrollSpec;
      counters: CounterRef;
      reapIntervalMs: number;
    }
  | {
      t: 'scroll_next';
      key: ShardKey;
      context: ContextRef;
      step: number;
      /** The new keep-alive; absent: the context keeps its own (and is freed after this page). */
      keepAliveMs?: number;
      cancel: SharedArrayBuffer;
    }
  | { t: 'free_contexts'; contexts: { key: ShardKey; context: ContextRef }[]; reason: 'closed' | 'expired' }
  | { t: 'free_scrolls' };

export interface ContextTaskResults {
  open_pit: { context: ContextRef };
  scroll_start: { result: ShardQueryResult; context: ContextRef };
  scroll_next: { result: ShardQueryResult; spec: ScrollSpec };
  free_contexts: { freed: number };
  free_scrolls: { freed: number };
}

/** A query on a PIT's pinned reader (the `pit` of a query task). */
export interface PitQuery {
  context: ContextRef;
  /** Extends the PIT's lease when given. */
  keepAliveMs?: number;
}

/** A fetch on a PIT or scroll context; for a scroll page, which of the shard's hits it consumed. */
export interface ContextFetch {
  session: string;
  scroll?: { step: number; consumed: number; free: boolean };
}

export interface ContextDeps {
  host(key: ShardKey): ShardHost;
  contexts: ReaderContexts;
  isCancelled(cancel: SharedArrayBuffer): () => boolean;
}

function queryContext(h: ShardHost, deps: ContextDeps, cancel: SharedArrayBuffer) {
  return {
    index: h.spec.index,
    indexUuid: h.spec.indexUuid,
    shardId: h.spec.shardId,
    isCancelled: deps.isCancelled(cancel),
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
      contexts.attach(task.counters);
      contexts.setReapInterval(task.reapIntervalMs);
      const reader = deps.host(task.key).engine.acquireReader();
      return { context: contexts.openPit(task.key, reader, task.keepAliveMs) };
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

function startScroll(task: Extract<ContextTask, { t: 'scroll_start' }>, deps: ContextDeps) {
  const { contexts } = deps;
  contexts.attach(task.counters);
  contexts.setReapInterval(task.reapIntervalMs);
  const h = deps.host(task.key);
  const reader = h.engine.acquireReader();
  let ctx: ReturnType<ReaderContexts['openScroll']>;
  try {
    ctx = contexts.openScroll(task.key, reader, task.keepAliveMs, task.maxOpenScrolls, {
      req: task.req,
      spec: task.spec,
      total: 0,
      relation: 'eq',
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
    state.steps.set(0, { returned: positions });
    if (task.req.slice) contexts.recountSliceBytes();
    return { result, context: { id: ctx.id, session: contexts.session } };
  } catch (e) {
    // Elasticsearch frees a scroll's context on any failure of its phases.
    contexts.free(ctx.id, 'closed');
    throw e;
  }
}

function nextScroll(task: Extract<ContextTask, { t: 'scroll_next' }>, deps: ContextDeps) {
  const { contexts } = deps;
  const W0 = performance.timeOrigin + performance.now();
  const ctx = contexts.use(task.key, task.context, task.keepAliveMs);
  const state = ctx.scroll;
  if (!state) throw contexts.missing(task.context);
  const from = scrollStep(ctx, task.step).from;
  const h = deps.host(task.key);
  try {
    // The total was counted on the first page; later pages need not count it again.
    const req: ShardQueryRequest = { ...state.req, trackTotalHitsUpTo: TRACK_TOTAL_HITS_DISABLED };
    if (from) req.resumeAfter = from;
    const { result, positions } = queryShard(ctx.reader, h.mapping, req, queryContext(h, deps, task.cancel));
    state.steps.set(task.step, { ...(from ? { from } : {}), returned: positions });
    const out: ShardQueryResult = { ...result, totalHits: state.total, totalRelation: state.relation };
    return { result: out, spec: state.spec as ScrollSpec, w0: W0, w1: performance.timeOrigin + performance.now() } as never;
  } catch (e) {
    contexts.free(ctx.id, 'closed');
    throw e;
  }
}

/** A query task with a `pit`: runs on the PIT's reader; the context id is the PIT's own. */
export function pitQuery(
  key: ShardKey,
  req: ShardQueryRequest,
  pit: PitQuery,
  cancel: SharedArrayBuffer,
  deps: ContextDeps,
): QueryTaskResult {
  const ctx = deps.contexts.use(key, pit.context, pit.keepAliveMs);
  const h = deps.host(key);
  const { result } = queryShard(ctx.reader, h.mapping, req, queryContext(h, deps, cancel));
  if (req.slice) deps.contexts.recountSliceBytes();
  return { result, contextId: ctx.id };
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

/** The fetch phase on a PIT or scroll context (which stays open unless the scroll ends here). */
export function contextFetch(
  key: ShardKey,
  contextId: number,
  req: ShardFetchRequest,
  via: ContextFetch,
  deps: ContextDeps,
): ShardFetchResult {
  const { contexts } = deps;
  const ref = { id: contextId, session: via.session };
  const ctx = contexts.use(key, ref);
  try {
    if (via.scroll) advanceScroll(ctx, via.scroll.step, via.scroll.consumed);
    return req.docs.length > 0 ? executeFetch(ctx.reader, req) : emptyFetch();
  } finally {
    if (via.scroll?.free) contexts.free(ctx.id, 'closed');
  }
}
