/**
 * The shard worker thread: owns the shard copies the coordinator placed on it and runs engine
 * calls for them. Threads run it bundled into one ES module (worker-bundle.ts), or, when no
 * bundle can be made, `require()`d through tsx's CommonJS hook (ts-worker.ts): no top-level await.
 * Every task answers `{ ok }` or `{ error }`, so errors keep their Elasticsearch type across
 * the thread boundary; only a bug that escapes here rejects.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { threadId, workerData } from 'node:worker_threads';
import {
  clearFilterCache,
  countQuery,
  describeQuery,
  executeFetch,
  executeQuery,
  explainQuery,
  fetchDocs,
  type ShardQueryResult,
  type ShardWriteOp,
  sectionCache,
} from '@shoal/engine';
import { isShoalError, ShoalError, type WireError } from '@shoal/protocol';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { CancelFlags, type CancelToken } from './cancel-slots.ts';
import { type ContextDeps, contextFetch, pitQuery, runContextTask } from './context-tasks.ts';
import { explainFetched } from './explain-fetch.ts';
import { packedQueryReply } from './hit-codec.ts';
import { renderPage } from './hit-render.ts';
import { fromWirePrefetch, fromWireQueryTask } from './query-task-wire.ts';
import { ReaderContexts } from './reader-contexts.ts';
import { SlotWriter } from './reply-slots.ts';
import { RequestCache, requestCacheKey } from './request-cache.ts';
import { ShardHost } from './shard-host.ts';
import type {
  PackedWriteOp,
  ShardKey,
  ShardWorkerData,
  TaskReply,
  TaskResults,
  WireTaskResults,
  WorkerTask,
  WriteTask,
} from './tasks.ts';
import { applyThreadScheduling } from './thread-scheduling.ts';

const shards = new Map<ShardKey, ShardHost>();

/** A full collection (the memory report measures live memory, not garbage). */
function fullGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const contexts = new ReaderContexts();
/** Results of searches that return no hits, per shard and reader (request-cache.ts). */
const requestCache = new RequestCache<ShardQueryResult>();
const startData = workerData as ShardWorkerData | null;
contexts.attach(startData?.counters);
/** Where query replies are packed when they fit (reply-slots.ts). */
const replySlots = startData?.replySlots ? new SlotWriter(startData.replySlots, threadId) : undefined;
/** Settles once the thread has moved to its scheduling policy (or found it cannot). */
const scheduling = applyThreadScheduling(startData?.scheduling ?? 'batch');

function host(key: ShardKey): ShardHost {
  const h = shards.get(key);
  if (!h) {
    throw new ShoalError('shard_not_found_exception', `no such shard [${key}]`, 404);
  }
  return h;
}

/** The node's cancellation flags, shared with every shard worker thread at its start. */
const cancelFlags = startData?.cancel ? new CancelFlags(startData.cancel) : undefined;

function cancelCheck(cancel: CancelToken): () => boolean {
  const flags = cancelFlags;
  if (!flags || cancel < 0) return () => false;
  return () => flags.isCancelled(cancel);
}

const contextDeps: ContextDeps = { host, contexts, isCancelled: cancelCheck };

function unpackOps(task: WriteTask): ShardWriteOp[] {
  const bytes = new Uint8Array(task.bytes);
  const slice = (r: [number, number] | undefined) => (r ? bytes.subarray(r[0], r[1]) : undefined);
  return task.ops.map((p: PackedWriteOp): ShardWriteOp => {
    const cond = {
      ifSeqNo: p.ifSeqNo,
      ifPrimaryTerm: p.ifPrimaryTerm,
      version: p.version,
      versionType: p.versionType,
    };
    if (p.op === 'delete') return { op: 'delete', id: p.id, routing: p.routing, ...cond };
    if (p.op === 'index') {
      return {
        op: 'index',
        id: p.id,
        routing: p.routing,
        create: p.create ?? false,
        source: slice(p.body)!,
        ...(p.dynamicTemplates ? { dynamicTemplates: p.dynamicTemplates } : {}),
        ...cond,
      };
    }
    return {
      op: 'update',
      id: p.id,
      routing: p.routing,
      doc: slice(p.body),
      upsert: slice(p.upsert),
      docAsUpsert: p.docAsUpsert ?? false,
      detectNoop: p.detectNoop ?? true,
      returnSource: p.returnSource ?? false,
      script: p.script,
      scriptedUpsert: p.scriptedUpsert,
      ifSeqNo: p.ifSeqNo,
      ifPrimaryTerm: p.ifPrimaryTerm,
    };
  });
}

type TaskResult = WireTaskResults[keyof WireTaskResults];

