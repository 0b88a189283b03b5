/**
 * Elasticsearch's document routing (IndexRouting / Murmur3HashFunction, paging.md §5.4):
 * shard = floorMod(hash(routing), routing_num_shards) / (routing_num_shards / number_of_shards),
 * where routing is `_routing` if given, else `_id`.
 */
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

function floorMod(x: number, m: number): number {
  return ((x % m) + m) % m;
}
