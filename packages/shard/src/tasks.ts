/**
 * The messages between a node's coordinator and its shard worker threads. Everything here is
 * structured-cloned except the write batch bytes and packed hits, which are transferred, and
 * the packed hits of query replies that fit a reply slot (reply-slots.ts), which stay in
 * memory the thread shares with its ShardWorker.
 */

import type {
  ExplainResult,
  GetResult,
  MappingSettings,
  QueryLimits,
  ShardDocsStats,
  ShardFetchRequest,
  ShardFetchResult,
  ShardQueryResult,
  ShardWriteOutcome,
  ShardWriteResult,
} from '@shoal/engine';
import type { FieldVisibility, QueryNode, SourceFilter, WireError } from '@shoal/protocol';
import type { CancelToken } from './cancel-slots.ts';
import type { CounterRef } from './context-counters.ts';
import type { ContextFetch, ContextTask, ContextTaskResults } from './context-tasks.ts';
import type { PackedReply } from './hit-codec.ts';
import type { WireQueryTask } from './query-task-wire.ts';
import type { SlotRef } from './reply-slots.ts';
import type { RequestCacheStats } from './request-cache.ts';
import type { SchedulingOutcome, ThreadScheduling } from './thread-scheduling.ts';

/** What every shard worker thread is started with. */
export interface ShardWorkerData {
  /** The thread's row of the node's search-context counters (`_nodes/stats`). */
  counters?: CounterRef;
  /** The node's cancellation flags (cancel-slots.ts); tasks carry a token into them. */
  cancel?: SharedArrayBuffer;
  /** The kernel scheduling policy the thread moves itself to (thread-scheduling.ts). */
  scheduling?: ThreadScheduling;
  /** The thread's reply slots (reply-slots.ts), shared with its ShardWorker. */
  replySlots?: SharedArrayBuffer;
}

/** Identifies a shard copy inside a worker: `<indexUuid>/<shardId>`. */
export type ShardKey = string;

export function shardKey(indexUuid: string, shardId: number): ShardKey {
  return `${indexUuid}/${shardId}`;
}

export interface OpenShardTask {
  t: 'open';
  key: ShardKey;
  index: string;
  indexUuid: string;
  shardId: number;
  mapping: Record<string, unknown>;
  /** `index.mapping.*` (limits, coerce, ignore_malformed) the mapping obeys. */
  mappingSettings?: MappingSettings;
  /** `index.refresh_interval` in ms; -1 disables periodic refresh. */
  refreshIntervalMs: number;
  /** The shard copy's folder; without one the shard lives in memory only. */
  path?: string;
  translog?: TranslogSettings;
  /** A replica about to recover from its primary: whatever its folder holds is dropped first. */
  fresh?: boolean;
  /** The shard's primary term in the cluster state (new operations on a primary get it). */
  primaryTerm?: number;
}

/** `index.translog.*`, resolved. */
export interface TranslogSettings {
  durability: 'request' | 'async';
  syncIntervalMs: number;
  flushThresholdBytes: number;
}

/** What opening a shard found on disk (its recovery), and warnings to log. */
export interface OpenShardResult {
  recovery?: {
    existing: boolean;
    segments: number;
    docsFromCommit: number;
    replayedOps: number;
    ms: number;
  };
  warnings?: { msg: string; fields: Record<string, unknown> }[];
}

/**
 * One shard's slice of a write request. Document bytes (`_source`, partial docs, upserts)
 * are packed into `bytes` (transferred, never copied) and referenced by [start, end).
 */
export interface PackedWriteOp {
  op: 'index' | 'delete' | 'update';
  id: string;
  routing?: string;
  create?: boolean;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  version?: number;
  versionType?: 'internal' | 'external' | 'external_gte';
  /** index: the source; update: the partial doc. */
  body?: [number, number];
  upsert?: [number, number];
  docAsUpsert?: boolean;
  detectNoop?: boolean;
  returnSource?: boolean;
  /** index: the bulk item's `dynamic_templates` (field path → template name). */
  dynamicTemplates?: Record<string, string>;
  /** update: a script that rewrites the document (small; cloned with the op). */
  script?: { source: string; params: Record<string, unknown> };
  scriptedUpsert?: boolean;
}

export interface WriteTask {
  t: 'write';
  key: ShardKey;
  ops: PackedWriteOp[];
  bytes: ArrayBuffer;
  /** `refresh` parameter: true refreshes now, wait_for resolves after the next refresh. */
  refresh: 'false' | 'true' | 'wait_for';
  /** The copy has replicas: the outcome carries the batch's operations, encoded, for them. */
  replicate?: boolean;
}

/**
 * Operations a primary applied (or a peer recovery's batch), for a replica to apply as they
 * were done; `bytes` holds translog-encoded operations.
 */
export interface ReplicaWriteTask {
  t: 'replica_write';
  key: ShardKey;
  bytes: Uint8Array;
  /** The sender's primary term: a replica refuses operations from an older primary. */
  primaryTerm: number;
  refresh: 'false' | 'true' | 'wait_for';
}

/** A primary's write outcome, with its operations encoded for the replicas when asked. */
export type PrimaryWriteOutcome = ShardWriteOutcome & { replication?: Uint8Array };

