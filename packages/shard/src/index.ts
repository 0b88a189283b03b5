export { CancelSlots, type CancelToken, NOT_CANCELLABLE } from './cancel-slots.ts';
export { ContextCounters, type ContextTotals, type CounterRef } from './context-counters.ts';
export type { ContextFetch, ContextTask, PitQuery, ScrollSpec } from './context-tasks.ts';
export {
  type PackedHits,
  type PackedReply,
  packedHeader,
  packHits,
  type RenderedHits,
  unpackHits,
} from './hit-codec.ts';
export { bundleModule, type ModuleBundle } from './module-bundle.ts';
export { PackedCursor } from './packed-cursor.ts';
export {
  type QueryPrefetch,
  type QueryTask,
  toWireFetch,
  toWireQueryTask,
  withoutCancelToken,
} from './query-task-wire.ts';
export type { ContextRef } from './reader-contexts.ts';
export { ShardWorker, type TaskOf } from './shard-worker.ts';
export {
  type OpenShardResult,
  type PackedWriteOp,
  type PrimaryWriteOutcome,
  type QueryTaskResult,
  type ReplicaWriteTask,
  type ShardDetailStats,
  type ShardKey,
  type ShardStats,
  shardKey,
  type TaskResults,
  type TranslogSettings,
  type WorkerMemory,
  type WorkerTask,
  type WriteTask,
} from './tasks.ts';
export {
  type SchedulingOutcome,
  THREAD_SCHEDULING_VALUES,
  type ThreadScheduling,
  threadPolicy,
} from './thread-scheduling.ts';
