import { describe, expect, it } from 'vitest';
import { shardSlice } from './slice-targets.ts';

const part = (id: number, max: number, shardIndex: number, numShards: number) => {
  const s = shardSlice({ id, max }, shardIndex, numShards, 'scroll');
  return [s.id, s.max];
};

describe('slices over shards (SliceBuilder.toFilter)', () => {
  it('2 shards and 4 slices: slices 0 and 2 on the first shard, 1 and 3 on the second', () => {
    expect([0, 1, 2, 3].map((id) => [part(id, 4, 0, 2), part(id, 4, 1, 2)])).toEqual([
      [
        [0, 2],
        [0, 0],
      ],
      [
        [0, 0],
        [0, 2],
      ],
      [
        [1, 2],
        [0, 0],
      ],
      [
        [0, 0],
        [1, 2],
      ],
    ]);
  });

  it('fewer slices than shards take whole shards; an uneven split gives the first shards more', () => {
    // 5 shards, 2 slices: slice 0 = shards 0, 2, 4.
    expect([0, 1, 2, 3, 4].map((sh) => part(0, 2, sh, 5)[1])).toEqual([1, 0, 1, 0, 1]);
    expect([0, 1, 2, 3, 4].map((sh) => part(1, 2, sh, 5)[1])).toEqual([0, 1, 0, 1, 0]);
    // 3 shards, 5 slices: shards 0 and 1 hold two slices each, shard 2 one (the whole shard).
    expect(part(0, 5, 0, 3)).toEqual([0, 2]);
    expect(part(3, 5, 0, 3)).toEqual([1, 2]);
    expect(part(4, 5, 1, 3)).toEqual([1, 2]);
    expect(part(2, 5, 2, 3)).toEqual([0, 1]);
    // One shard: the slice is split inside it.
    expect(part(2, 3, 0, 1)).toEqual([2, 3]);
  });
});
