/**
 * `_validate/query?explain=true`: a query as Lucene prints it (Query#toString), built against a
 * shard's mapping. Without a reader it is built on no documents, as the query a shard parses;
 * with the shard's reader (`rewrite=true`), multi-term expansions and statistics are the
 * shard's, as its rewritten query shows them.
 */
import type { QueryNode } from '@shoal/protocol';
import type { IndexMapping, QueryLimits } from '../contract.ts';
import { ReaderSnapshot, type ShardReader } from '../index/shard-reader.ts';
import { withRuntimeFields } from '../runtime/runtime-view.ts';
import type { CompileEnv } from './compile-env.ts';
import { queryString } from './explain-text.ts';
import { compileQuery } from './query-compiler.ts';
import { topLevelFields } from './top-level-fields.ts';
import type { Weight } from './weights.ts';

export interface DescribeContext {
  index: string;
  indexUuid: string;
  nowMillis: number;
  shardId?: number;
}

export function describeQuery(
  reader: ShardReader | null,
  mapping: IndexMapping,
  query: QueryNode,
  ctx: DescribeContext,
  limits?: QueryLimits,
): string {
  if (reader) return describeOn(reader, mapping, query, ctx, limits, true);
  const snapshot = new ReaderSnapshot(0, []);
  const empty = snapshot.acquire();
  try {
    return describeOn(empty, mapping, query, ctx, limits, false);
  } finally {
    empty.release();
    snapshot.decRef();
  }
}

function describeOn(
  reader: ShardReader,
  mapping: IndexMapping,
  query: QueryNode,
  ctx: DescribeContext,
  limits: QueryLimits | undefined,
  rewritten: boolean,
): string {
  ({ reader, mapping } = withRuntimeFields(reader, mapping, undefined, ctx.index));
  const sources = new WeakMap<Weight, QueryNode>();
  const env: CompileEnv = {
    reader,
    mapping: topLevelFields(mapping),
    index: ctx.index,
    indexUuid: ctx.indexUuid,
    nowMillis: ctx.nowMillis,
    shardId: ctx.shardId ?? 0,
    sources,
    ...(limits ? { limits } : {}),
  };
  return queryString(compileQuery(query, env), { env, sources, rewritten });
}
