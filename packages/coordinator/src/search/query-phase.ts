/**
 * Query phase: every target shard returns its top `k` partial hits (sort values, score, doc id)
 * and its hit count, and keeps a reader for the fetch phase — a transient context on its
 * latest reader, or the PIT's or scroll's own context. Shards that are not started or that fail
 * are collected as failures; the search goes on with the others.
 */
import type { ShardFetchRequest, ShardFetchResult, ShardQueryRequest, ShardQueryResult } from '@shoal/engine';
import { isShoalError, notImplemented, ShoalError } from '@shoal/protocol';
import {
  type CancelToken,
  PackedCursor,
  type PackedHits,
  type QueryPrefetch,
  type QueryTask,
  type QueryTaskResult,
  type ShardKey,
  toWireFetch,
  toWireQueryTask,
  unpackHits,
} from '@shoal/shard';
import type { NodeServices } from '../services.ts';
import type { ShardCopy, ShardRunner } from '../shards/shard-table.ts';
import type { MergeHit } from './merge.ts';
import { fetchFor } from './read-restrictions.ts';
import { asShoalError, type ShardFailure } from './shard-failure.ts';
import type { ShardTarget } from './shard-targets.ts';

export interface ShardQueryOutcome {
  target: ShardTarget;
  result: ShardQueryResult;
  hits: MergeHit[];
  /** The worker and shard key that answered (and hold the context for the fetch phase). */
  worker: ShardRunner;
  key: ShardKey;
  contextId?: number;
  /** The context is a PIT's or a scroll's: the fetch phase leaves it open. */
  persistent: boolean;
  /** A scroll step fetched its hits with its query: the documents of `hits`, in order. */
  fetched?: ShardFetchResult;
  /**
   * A small first page's shard rendered its hits (hit-render.ts renderPage): they stay packed
   * here, read by this cursor, and `hits` is empty; the page is merged from them (rendered-page.ts).
   */
  rendered?: PackedCursor;
  /**
   * The reply whose bytes `rendered` reads in the worker's reply slot: once the page is copied
   * out of it, `releaseHeld` frees the slot.
   */
  held?: QueryTaskResult;
}

export interface QueryPhaseResult {
  outcomes: ShardQueryOutcome[];
  failures: ShardFailure[];
}

/** A shard's query-phase answer, its hits unpacked. */
export interface ShardQueryReply {
  result: ShardQueryResult;
  /** The reader context kept for the fetch phase. */
  contextId?: number;
}

/** A shard's answer to its query and who gave it. */
export interface ShardQueryAnswer {
  reply: ShardQueryReply;
  worker: ShardRunner;
  key: ShardKey;
  fetched?: ShardFetchResult;
  rendered?: PackedCursor;
  held?: QueryTaskResult;
}

/** Runs one shard's query (it may also throw at once, a shard that cannot be asked). */
export type ShardQueryExec = (t: ShardTarget) => Promise<ShardQueryAnswer>;

/** A query task's packed reply as the query phase reads it, and the documents it prefetched. */
export function unpackQueryReply(reply: QueryTaskResult): {
  reply: ShardQueryReply;
  fetched?: ShardFetchResult;
} {
  const { result, fetched } = unpackHits(reply);
  withAggregations(result, reply);
  return { reply: { result, contextId: reply.contextId }, fetched };
}

function notStarted(t: ShardTarget): ShoalError {
  const state = t.copy?.state ?? 'UNASSIGNED';
  const why = t.copy?.reason ? `: ${t.copy.reason}` : '';
  return new ShoalError(
    'no_shard_available_action_exception',
    `[${t.meta.name}][${t.shardId}] shard copy is ${state}${why}`,
    503,
    { index_uuid: t.meta.uuid, shard: String(t.shardId), index: t.meta.name },
  );
}

/** The started primary of a target, or its no_shard_available_action_exception. */
export function startedCopy(t: ShardTarget): { worker: ShardRunner; key: ShardKey } {
  const copy = t.copy;
  if (copy?.state !== 'STARTED' || !copy.worker) throw notStarted(t);
  return { worker: copy.worker, key: copy.key };
}

/**
 * The started copy of a target that a reader context (a PIT's or a scroll's) is kept on: its
 * id names a worker thread of this node, so a copy held by another node is refused (a read
 * chooses a copy on this node when there is one).
 */
export function contextCopy(t: ShardTarget): { worker: ShardRunner; key: ShardKey } {
  if (t.copy?.remote) {
    throw notImplemented(
      `a point in time or scroll over shard [${t.meta.name}][${t.shardId}], which has no copy on this node,`,
    );
  }
  return startedCopy(t);
}

/** A small first page fetched with the query (latestReaderQuery). */
export interface FirstPagePrefetch {
  count: number;
  fetch: Omit<ShardFetchRequest, 'docs'>;
  /** The shards send the hits rendered (rendered-page.ts), `sort` values included or not. */
  render?: { withSort: boolean };
}

