/**
 * The shards a search reads, in Elasticsearch's request order: by shard number, then index
 * name (ShardId ordering). A shard's position in this list is its shard index — the high half
 * of `_shard_doc` and the tiebreaker of the merge.
 */

import { shardForRouting } from '@shoal/protocol';
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

/**
 * Java's `String.split(",")`, as Strings.splitStringByCommaToArray uses it: empty values stay,
 * except trailing ones; an empty string gives no value at all.
 */
function splitRouting(routing: string): string[] {
  if (routing.length === 0) return [];
  const parts = routing.split(',');
  let end = parts.length;
  while (end > 0 && parts[end - 1] === '') end--;
  return parts.slice(0, end);
}

/**
 * The targets a `routing` URL parameter keeps (OperationRouting.searchShards): for each index,
 * only the shards its comma-separated routing values hash to, as a document indexed with that
 * routing is placed. The shard indices are renumbered over what is left, so `_shards.total` and
 * the `_shard_doc` shard index count only the routed shards.
 */
export function routedShardTargets(
  s: NodeServices,
  indices: IndexMetadata[],
  routing: string | undefined,
): ShardTarget[] {
  const targets = shardTargets(s, indices);
  if (routing === undefined) return targets;
  const values = splitRouting(routing);
  const routed = new Map<IndexMetadata, Set<number>>();
  for (const meta of indices) {
    const shards = new Set<number>();
    for (const r of values) shards.add(shardForRouting(r, meta.numberOfShards, meta.routingNumShards));
    routed.set(meta, shards);
  }
  const out: ShardTarget[] = [];
  for (const t of targets) {
    if (routed.get(t.meta)?.has(t.shardId)) out.push({ ...t, shardIndex: out.length });
  }
  return out;
}
