import type { QueryNode } from '@shoal/protocol';
import type { IndexMapping, QueryLimits } from '../contract.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import type { ShardContext } from './field-values.ts';
import type { Weight } from './weights.ts';

/** What compiling a query against one reader needs. */
export interface CompileEnv extends ShardContext {
  reader: ShardReader;
  mapping: IndexMapping;
  /**
   * When set, the query node each compiled weight came from (`_explain` and `_validate/query`
   * describe weights by the query that built them); searches leave it unset.
   */
  sources?: WeakMap<Weight, QueryNode>;
  nowMillis: number;
  /** The shard's number (random_score salts its seed with it); 0 when not given. */
  shardId?: number;
  /** The index's query limits where they are not the defaults. */
  limits?: QueryLimits;
  /** A knn query's `k` when it names none: the search's size (from + size). */
  knnDefaultK?: number;
}