/**
 * A reply of rendered hits as the query phase keeps it: its totals and what came beside the
 * packed hits (partial aggregations); the hits stay packed, read by a cursor.
 */
export function renderedResult(
  header: PackedHits,
  /** What a query task's reply carried beside its hits (a scroll step's carries nothing). */
  reply?: Pick<ShardQueryResult, 'aggregations' | 'collapseValues' | 'terminatedEarly'>,
): ShardQueryResult {
  const result: ShardQueryResult = {
    totalHits: header.totalHits,
    totalRelation: header.totalRelation,
    maxScore: header.maxScore,
    hits: [],
  };
  if (header.floatingKeys !== 0) result.floatingKeys = header.floatingKeys;
  return reply ? withAggregations(result, reply) : result;
}

/**
 * A search on each shard's latest reader (not a PIT, not a scroll). With `prefetch`, each shard
 * returns the documents of its first hits with them (query and fetch in one round trip), or
 * those hits rendered, and keeps no context; otherwise it keeps its reader for a fetch phase
 * when `keepContext`.
 */
export function latestReaderQuery(
  s: NodeServices,
  build: (t: ShardTarget) => ShardQueryRequest,
  cancel: CancelToken,
  keepContext: boolean,
  prefetch?: FirstPagePrefetch,
  /** Which targets' shards may answer from their request cache (request-cache-policy.ts). */
  requestCache?: (t: ShardTarget) => boolean,
): ShardQueryExec {
  let queryPrefetch: QueryPrefetch | undefined;
  if (prefetch) {
    queryPrefetch = { count: prefetch.count, fetch: toWireFetch(prefetch.fetch) };
    if (prefetch.render) queryPrefetch.render = true;
    if (prefetch.render?.withSort) queryPrefetch.withSort = true;
  }
  const render = prefetch?.render !== undefined;
  const ask = (t: ShardTarget): Promise<ShardQueryAnswer> => {
    const { worker, key } = startedCopy(t);
    const task: QueryTask = { key, req: build(t), cancel };
    if (queryPrefetch)
      task.prefetch = t.fieldVisibility
        ? { ...queryPrefetch, fetch: fetchFor(queryPrefetch.fetch, t) }
        : queryPrefetch;
    else if (keepContext) task.keepContext = true;
    if (requestCache?.(t)) task.requestCache = true;
    const wire = toWireQueryTask(task);
    // Rendered hits are read where the worker wrote them (held in its reply slot).
    if (render)
      return worker.run(wire, undefined, true).then((answer) => renderedAnswer(s, t, worker, key, answer));
    return worker.run(wire).then((answer) => unpackedAnswer(s, worker, key, answer));
  };
  return (t) => {
    const first = ask(t);
    if (!t.copy?.remote) return first;
    // A copy on a node that is gone: the shard's next started copy answers instead, as
    // Elasticsearch's search moves on to the next copy of a shard that failed.
    return first.catch((e: unknown) => {
      const next = otherCopy(s, t, e);
      if (!next) throw e;
      return ask({ ...t, copy: next });
    });
  };
}

/** Another started copy of `t`'s shard to ask after its copy failed with `e`, if it is worth asking. */
function otherCopy(s: NodeServices, t: ShardTarget, e: unknown): ShardCopy | undefined {
  if (
    !isShoalError(e) ||
    (e.type !== 'node_not_connected_exception' && e.type !== 'no_shard_available_action_exception')
  ) {
    return undefined;
  }
  const others = (s.shards.shardCopies(t.meta.uuid, t.shardId) ?? []).filter(
    (c) => c !== t.copy && c.node !== t.copy?.node && c.state === 'STARTED' && c.worker !== undefined,
  );
  return others.find((c) => !c.remote) ?? others[0];
}

function renderedAnswer(
  s: NodeServices,
  t: ShardTarget,
  worker: ShardRunner,
  key: ShardKey,
  answer: QueryTaskResult,
): ShardQueryAnswer {
  let cursor: PackedCursor;
  try {
    cursor = new PackedCursor(answer, t.shardIndex);
  } catch (e) {
    worker.release(answer);
    throw e;
  }
  // A shard without hits fetched nothing.
  if (cursor.header.rendered) s.counters.fetchTotal++;
  const reply = { result: renderedResult(cursor.header, answer) };
  return { reply, worker, key, rendered: cursor, held: answer };
}

function unpackedAnswer(
  s: NodeServices,
  worker: ShardRunner,
  key: ShardKey,
  answer: QueryTaskResult,
): ShardQueryAnswer {
  const { reply, fetched } = unpackQueryReply(answer);
  if (fetched) s.counters.fetchTotal++;
  return { reply, worker, key, fetched };
}

