import { ShoalError } from '@shoal/protocol';
import type { ShardWorker } from '@shoal/shard';
import { describe, expect, it } from 'vitest';
import type { NodeServices } from '../services.ts';
import { runQueryPhase, type ShardQueryAnswer, type ShardQueryExec } from './query-phase.ts';
import type { ShardTarget } from './shard-targets.ts';

function services(): NodeServices {
  return {
    node: { id: 'node-1' },
    counters: { queryCurrent: 0, queryTotal: 0, queryFailure: 0, queryTimeMs: 0 },
  } as unknown as NodeServices;
}

const target = (shardIndex: number): ShardTarget =>
  ({ shardIndex, shardId: shardIndex, meta: { name: 'idx' }, copy: undefined }) as unknown as ShardTarget;

const answer = (t: ShardTarget): ShardQueryAnswer => ({
  reply: { result: { totalHits: t.shardIndex, totalRelation: 'eq', maxScore: 1, hits: [] } },
  worker: {} as ShardWorker,
  key: `u/${t.shardId}`,
});

const later = <T>(ms: number, f: () => T): Promise<T> =>
  new Promise((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(f());
      } catch (e) {
        reject(e);
      }
    }, ms),
  );

describe('runQueryPhase', () => {
  it('answers in shard order whatever order the shards answer in, with each failure', async () => {
    const s = services();
    const exec: ShardQueryExec = (t) => {
      if (t.shardIndex === 1) throw new ShoalError('no_shard_available_action_exception', 'not started', 503);
      if (t.shardIndex === 3) return later(5, () => Promise.reject(new Error('thread died'))) as never;
      return later(20 - t.shardIndex * 5, () => answer(t));
    };
    const phase = await runQueryPhase(s, [0, 1, 2, 3].map(target), exec);
    expect(phase.outcomes.map((o) => o.target.shardIndex)).toEqual([0, 2]);
    expect(phase.outcomes.map((o) => o.result.totalHits)).toEqual([0, 2]);
    expect(phase.failures.map((f) => [f.shard, f.error.type]).sort()).toEqual([
      [1, 'no_shard_available_action_exception'],
      [3, 'exception'],
    ]);
    expect(s.counters).toMatchObject({ queryCurrent: 0, queryTotal: 4, queryFailure: 2 });
  });

  it('resolves at once with no shard to ask', async () => {
    const s = services();
    const phase = await runQueryPhase(s, [], () => {
      throw new Error('never asked');
    });
    expect(phase).toEqual({ outcomes: [], failures: [] });
    expect(s.counters).toMatchObject({ queryCurrent: 0, queryTotal: 0 });
  });

  it('counts an answer it cannot read as that shard failing, and still resolves', async () => {
    const s = services();
    const phase = await runQueryPhase(s, [target(0), target(1)], (t) =>
      Promise.resolve(
        t.shardIndex === 0 ? answer(t) : ({ worker: {}, key: 'u/1' } as unknown as ShardQueryAnswer),
      ),
    );
    expect(phase.outcomes.map((o) => o.target.shardIndex)).toEqual([0]);
    expect(phase.failures.map((f) => f.shard)).toEqual([1]);
  });
});
