/**
 * The kernel scheduling policy of a shard worker thread. By default each shard worker thread
 * moves itself to Linux's `SCHED_BATCH`: it still gets its fair share of the CPU, but waking
 * it (a task posted by the coordinator) no longer preempts the thread that woke it. On a busy
 * machine the coordinator's event loop, which every request passes through twice, then
 * finishes what it is doing instead of being switched out each time it hands a shard a task.
 *
 * Linux has no call for this in Node, so the thread runs util-linux's `chrt` on its own
 * thread id. Where that cannot be done (another OS, no `chrt`) the thread keeps the normal
 * policy and says why; nothing else depends on it.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/** `batch`: SCHED_BATCH (the default); `normal`: the thread keeps SCHED_OTHER. */
export type ThreadScheduling = 'batch' | 'normal';

export const THREAD_SCHEDULING_VALUES: readonly ThreadScheduling[] = ['batch', 'normal'];

/** Linux's numbers for the policies (`sched.h`), as /proc reports them. */
const POLICY_NAMES: Record<number, string> = { 0: 'normal', 1: 'fifo', 2: 'rr', 3: 'batch', 5: 'idle' };

/** This thread's kernel id, from `/proc/thread-self` (`<pid>/task/<tid>`); undefined off Linux. */
export function kernelThreadId(): number | undefined {
  try {
    const link = readlinkSync('/proc/thread-self');
    const tid = Number(link.slice(link.lastIndexOf('/') + 1));
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** The policy of a thread, from field 41 of `/proc/<pid>/task/<tid>/stat`; undefined if unknown. */
export function threadPolicy(pid: number, tid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const policy = Number(fields[41 - 3]);
    return POLICY_NAMES[policy] ?? `policy ${policy}`;
  } catch {
    return undefined;
  }
}

export interface SchedulingOutcome {
  policy: ThreadScheduling;
  /** The thread's kernel id (Linux). */
  tid?: number;
  /** Set when the thread asked for `batch` and kept the normal policy: why. */
  notApplied?: string;
}

/** Moves the calling thread to `policy`; resolves (never rejects) with what happened. */
export function applyThreadScheduling(policy: ThreadScheduling): Promise<SchedulingOutcome> {
  const tid = kernelThreadId();
  if (policy === 'normal') return Promise.resolve({ policy, tid });
  if (tid === undefined) {
    return Promise.resolve({ policy: 'normal', notApplied: 'no /proc/thread-self (not Linux)' });
  }
  return new Promise((resolveOutcome) => {
    execFile('chrt', ['--batch', '--pid', '0', String(tid)], { timeout: 5_000 }, (err, _out, stderr) => {
      if (!err) {
        resolveOutcome({ policy, tid });
        return;
      }
      const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'chrt is not installed' : stderr.trim();
      resolveOutcome({ policy: 'normal', tid, notApplied: why || err.message });
    });
  });
}