/** A result unpacked from packed hits, given the partial aggregations its reply carried beside them. */
export function withAggregations(
  result: ShardQueryResult,
  from: Pick<ShardQueryResult, 'aggregations' | 'collapseValues' | 'terminatedEarly'>,
): ShardQueryResult {
  if (from.aggregations !== undefined) result.aggregations = from.aggregations;
  if (from.collapseValues !== undefined) result.collapseValues = from.collapseValues;
  if (from.terminatedEarly !== undefined) result.terminatedEarly = from.terminatedEarly;
  return result;
}

/**
 * Asks every target shard its query; resolves (never rejects) once each has answered or
 * failed, with the outcomes in shard order.
 */
export function runQueryPhase(
  s: NodeServices,
  targets: ShardTarget[],
  exec: ShardQueryExec,
  persistent = false,
): Promise<QueryPhaseResult> {
  const run = new QueryPhaseRun(s, targets.length, persistent);
  for (let i = 0; i < targets.length; i++) run.ask(exec, targets[i]!, i);
  return run.result;
}

/**
 * One query phase in flight: a counter of the answers still due instead of an async function
 * per shard and Promise.all — each of those is a promise and a suspended frame per shard of
 * every search.
 */
class QueryPhaseRun {
  readonly result: Promise<QueryPhaseResult>;
  /** Each answer in its target's place: the outcomes come out in shard order without a sort. */
  private readonly answered: (ShardQueryOutcome | undefined)[];
  private readonly failures: ShardFailure[] = [];
  private resolve!: (r: QueryPhaseResult) => void;
  private pending: number;
  private readonly started = Date.now();

  constructor(
    private readonly s: NodeServices,
    private readonly n: number,
    private readonly persistent: boolean,
  ) {
    this.answered = new Array(n);
    this.pending = n;
    this.result = new Promise((resolve) => {
      this.resolve = resolve;
    });
    s.counters.queryCurrent += n;
    if (n === 0) this.finish();
  }

  ask(exec: ShardQueryExec, t: ShardTarget, i: number): void {
    let answer: Promise<ShardQueryAnswer>;
    try {
      answer = exec(t);
    } catch (e) {
      this.failed(t, e);
      return;
    }
    answer.then(
      (a) => this.answer(t, i, a),
      (e: unknown) => this.failed(t, e),
    );
  }

  private answer(t: ShardTarget, i: number, a: ShardQueryAnswer): void {
    try {
      this.answered[i] = this.outcome(t, a);
    } catch (e) {
      // Nothing may escape: the phase would never resolve, and the rejection would go unhandled.
      if (a.held) a.worker.release(a.held);
      this.failed(t, e);
      return;
    }
    if (--this.pending === 0) this.finish();
  }

  private outcome(t: ShardTarget, a: ShardQueryAnswer): ShardQueryOutcome {
    const result = a.reply.result;
    // The hits are this search's own copies: tag them with their shard in place.
    const hits = result.hits as MergeHit[];
    for (const h of hits) h.shardIndex = t.shardIndex;
    return {
      target: t,
      result,
      hits,
      worker: a.worker,
      key: a.key,
      contextId: a.reply.contextId,
      persistent: this.persistent,
      fetched: a.fetched,
      rendered: a.rendered,
      held: a.held,
    };
  }

  private failed(t: ShardTarget, e: unknown): void {
    const s = this.s;
    s.counters.queryFailure++;
    this.failures.push({ shard: t.shardId, index: t.meta.name, node: s.node.id, error: asShoalError(e) });
    if (--this.pending === 0) this.finish();
  }

  private finish(): void {
    const counters = this.s.counters;
    counters.queryCurrent -= this.n;
    counters.queryTotal += this.n;
    counters.queryTimeMs += Date.now() - this.started;
    const outcomes: ShardQueryOutcome[] = [];
    let ordered = true;
    for (const o of this.answered) {
      if (o === undefined) continue;
      if (outcomes.length > 0 && outcomes[outcomes.length - 1]!.target.shardIndex > o.target.shardIndex)
        ordered = false;
      outcomes.push(o);
    }
    if (!ordered) outcomes.sort((a, b) => a.target.shardIndex - b.target.shardIndex);
    this.resolve({ outcomes, failures: this.failures });
  }
}

/** Frees the reply slots the outcomes' rendered hits were read in (once their page is copied). */
export function releaseHeld(outcomes: ShardQueryOutcome[]): void {
  for (const o of outcomes) {
    if (o.held) {
      o.worker.release(o.held);
      o.held = undefined;
    }
  }
}

/** Frees the transient reader contexts that the fetch phase will not use. */
export function releaseContexts(outcomes: ShardQueryOutcome[]): void {
  for (const o of outcomes) {
    if (o.contextId !== undefined && !o.persistent) {
      o.worker.run({ t: 'release', contextIds: [o.contextId] }).catch(() => {});
    }
  }
}
