import type { ShardWorker } from '@shoal/shard';
import { describe, expect, it } from 'vitest';
import { LeaseRegistry } from './lease-registry.ts';

/** A worker stand-in that records the contexts it is asked to free. */
function recordingWorker(freed: unknown[][]): ShardWorker {
  return {
    id: 0,
    run: async (task: { t: string; contexts?: unknown[] }) => {
      if (task.t === 'free_contexts') {
        freed.push(task.contexts ?? []);
        return { freed: task.contexts?.length ?? 0 };
      }
      return { freed: 3 };
    },
  } as unknown as ShardWorker;
}

const entry = (id: number, node = 'me') => ({
  node,
  index: 'i',
  uuid: 'u',
  shardId: 0,
  worker: 0,
  context: { id, session: 's' },
});

describe('the lease registry', () => {
  it('extends leases on use and reaps the expired ones, freeing their shard contexts', async () => {
    let now = 1000;
    const freed: unknown[][] = [];
    const r = new LeaseRegistry('me', [recordingWorker(freed)], () => now);
    r.add({ id: 'a', kind: 'pit', encoded: 'A', shards: [entry(1)], keepAliveMs: 100 });
    r.add({ id: 'b', kind: 'scroll', encoded: 'B', shards: [entry(2), entry(3)], keepAliveMs: 100 });
    now = 1090;
    r.touch('a', 100);
    now = 1150;
    await r.reap();
    expect(r.get('a')).toBeDefined();
    expect(r.get('b')).toBeUndefined();
    expect(freed).toEqual([
      [
        { key: 'u/0', context: entry(2).context },
        { key: 'u/0', context: entry(3).context },
      ],
    ]);
    expect(r.list('pit').map((l) => l.id)).toEqual(['a']);
  });

  it('cannot reach contexts of other nodes (they count as not freed)', async () => {
    const freed: unknown[][] = [];
    const r = new LeaseRegistry('me', [recordingWorker(freed)]);
    expect(await r.free([entry(1, 'elsewhere'), entry(2)], 'closed')).toBe(1);
    expect(await r.freeAllScrolls()).toBe(3);
  });
});
