/**
 * `requests_per_second` (Elasticsearch's WorkerBulkByScrollTaskState): before each batch a run
 * waits until the previous batch's documents, at the set rate, would have taken their time —
 * `size / rate` seconds from the previous batch's start. A rethrottle that speeds the run up
 * takes effect at once, in the middle of a wait; one that slows it down from the next batch
 * on. Cancelling the task ends a wait at once.
 */
import type { Task } from '../tasks/task-registry.ts';
import type { ByScrollStatus } from './status.ts';

export class Throttle {
  private wake: (() => void) | undefined;

  constructor(
    private readonly status: ByScrollStatus,
    private readonly task: Task,
  ) {
    task.onCancel(() => this.wake?.());
  }

  get rate(): number {
    return this.status.requestsPerSecond;
  }

  rethrottle(rate: number): void {
    const faster = rate > this.status.requestsPerSecond;
    this.status.requestsPerSecond = rate;
    if (faster) this.wake?.();
  }

  /** Waits as the rate asks after a batch of `lastSize` documents that started at `lastStart`. */
  async before(lastSize: number, lastStart: number): Promise<void> {
    const task = this.task;
    let rateAtStart = this.rate;
    for (;;) {
      if (task.cancelled || lastSize === 0) return;
      const due = lastStart + (lastSize / rateAtStart) * 1000;
      const wait = due - Date.now();
      if (!(wait > 0)) return;
      const began = Date.now();
      this.status.throttledUntil = due;
      const woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), Math.min(wait, 2 ** 31 - 1));
        this.wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      this.wake = undefined;
      this.status.throttledUntil = 0;
      this.status.throttledMillis += Date.now() - began;
      // A faster rate: the wait is measured again from the batch's start with it.
      if (!woken) return;
      rateAtStart = this.rate;
    }
  }
}
