export { ShardWorker, type TaskOf } from './shard-worker.ts';
export {
  type OpenShardResult,
  type PackedWriteOp,
  type QueryTaskResult,
  type ShardKey,
  type ShardDetailStats,
  type ShardStats,
  shardKey,
  type TaskResults,
  type TranslogSettings,
  type WorkerMemory,
  type WorkerTask,
  type WriteTask,
} from './tasks.ts';
export { type ContextTotals, ContextCounters, type CounterRef } from './context-counters.ts';
export type { ContextFetch, ContextTask, PitQuery, ScrollSpec } from './context-tasks.ts';
export type { ContextRef } from './reader-contexts.ts';
export { type PackedReply, packHits, unpackHits } from './hit-codec.ts';
