/**
 * Search `explain` on the shard: the fetched hits explained against the query the shard's query
 * phase ran (ShardFetchRequest.explain), on the reader that query read — a transient context's
 * or a point in time's.
 */
import { type Explanation, explainHits, type ShardFetchRequest, type ShardReader } from '@shoal/engine';
import type { ShardHost } from './shard-host.ts';

export function explainFetched(
  h: Pick<ShardHost, 'spec' | 'mapping'>,
  reader: ShardReader,
  req: ShardFetchRequest,
): Explanation[] | undefined {
  if (!req.explain || req.docs.length === 0) return undefined;
  const ctx = {
    index: h.spec.index,
    indexUuid: h.spec.indexUuid,
    shardId: h.spec.shardId,
    isCancelled: () => false,
    nowMillis: Date.now(),
  };
  return explainHits(reader, h.mapping, req.explain, req.docs, ctx, req.fieldVisibility);
}
