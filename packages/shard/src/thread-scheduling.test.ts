import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ShardWorker } from './shard-worker.ts';
import { kernelThreadId, threadPolicy } from './thread-scheduling.ts';

function hasChrt(): boolean {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const linux = kernelThreadId() !== undefined;

describe.runIf(linux && hasChrt())('shard worker thread scheduling', () => {
  const batch = new ShardWorker(0);
  const normal = new ShardWorker(1, { scheduling: 'normal' });
  afterAll(() => Promise.all([batch.close(), normal.close()]));

  it('moves each shard worker thread to SCHED_BATCH by default, and only that thread', async () => {
    const outcome = await batch.run({ t: 'scheduling' });
    expect(outcome.notApplied).toBeUndefined();
    expect(outcome.policy).toBe('batch');
    expect(outcome.tid).not.toBe(kernelThreadId());
    expect(threadPolicy(process.pid, outcome.tid!)).toBe('batch');
    expect(threadPolicy(process.pid, kernelThreadId()!)).toBe('normal');
  });

  it('leaves a thread asked for the normal policy under SCHED_OTHER', async () => {
    const outcome = await normal.run({ t: 'scheduling' });
    expect(outcome).toEqual({ policy: 'normal', tid: expect.any(Number) });
    expect(threadPolicy(process.pid, outcome.tid!)).toBe('normal');
  });
});

describe.runIf(linux)('thread policy from /proc', () => {
  it('reads the calling thread policy and reports an unknown thread as undefined', () => {
    expect(threadPolicy(process.pid, kernelThreadId()!)).toBe('normal');
    expect(threadPolicy(process.pid, 0)).toBeUndefined();
  });
});
