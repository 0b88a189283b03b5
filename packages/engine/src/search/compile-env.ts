import type { IndexMapping, QueryLimits } from '../contract.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import type { ShardContext } from './field-values.ts';

/** What compiling a query against one reader needs. */
export interface CompileEnv extends ShardContext {
  reader: ShardReader;
  mapping: IndexMapping;
  nowMillis: number;
  /** The shard's number (random_score salts its seed with it); 0 when not given. */
  shardId?: number;
  /** The index's query limits where they are not the defaults. */
  limits?: QueryLimits;
  /** A knn query's `k` when it names none: the search's size (from + size). */
  knnDefaultK?: number;
}
