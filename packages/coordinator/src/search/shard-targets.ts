/**
 * The shards a search reads, in Elasticsearch's request order: by shard number, then index
 * name (ShardId ordering). A shard's position in this list is its shard index — the high half
 * of `_shard_doc` and the tiebreaker of the merge.
 */

import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';

export interface ShardTarget {
  shardIndex: number;
  meta: IndexMetadata;
  shardId: number;
  copy: ShardCopy | undefined;
}

export function shardTargets(s: NodeServices, indices: IndexMetadata[]): ShardTarget[] {
  if (indices.length === 1) {
    // One index: its shards in shard order are already in request order.
    const meta = indices[0]!;
    const out: ShardTarget[] = new Array(meta.numberOfShards);
    for (let shardId = 0; shardId < meta.numberOfShards; shardId++) {
      out[shardId] = { shardIndex: shardId, meta, shardId, copy: s.shards.primary(meta.uuid, shardId) };
    }
    return out;
  }
  const pairs: { meta: IndexMetadata; shardId: number }[] = [];
  for (const meta of indices)
    for (let shardId = 0; shardId < meta.numberOfShards; shardId++) pairs.push({ meta, shardId });
  pairs.sort(
    (a, b) => a.shardId - b.shardId || (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0),
  );
  return pairs.map((p, shardIndex) => ({
    shardIndex,
    meta: p.meta,
    shardId: p.shardId,
    copy: s.shards.primary(p.meta.uuid, p.shardId),
  }));
}