/** A task's result: most tasks answer at once; those that wait (open, writes) return a promise. */
function run(task: WorkerTask): TaskResult | Promise<TaskResult> {
  switch (task.t) {
    case 'open': {
      let h = shards.get(task.key);
      if (!h) {
        h = new ShardHost(task);
        shards.set(task.key, h);
      }
      return h.opened;
    }
    case 'close': {
      contexts.releaseShard(task.key);
      requestCache.forget(task.key);
      shards.get(task.key)?.close();
      shards.delete(task.key);
      return {};
    }
    case 'mapping':
      host(task.key).setMapping(task.mapping, task.mappingSettings);
      // A cached result was read with the old mapping.
      requestCache.clear(task.key);
      return {};
    case 'refresh_interval':
      host(task.key).setRefreshInterval(task.refreshIntervalMs);
      return {};
    case 'write':
      return host(task.key).write(unpackOps(task), task.refresh, task.replicate === true);
    case 'replica_write':
      return host(task.key).replicaWrite(task.bytes, task.primaryTerm, task.refresh);
    case 'recovery_source':
      return host(task.key).recoverySource();
    case 'primary_term':
      host(task.key).setPrimaryTerm(task.primaryTerm);
      return {};
    case 'get':
      return host(task.key).engine.get(task.id, { realtime: task.realtime });
    case 'refresh':
      return { refreshed: host(task.key).refresh() };
    case 'explain': {
      const h = host(task.key);
      const reader = h.engine.acquireReader();
      try {
        const ctx = {
          index: h.spec.index,
          indexUuid: h.spec.indexUuid,
          shardId: h.spec.shardId,
          isCancelled: () => false,
          nowMillis: Date.now(),
        };
        return explainQuery(reader, h.mapping, task.query, task.id, ctx, task.limits, task);
      } finally {
        reader.release();
      }
    }
    case 'describe': {
      const h = host(task.key);
      const reader = h.engine.acquireReader();
      try {
        const ctx = {
          index: h.spec.index,
          indexUuid: h.spec.indexUuid,
          shardId: h.spec.shardId,
          nowMillis: Date.now(),
        };
        return { explanation: describeQuery(reader, h.mapping, task.query, ctx, task.limits) };
      } finally {
        reader.release();
      }
    }
    case 'query': {
      const q = fromWireQueryTask(task);
      const req = q.req;
      if (q.pit) {
        // The context first: a PIT whose shard is gone says what became of it.
        const pitStarted = performance.now();
        try {
          return pitQuery(task.key, req, q.pit, q.cancel, contextDeps);
        } finally {
          const ph = shards.get(task.key);
          if (ph) {
            ph.searchStats.queryTotal++;
            ph.searchStats.queryTimeMs += performance.now() - pitStarted;
          }
        }
      }
      const h = host(task.key);
      const reader = h.engine.acquireReader();
      let kept = false;
      const started = performance.now();
      try {
        // Only a search that returns no hits: a cached result holds no documents to fetch.
        const cacheKey =
          q.requestCache && !q.prefetch && !q.keepContext && req.k === 0 ? requestCacheKey(req) : undefined;
        if (cacheKey !== undefined) {
          const cached = requestCache.get(task.key, reader.id, cacheKey);
          if (cached) return packedQueryReply(cached, req.shardIndex, undefined, replySlots);
        }
        const result = executeQuery(reader, h.mapping, req, {
          index: h.spec.index,
          indexUuid: h.spec.indexUuid,
          shardId: h.spec.shardId,
          isCancelled: cancelCheck(q.cancel),
          nowMillis: Date.now(),
        });
        if (cacheKey !== undefined) requestCache.put(task.key, reader.id, cacheKey, result);
        const prefetch = q.prefetch;
        if (prefetch && result.hits.length > 0) {
          const n = Math.min(prefetch.count, result.hits.length);
          const docs: number[] = new Array(n);
          for (let i = 0; i < n; i++) docs[i] = result.hits[i]!.doc;
          const fetch = fromWirePrefetch(prefetch.fetch, docs);
          const fetched = fetchDocs(reader, fetch, h.mapping, h.spec.index);
          if (!prefetch.render) return packedQueryReply(result, req.shardIndex, fetched, replySlots);
          const withSort = prefetch.withSort === true;
          const floatingKeys = result.floatingKeys ?? 0;
          const rendered = renderPage(h.spec.index, result.hits, fetched, fetch, withSort, floatingKeys);
          return packedQueryReply(result, req.shardIndex, undefined, replySlots, rendered);
        }
        if (q.keepContext && result.hits.length > 0) {
          kept = true;
          return {
            ...packedQueryReply(result, req.shardIndex, undefined, replySlots),
            contextId: contexts.openTransient(task.key, reader),
          };
        }
        return packedQueryReply(result, req.shardIndex, undefined, replySlots);
      } finally {
        if (!kept) reader.release();
        h.searchStats.queryTotal++;
        h.searchStats.queryTimeMs += performance.now() - started;
      }
    }
    case 'count': {
      const h = host(task.key);
      const reader = h.engine.acquireReader();
      try {
        const count = countQuery(
          reader,
          h.mapping,
          task.query,
          {
            index: h.spec.index,
            indexUuid: h.spec.indexUuid,
            shardId: h.spec.shardId,
            isCancelled: cancelCheck(task.cancel),
            nowMillis: Date.now(),
          },
          task.minScore,
          task.limits,
          task,
        );
        // terminate_after: the shard stops collecting once that many docs are counted.
        const limit = task.terminateAfter;
        if (limit === undefined) return { count };
        return count > limit ? { count: limit, terminatedEarly: true } : { count, terminatedEarly: false };
      } finally {
        reader.release();
      }
    }
    case 'fetch': {
      const reader = task.context ? undefined : contexts.get(task.contextId)?.reader;
      if (!reader && !task.context) {
        throw new ShoalError(
          'search_context_missing_exception',
          `No search context found for id [${task.contextId}]`,
          404,
        );
      }
      const fetchStarted = performance.now();
      try {
        if (task.context) return contextFetch(task.key, task.contextId, task.req, task.context, contextDeps);
        const fetched = executeFetch(
          reader!,
          task.req,
          shards.get(task.key)?.mapping,
          shards.get(task.key)?.spec.index,
        );
        const explanations = task.req.explain && explainFetched(host(task.key), reader!, task.req);
        if (explanations) fetched.explanations = explanations;
        return fetched;
      } finally {
        const fh = shards.get(task.key);
        if (fh) {
          fh.searchStats.fetchTotal++;
          fh.searchStats.fetchTimeMs += performance.now() - fetchStarted;
        }
        if (task.release) contexts.release(task.contextId);
      }
    }
    case 'scroll_start':
    case 'scroll_next': {
      const scrollStarted = performance.now();
      try {
        return runContextTask(task, contextDeps);
      } finally {
        const sh = shards.get(task.key);
        if (sh) {
          sh.searchStats.queryTotal++;
          sh.searchStats.queryTimeMs += performance.now() - scrollStarted;
        }
      }
    }
    case 'open_pit':
    case 'free_contexts':
    case 'free_scrolls':
      return runContextTask(task, contextDeps);
    case 'release': {
      let released = 0;
      for (const id of task.contextIds) if (contexts.release(id)) released++;
      return { released };
    }
    case 'stats':
      return {
        shards: task.keys.flatMap((key) => {
          const h = shards.get(key);
          if (!h) return [];
          const cache = { ...requestCache.statsOf(key) };
          return [{ key, docs: h.engine.docsStats(), detail: h.detailStats(), requestCache: cache }];
        }),
      };
    case 'clear_cache': {
      let cleared = 0;
      for (const key of task.keys) {
        const h = shards.get(key);
        if (!h) continue;
        if (task.request) requestCache.clear(key);
        if (task.query) {
          const reader = h.engine.acquireReader();
          for (const s of reader.segments) clearFilterCache(s.segment);
          reader.release();
        }
        cleared++;
      }
      return { cleared };
    }
    case 'flush':
      return { flushed: host(task.key).flush(task.force) };
    case 'forcemerge':
      return { merged: host(task.key).forceMerge(task.maxNumSegments, task.onlyExpungeDeletes) };
    case 'translog_settings':
      host(task.key).setTranslog(task.translog);
      return {};
    case 'memory': {
      fullGc();
      const m = process.memoryUsage();
      let resident = 0;
      for (const h of shards.values()) resident += h.engine.residentBytes();
      return {
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        sectionCacheBytes: sectionCache.sizeInBytes,
        residentSegmentBytes: resident,
      };
    }
    case 'scheduling':
      return scheduling;
    case 'noop':
      return {};
    case 'crash':
      // Used by tests to prove that a dead worker marks its shards failed.
      setImmediate(() => {
        throw new Error('shard worker crashed on request');
      });
      return {};
  }
}

