/**
 * Elasticsearch's document routing (IndexRouting / Murmur3HashFunction, paging.md §5.4):
 * shard = floorMod(hash(routing), routing_num_shards) / (routing_num_shards / number_of_shards),
 * where routing is `_routing` if given, else `_id`.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { murmur3x86_32 } from './murmur3.ts';

/**
 * Murmur3HashFunction.hash(String): murmur3 x86_32, seed 0, over each UTF-16 code unit as two
 * bytes, little-endian (not UTF-8).
 */
export function routingHash(routing: string): number {
  const bytes = new Uint8Array(routing.length * 2);
  for (let i = 0; i < routing.length; i++) {
    const c = routing.charCodeAt(i);
    bytes[i * 2] = c & 0xff;
    bytes[i * 2 + 1] = c >>> 8;
  }
  return murmur3x86_32(bytes, 0);
}

/**
 * The default `index.number_of_routing_shards` for indices created by 7.0+
 * (MetadataCreateIndexService.calculateNumRoutingShards): the shard count doubled as often as
 * it takes to approach 1024, at least once: 1 → 1024, 2 → 1024, 3 → 768, 5 → 640.
 */
export function defaultRoutingNumShards(numShards: number): number {
  const log2NumShards = 32 - Math.clz32(numShards - 1);
  const numSplits = Math.max(1, 10 - log2NumShards);
  return numShards * 2 ** numSplits;
}

/** The shard a routing value (or `_id`) belongs to. */
export function shardForRouting(routing: string, numShards: number, routingNumShards: number): number {
  const routingFactor = Math.trunc(routingNumShards / numShards);
  return Math.trunc(floorMod(routingHash(routing), routingNumShards) / routingFactor);
}

/** What routes a document of one index: its shard counts and `index.routing_partition_size`. */
export interface IndexRoutingTable {
  numberOfShards: number;
  routingNumShards: number;
  partitionSize: number;
}

function hashToShard(hash: number, r: IndexRoutingTable): number {
  const routingFactor = Math.trunc(r.routingNumShards / r.numberOfShards);
  return Math.trunc(floorMod(hash, r.routingNumShards) / routingFactor);
}

/**
 * IndexRouting.shardId: the shard of a document. In a partitioned index the routing value
 * picks a run of `partitionSize` shards and the `_id` one shard in it (Java int arithmetic).
 */
export function documentShard(r: IndexRoutingTable, id: string, routing: string | undefined): number {
  if (r.partitionSize === 1) return hashToShard(routingHash(routing ?? id), r);
  if (routing === undefined)
    throw illegalArgument('A routing value is required for gets from a partitioned index');
  const offset = floorMod(routingHash(id), r.partitionSize);
  return hashToShard((routingHash(routing) + offset) | 0, r);
}

/** IndexRouting.collectSearchShards: the shards a search routing value reaches. */
export function routingSearchShards(r: IndexRoutingTable, routing: string): number[] {
  const hash = routingHash(routing);
  if (r.partitionSize === 1) return [hashToShard(hash, r)];
  const out: number[] = [];
  for (let i = 0; i < r.partitionSize; i++) out.push(hashToShard((hash + i) | 0, r));
  return out;
}

function floorMod(x: number, m: number): number {
  return ((x % m) + m) % m;
}
