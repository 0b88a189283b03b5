/**
 * A query task as it crosses to the shard thread. Each property and each object costs the
 * structured clone on both threads, and the coordinator posts one task per shard of every
 * search: so the task's numbers travel in one array (an array of numbers is cloned without a
 * property name per value), and what is at its default is left out and filled back in on the
 * other side. A plain search's task is its shard key, its query and six numbers.
 */
import type { ShardFetchRequest, ShardQueryRequest } from '@shoal/engine';
import type { QueryNode, SortSpec, SourceFilter } from '@shoal/protocol';
import { type CancelToken, NOT_CANCELLABLE } from './cancel-slots.ts';
import type { PitQuery } from './context-tasks.ts';
import type { ShardKey, WorkerTask } from './tasks.ts';

export type FetchOptions = Omit<ShardFetchRequest, 'docs'>;

/** The fetch options, each left out at its default (whole `_source`, no version, no seq_no). */
export interface WireFetchOptions {
  source?: SourceFilter;
  version?: true;
  seqNoPrimaryTerm?: true;
  fields?: ShardFetchRequest['fields'];
  highlight?: ShardFetchRequest['highlight'];
  namedQueries?: ShardFetchRequest['namedQueries'];
  namedQueriesScore?: true;
  fieldVisibility?: ShardFetchRequest['fieldVisibility'];
}

/**
 * Fetch the documents of the first `count` hits with the query (query-and-fetch in one round
 * trip): for small first pages, fetching a few documents that the merge may drop costs less
 * than a second message to every shard.
 */
export interface QueryPrefetch {
  count: number;
  /**
   * Send the prefetched hits rendered (hit-render.ts renderPage) instead of their documents:
   * the coordinator only concatenates them (a page written straight to bytes).
   */
  render?: true;
  /** Rendered hits carry their `sort` values (the request named a sort). */
  withSort?: true;
  fetch: WireFetchOptions;
}

/** A shard's query, as the coordinator asks it. */
export interface QueryTask {
  key: ShardKey;
  req: ShardQueryRequest;
  /** The search's cancellation token (cancel-slots.ts). */
  cancel: CancelToken;
  /** Keep the reader for the fetch phase and return its context id. */
  keepContext?: true;
  /** Run on this PIT's reader (its context then serves the fetch phase too). */
  pit?: PitQuery;
  prefetch?: QueryPrefetch;
  /**
   * The shard may answer from its request cache (request-cache.ts), and keep the result there:
   * the coordinator found the search cacheable (no hits, nothing that depends on the clock).
   */
  requestCache?: true;
}

/** The numbers of a query task, by their place in WireQueryTask.n. */
const K = 0;
const TRACK_TOTAL_HITS = 1;
const SHARD_INDEX = 2;
const CANCEL = 3;
/** The prefetch's count; -1: no prefetch. */
const PREFETCH = 4;
const FLAGS = 5;

/** Bits of n[FLAGS]. */
const TRACK_SCORES = 1;
const KEEP_CONTEXT = 2;
const RENDER = 4;
const WITH_SORT = 8;
const REQUEST_CACHE = 16;

/** The parts of a query task not at their defaults. */
export interface WireQueryExtras
  extends Pick<
    ShardQueryRequest,
    | 'searchAfter'
    | 'slice'
    | 'resumeAfter'
    | 'aggs'
    | 'postFilter'
    | 'minScore'
    | 'limits'
    | 'rescore'
    | 'terminateAfter'
    | 'collapse'
    | 'runtimeMappings'
    | 'documentFilter'
    | 'fieldVisibility'
  > {
  /** Any sort but `_score` descending. */
  sort?: SortSpec[];
  pit?: PitQuery;
  /** The prefetch's fetch options, when any is not at its default. */
  fetch?: WireFetchOptions;
}

export interface WireQueryTask {
  t: 'query';
  key: ShardKey;
  query: QueryNode;
  /** k, trackTotalHitsUpTo, shardIndex, the cancel token, the prefetch count (-1: none), flags. */
  n: number[];
  x?: WireQueryExtras;
}

const SCORE_DESC: SortSpec[] = [{ kind: 'score', order: 'desc' }];
const WHOLE_SOURCE: SourceFilter = { enabled: true, includes: [], excludes: [] };

function isScoreDesc(sort: SortSpec[]): boolean {
  if (sort.length !== 1) return false;
  const s = sort[0]!;
  // A score sort has no other option (SortSpec).
  return s.kind === 'score' && s.order === 'desc';
}

function isWholeSource(s: SourceFilter): boolean {
  return s.enabled && s.includes.length === 0 && s.excludes.length === 0;
}

/**
 * The optional parts of a request, copied one by one: a rest spread (`{ sort, ...rest }`) is a
 * runtime call in V8, and the objects it makes do not share the hidden class of the engine's
 * own requests.
 */
