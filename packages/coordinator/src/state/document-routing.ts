/**
 * Where a document of an index lives (IndexRouting): `_routing.required` and
 * `index.routing_partition_size` on top of the hash of the routing value or `_id`.
 */
import { documentShard, type IndexRoutingTable, routingMissing, routingSearchShards } from '@shoal/protocol';
import type { IndexMetadata } from './index-metadata.ts';

/** `index.routing_partition_size`, 1 unless the index set it (validated at creation, final). */
export function partitionSize(meta: IndexMetadata): number {
  const v = meta.settings['index.routing_partition_size'];
  return v === undefined ? 1 : Number(v);
}

function table(meta: IndexMetadata): IndexRoutingTable {
  return {
    numberOfShards: meta.numberOfShards,
    routingNumShards: meta.routingNumShards,
    partitionSize: partitionSize(meta),
  };
}

/** The shard of a document write or get; a missing required routing is a routing_missing_exception. */
export function docShard(meta: IndexMetadata, id: string, routing: string | undefined): number {
  if (routing === undefined && meta.mapping.routingRequired) throw routingMissing(meta.name, id);
  return documentShard(table(meta), id, routing);
}

/** The shards a search routing value reaches in an index. */
export function searchRoutingShards(meta: IndexMetadata, routing: string): number[] {
  return routingSearchShards(table(meta), routing);
}
