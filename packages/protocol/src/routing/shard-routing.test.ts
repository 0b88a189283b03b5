import { describe, expect, it } from 'vitest';
import {
  defaultRoutingNumShards,
  documentShard,
  routingSearchShards,
  shardForRouting,
} from './shard-routing.ts';

describe('defaultRoutingNumShards', () => {
  it('matches calculateNumRoutingShards', () => {
    expect(defaultRoutingNumShards(1)).toBe(1024);
    expect(defaultRoutingNumShards(2)).toBe(1024);
    expect(defaultRoutingNumShards(3)).toBe(768);
    expect(defaultRoutingNumShards(5)).toBe(640);
    expect(defaultRoutingNumShards(1024)).toBe(2048);
    expect(defaultRoutingNumShards(600)).toBe(1200);
  });
});

describe('shardForRouting', () => {
  it('places the scroll/12_slices.yml documents so the YAML slice results hold', () => {
    // 5 shards, number_of_routing_shards 5; slice {id 0, max 2} covers shards {0,2,4} and must
    // see ids 2,3,4; slice {id 1, max 2} covers {1,3} and must see id 1.
    const shard = (id: string) => shardForRouting(id, 5, 5);
    for (const id of ['2', '3', '4']) expect(shard(id) % 2).toBe(0);
    expect(shard('1') % 2).toBe(1);
    expect(['1', '2', '3', '4'].map(shard)).toEqual([3, 2, 4, 2]);
  });

  it('keeps a document on the same shard through a split (routing factor)', () => {
    for (const id of ['a', 'b', 'doc-17', '42', 'ü']) {
      const before = shardForRouting(id, 2, 1024);
      const after = shardForRouting(id, 4, 1024);
      expect(Math.trunc(after / 2)).toBe(before);
      expect(before).toBeGreaterThanOrEqual(0);
      expect(before).toBeLessThan(2);
    }
  });

  it('uses floorMod for negative hashes', () => {
    // routingHash('hello') is negative (0xd7c31989); floorMod keeps the shard in range.
    const s = shardForRouting('hello', 3, 768);
    expect(s).toBeGreaterThanOrEqual(0);
    expect(s).toBeLessThan(3);
    expect(s).toBe(Math.trunc(((((0xd7c31989 | 0) % 768) + 768) % 768) / 256));
  });
});

describe('partitioned routing (index.routing_partition_size)', () => {
  const table = { numberOfShards: 6, routingNumShards: 6, partitionSize: 3 };

  it('puts each document in the run of shards its routing value picks', () => {
    const run = routingSearchShards(table, 'tenant');
    expect(run).toHaveLength(3);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const shard = documentShard(table, `doc-${i}`, 'tenant');
      expect(run).toContain(shard);
      seen.add(shard);
    }
    expect(seen.size).toBe(3);
  });

  it('is plain routing with a partition of one, and needs a routing value otherwise', () => {
    const plain = { ...table, partitionSize: 1 };
    expect(documentShard(plain, 'x', 'r')).toBe(shardForRouting('r', 6, 6));
    expect(documentShard(plain, 'x', undefined)).toBe(shardForRouting('x', 6, 6));
    expect(routingSearchShards(plain, 'r')).toEqual([shardForRouting('r', 6, 6)]);
    expect(() => documentShard(table, 'x', undefined)).toThrow(
      'A routing value is required for gets from a partitioned index',
    );
  });
});