function copyOptional(
  from: WireQueryExtras | ShardQueryRequest,
  to: WireQueryExtras | ShardQueryRequest,
): void {
  if (from.searchAfter !== undefined) to.searchAfter = from.searchAfter;
  if (from.slice !== undefined) to.slice = from.slice;
  if (from.resumeAfter !== undefined) to.resumeAfter = from.resumeAfter;
  if (from.aggs !== undefined) to.aggs = from.aggs;
  if (from.postFilter !== undefined) to.postFilter = from.postFilter;
  if (from.minScore !== undefined) to.minScore = from.minScore;
  if (from.limits !== undefined) to.limits = from.limits;
  if (from.rescore !== undefined) to.rescore = from.rescore;
  if (from.terminateAfter !== undefined) to.terminateAfter = from.terminateAfter;
  if (from.collapse !== undefined) to.collapse = from.collapse;
  if (from.runtimeMappings !== undefined) to.runtimeMappings = from.runtimeMappings;
  if (from.documentFilter !== undefined) to.documentFilter = from.documentFilter;
  if (from.fieldVisibility !== undefined) to.fieldVisibility = from.fieldVisibility;
}

/** Whether an object has any own property (without building a key list). */
function hasAny(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

export function toWireQueryTask(task: QueryTask): WireQueryTask {
  const { req, prefetch } = task;
  let flags = 0;
  if (req.trackScores) flags |= TRACK_SCORES;
  if (task.keepContext) flags |= KEEP_CONTEXT;
  if (prefetch?.render) flags |= RENDER;
  if (prefetch?.withSort) flags |= WITH_SORT;
  if (task.requestCache) flags |= REQUEST_CACHE;
  const n = [
    req.k,
    req.trackTotalHitsUpTo,
    req.shardIndex,
    task.cancel,
    prefetch ? prefetch.count : -1,
    flags,
  ];
  const wire: WireQueryTask = { t: 'query', key: task.key, query: req.query, n };
  const x: WireQueryExtras = {};
  copyOptional(req, x);
  if (!isScoreDesc(req.sort)) x.sort = req.sort;
  if (task.pit) x.pit = task.pit;
  if (prefetch && !isDefaultFetch(prefetch.fetch)) x.fetch = prefetch.fetch;
  if (hasAny(x)) wire.x = x;
  return wire;
}

export function fromWireQueryTask(wire: WireQueryTask): QueryTask {
  const n = wire.n;
  const x = wire.x;
  const flags = n[FLAGS]!;
  const req: ShardQueryRequest = {
    query: wire.query,
    sort: x?.sort ?? SCORE_DESC,
    k: n[K]!,
    trackTotalHitsUpTo: n[TRACK_TOTAL_HITS]!,
    trackScores: (flags & TRACK_SCORES) !== 0,
    shardIndex: n[SHARD_INDEX]!,
  };
  if (x) copyOptional(x, req);
  const task: QueryTask = { key: wire.key, req, cancel: n[CANCEL]! };
  if (flags & KEEP_CONTEXT) task.keepContext = true;
  if (flags & REQUEST_CACHE) task.requestCache = true;
  if (x?.pit) task.pit = x.pit;
  if (n[PREFETCH]! >= 0) {
    const prefetch: QueryPrefetch = { count: n[PREFETCH]!, fetch: x?.fetch ?? DEFAULT_FETCH };
    if (flags & RENDER) prefetch.render = true;
    if (flags & WITH_SORT) prefetch.withSort = true;
    task.prefetch = prefetch;
  }
  return task;
}

const DEFAULT_FETCH: WireFetchOptions = {};

function isDefaultFetch(f: WireFetchOptions): boolean {
  return (
    f.source === undefined &&
    f.version === undefined &&
    f.seqNoPrimaryTerm === undefined &&
    f.fields === undefined &&
    f.highlight === undefined &&
    f.namedQueries === undefined &&
    f.fieldVisibility === undefined
  );
}

export function toWireFetch(f: FetchOptions): WireFetchOptions {
  const wire: WireFetchOptions = {};
  if (!isWholeSource(f.source)) wire.source = f.source;
  if (f.version) wire.version = true;
  if (f.seqNoPrimaryTerm) wire.seqNoPrimaryTerm = true;
  if (f.fields) wire.fields = f.fields;
  if (f.highlight) wire.highlight = f.highlight;
  if (f.namedQueries) wire.namedQueries = f.namedQueries;
  if (f.namedQueriesScore) wire.namedQueriesScore = true;
  if (f.fieldVisibility) wire.fieldVisibility = f.fieldVisibility;
  return wire;
}

/**
 * The fetch of `docs` that a query task's prefetch asks for, as one object literal: the same
 * shape on every task (spreading the options into a copy with `docs` made a slow object).
 */
export function fromWirePrefetch(wire: WireFetchOptions, docs: number[]): ShardFetchRequest {
  return {
    docs,
    source: wire.source ?? WHOLE_SOURCE,
    version: wire.version === true,
    seqNoPrimaryTerm: wire.seqNoPrimaryTerm === true,
    fields: wire.fields,
    highlight: wire.highlight,
    namedQueries: wire.namedQueries,
    namedQueriesScore: wire.namedQueriesScore,
    fieldVisibility: wire.fieldVisibility,
  };
}

/**
 * A query or count task made to run on another node: its cancellation token names a flag of
 * the node that made it, so there it is not cancellable (the caller gives up on the request
 * instead). Other tasks come back as they are.
 */
export function withoutCancelToken(task: WorkerTask): WorkerTask {
  if (task.t === 'query') {
    const n = task.n.slice();
    n[CANCEL] = NOT_CANCELLABLE;
    return { ...task, n };
  }
  if (task.t === 'count') return { ...task, cancel: NOT_CANCELLABLE };
  return task;
}
