/**
 * Which part of each shard a slice reads (SliceBuilder.toFilter, paging.md §5.2): with fewer
 * slices than shards, whole shards (`shardIndex % max == id`); with more, slice `id` lives on
 * shard `id % numShards` and splits it with the other slices there. 2 shards and 4 slices:
 * slices 0 and 2 read the first shard, 1 and 3 the second. `numShards` counts every shard of
 * the request, and `shardIndex` is the shard's position in it.
 */
import type { ShardSlice } from '@shoal/engine';
import type { SearchRequest } from '@shoal/protocol';

export function shardSlice(
  slice: NonNullable<SearchRequest['slice']>,
  shardIndex: number,
  numShards: number,
  context: ShardSlice['context'],
): ShardSlice {
  const base = { field: slice.field, context };
  const { id, max } = slice;
  if (numShards === 1) return { ...base, id, max };
  if (max >= numShards) {
    const target = id % numShards;
    if (target !== shardIndex) return { ...base, id: 0, max: 0 };
    let inShard = Math.floor(max / numShards);
    if (max % numShards > target) inShard++;
    if (inShard === 1) return { ...base, id: 0, max: 1 };
    return { ...base, id: Math.floor(id / numShards), max: inShard };
  }
  return { ...base, id: 0, max: shardIndex % max === id ? 1 : 0 };
}
