/**
 * The worker side of PIT and scroll: opening contexts on the shard's current reader, PIT
 * searches on a pinned reader, scroll steps, and freeing. A scroll step queries and fetches in
 * one task (the coordinator then needs no fetch round trip per page): the shard returns its
 * next `size` hits with their documents, and the coordinator keeps those of the merged page.
 * Positions stay here, per step: the scroll id tells each shard how many of its hits the
 * previous page consumed, and the step starts right after the last of them — so a call
 * retried with an older id recomputes the same page (paging.md §3.2; Shoal keeps the last
 * few steps).
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
import { type SortSpec, TRACK_TOTAL_HITS_DISABLED } from '@shoal/protocol';
import type { CounterRef } from './context-counters.ts';
import { type PackedReply, packedQueryReply, packHits } from './hit-codec.ts';
import { type ContextRef, type ReaderContexts, recordScrollStep, scrollFrom } from './reader-contexts.ts';
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
      /** Fetch the documents of this many of the first hits with the query. */
      prefetch: number;
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
      cancel: SharedArrayBuffer;
      /** Fetch the documents of this many of the first hits with the query. */
      prefetch: number;
    }
  | { t: 'free_contexts'; contexts: { key: ShardKey; context: ContextRef }[]; reason: 'closed' | 'expired' }
  | { t: 'free_scrolls' };

export interface ContextTaskResults {
  open_pit: { context: ContextRef };
  /** The first page: the shard's hits and their documents, packed (hit-codec.ts). */
  scroll_start: PackedReply & { context: ContextRef };
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
    recordScrollStep(ctx, 0, undefined, positions);
    if (task.req.slice) contexts.recountSliceBytes();
    const fetched = fetchHits(reader, result, task.spec, task.prefetch);
    return {
      ...packHits(result, task.req.shardIndex, fetched),
      context: { id: ctx.id, session: contexts.session },
    };
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
    // The total was counted on the first page; later pages need not count it again.
    const req: ShardQueryRequest = { ...state.req, trackTotalHitsUpTo: TRACK_TOTAL_HITS_DISABLED };
    if (from) req.resumeAfter = from;
    const { result, positions } = queryShard(ctx.reader, h.mapping, req, queryContext(h, deps, task.cancel));
    recordScrollStep(ctx, task.step, from, positions);
    const spec = state.spec as ScrollSpec;
    const out: ShardQueryResult = { ...result, totalHits: state.total, totalRelation: state.relation };
    return {
      ...packHits(out, state.req.shardIndex, fetchHits(ctx.reader, result, spec, task.prefetch)),
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

/**
 * The documents of the first `prefetch` hits a scroll step returns, in hit order: the page
 * usually takes about its share from each shard, and the coordinator fetches any rest.
 */
function fetchHits(
  reader: ShardReader,
  result: ShardQueryResult,
  spec: ScrollSpec,
  prefetch: number,
): ShardFetchResult {
  const n = Math.min(prefetch, result.hits.length);
  if (n === 0) return emptyFetch();
  const docs = new Array<number>(n);
  for (let i = 0; i < n; i++) docs[i] = result.hits[i]!.doc;
  return executeFetch(reader, { ...spec.fetch, docs });
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
  return req.docs.length > 0 ? executeFetch(ctx.reader, req) : emptyFetch();
}
