export { ShardWorker, type TaskOf } from './shard-worker.ts';
export {
  type PackedWriteOp,
  type QueryTaskResult,
  type ShardKey,
  type ShardStats,
  shardKey,
  type TaskResults,
  type WorkerTask,
  type WriteTask,
} from './tasks.ts';