export type WorkerTask =
  | OpenShardTask
  | { t: 'close'; key: ShardKey }
  | { t: 'mapping'; key: ShardKey; mapping: Record<string, unknown>; mappingSettings?: MappingSettings }
  | { t: 'refresh_interval'; key: ShardKey; refreshIntervalMs: number }
  | WriteTask
  | ReplicaWriteTask
  /** Peer recovery: every live document of the copy, as encoded operation batches. */
  | { t: 'recovery_source'; key: ShardKey }
  /** The master raised the shard's primary term (a replica was promoted). */
  | { t: 'primary_term'; key: ShardKey; primaryTerm: number }
  | { t: 'get'; key: ShardKey; id: string; realtime: boolean }
  | { t: 'refresh'; key: ShardKey }
  /** `_explain`: how the document with `id` scores against `query` (explain.ts in the engine). */
  | {
      t: 'explain';
      key: ShardKey;
      id: string;
      query: QueryNode;
      limits?: QueryLimits;
      /** The only documents the explain may see. */
      documentFilter?: QueryNode;
      /** The fields the explain may see. */
      fieldVisibility?: FieldVisibility;
    }
  /** `_validate/query?rewrite=true`: the query as Lucene prints it, built on the shard's reader. */
  | { t: 'describe'; key: ShardKey; query: QueryNode; limits?: QueryLimits }
  | WireQueryTask
  | {
      t: 'count';
      key: ShardKey;
      query: QueryNode;
      cancel: CancelToken;
      /** Docs scoring below it are not counted. */
      minScore?: number;
      /** Count at most this many docs (`terminated_early` when more match). */
      terminateAfter?: number;
      /** The index's query limits where they are not the defaults. */
      limits?: QueryLimits;
      /** The only documents the count may see. */
      documentFilter?: QueryNode;
      /** The fields the count may see (a query on another matches nothing). */
      fieldVisibility?: FieldVisibility;
    }
  | {
      t: 'fetch';
      key: ShardKey;
      contextId: number;
      req: ShardFetchRequest;
      release: boolean;
      /** The context is a PIT's or a scroll's. */
      context?: ContextFetch;
    }
  | { t: 'release'; contextIds: number[] }
  | { t: 'stats'; keys: ShardKey[] }
  /** `_cache/clear`: drops the shards' request cache entries and/or their segments' filter caches. */
  | { t: 'clear_cache'; keys: ShardKey[]; request: boolean; query: boolean }
  | { t: 'flush'; key: ShardKey; force: boolean }
  | { t: 'forcemerge'; key: ShardKey; maxNumSegments: number; onlyExpungeDeletes: boolean }
  | { t: 'translog_settings'; key: ShardKey; translog: TranslogSettings }
  | { t: 'memory' }
  | { t: 'scheduling' }
  | ContextTask
  | { t: 'noop' }
  | { t: 'crash' };

/** The shard's hits (and, with `prefetch`, their documents) packed (hit-codec.ts). */
export interface QueryTaskResult extends PackedReply {
  aggregations?: ShardQueryResult['aggregations'];
  collapseValues?: ShardQueryResult['collapseValues'];
  /** Present when the query had `terminate_after` (ShardQueryResult.terminatedEarly). */
  terminatedEarly?: boolean;
  /** The reader context kept for the fetch phase, when asked. */
  contextId?: number;
  /** Set while `bytes` are read in their reply slot (ShardWorker.run with `hold`). */
  slot?: SlotRef;
}

export interface ShardStats {
  key: ShardKey;
  docs: ShardDocsStats;
  /** Durability and activity counters (`_stats`), for a shard with a data path. */
  detail?: ShardDetailStats;
  /** The shard's part of its thread's request cache (request-cache.ts). */
  requestCache: RequestCacheStats;
}

export interface ShardDetailStats {
  storeBytes: number;
  translog: {
    operations: number;
    sizeInBytes: number;
    uncommittedOperations: number;
    uncommittedSizeInBytes: number;
    generation: number;
  };
  indexing: { indexTotal: number; deleteTotal: number; indexTimeMs: number };
  search: { queryTotal: number; queryTimeMs: number; fetchTotal: number; fetchTimeMs: number };
  refresh: { total: number; timeMs: number };
  flush: { total: number; timeMs: number };
  merges: { total: number; timeMs: number; docs: number; sizeInBytes: number; current: number };
  localCheckpoint: number;
  maxSeqNo: number;
}

/** One worker thread's memory (the memory benchmark). */
export interface WorkerMemory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  sectionCacheBytes: number;
  residentSegmentBytes: number;
}

/** What each task resolves to. Failures resolve to `{ error }` rather than rejecting, so they keep their type. */
export interface TaskResults extends ContextTaskResults {
  open: OpenShardResult;
  close: Record<string, never>;
  mapping: Record<string, never>;
  refresh_interval: Record<string, never>;
  write: PrimaryWriteOutcome;
  replica_write: { applied: number };
  recovery_source: { batches: Uint8Array[]; maxSeqNo: number };
  primary_term: Record<string, never>;
  get: GetResult;
  refresh: { refreshed: boolean };
  query: QueryTaskResult;
  count: { count: number; terminatedEarly?: boolean };
  explain: ExplainResult;
  describe: { explanation: string };
  fetch: ShardFetchResult;
  release: { released: number };
  stats: { shards: ShardStats[] };
  clear_cache: { cleared: number };
  flush: { flushed: boolean };
  forcemerge: { merged: boolean };
  translog_settings: Record<string, never>;
  memory: WorkerMemory;
  scheduling: SchedulingOutcome;
  noop: Record<string, never>;
  crash: Record<string, never>;
}

/**
 * What each task's reply carries across the thread: a query's packed bytes may instead sit in
 * a reply slot (reply-slots.ts), which ShardWorker.run copies them out of.
 */
export type WireTaskResults = Omit<TaskResults, 'query'> & {
  query: Omit<QueryTaskResult, 'bytes'> & { bytes?: Uint8Array; slot?: SlotRef };
};

export type TaskReply<K extends keyof TaskResults> = { ok: WireTaskResults[K] } | { error: WireError };

export type { ShardWriteResult, SourceFilter };