function toWire(e: unknown): WireError {
  if (isShoalError(e)) return e.toWire();
  const err = e instanceof Error ? e : new Error(String(e));
  return { type: 'exception', reason: err.message, status: 500 };
}

/** Buffers in a reply that can be transferred instead of copied (they own their whole ArrayBuffer). */
function transferables(result: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  if (result && typeof result === 'object') {
    for (const v of Object.values(result)) {
      if (v instanceof Uint8Array && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength) {
        if (v.buffer instanceof ArrayBuffer && v.byteLength > 0) out.push(v.buffer);
      }
    }
  }
  return out;
}

/**
 * Runs a task and answers `{ ok }` or `{ error }`. A task that answers at once is answered
 * without a promise of its own (Piscina takes either): a search's shard task is one of them.
 */
export default function handle(task: WorkerTask): unknown {
  let result: TaskResult | Promise<TaskResult>;
  try {
    result = run(task);
  } catch (e) {
    return errorReply(e);
  }
  return result instanceof Promise ? result.then(okReply, errorReply) : okReply(result);
}

function okReply(ok: TaskResult): unknown {
  const reply = { ok } as TaskReply<keyof TaskResults>;
  const buffers = transferables(ok);
  if (buffers.length === 0) return reply;
  // Piscina transfers what a moved value names instead of cloning it.
  return move({ [transferableSymbol]: buffers, [valueSymbol]: reply } as unknown as ArrayBuffer);
}

function errorReply(e: unknown): { error: WireError } {
  return { error: toWire(e) };
}
