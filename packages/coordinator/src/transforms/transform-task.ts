/**
 * A started transform on this node (Elasticsearch's TransformTask with its scheduler): it runs
 * a checkpoint when triggered — at start, every `frequency` while continuous, on
 * `_schedule_now` — and ends when a batch transform's checkpoint is done, when stopped, or
 * fails (after `num_failure_retries` retries of a failure that may pass; at once for one that
 * cannot). Its state and counters are saved after every page and at every change of state.
 */
import { errorBody } from '@shoal/protocol';
import type { InternalClient } from '../security/internal-client.ts';
import type { NodeServices } from '../services.ts';
import { frequencyMs, isContinuous, type TransformConfig } from './transform-config.ts';
import { irrecoverable, runCheckpoint } from './transform-indexer.ts';
import { checkTransformPrivileges, type StoredAuthorization } from './transform-privileges.ts';
import type { IndexerStats, TransformRunState } from './transform-stats.ts';
import type { TransformStore } from './transform-store.ts';

export type TaskStatus = 'started' | 'indexing' | 'stopping' | 'failed';

const DEFAULT_RETRIES = 10;

export interface TaskDeps {
  s: NodeServices;
  client: InternalClient<NodeServices>;
  store: TransformStore;
  /** Called once when the task has ended (stopped or closed), to forget it. */
  ended(task: TransformTask): void;
}

function reasonOf(e: unknown): string {
  const body = errorBody(e) as { error?: { reason?: string } };
  return body.error?.reason ?? String(e);
}

export class TransformTask {
  status: TaskStatus = 'started';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;
  private stopAtCheckpoint = false;
  private closing = false;
  private failures = 0;
  private wake: (() => void) | undefined;
  private finished = false;
  private readonly endedPromise: Promise<void>;
  private resolveEnded!: () => void;

  constructor(
    private readonly deps: TaskDeps,
    public config: TransformConfig,
    public who: StoredAuthorization | undefined,
    readonly state: TransformRunState,
    readonly stats: IndexerStats,
  ) {
    this.endedPromise = new Promise((r) => (this.resolveEnded = r));
    if (state.task_state === 'failed') this.status = 'failed';
  }

  get id(): string {
    return this.config.id;
  }

  /** Resolves once the task has ended. */
  ended(): Promise<void> {
    return this.endedPromise;
  }

  persist(): Promise<void> {
    return this.deps.store.putState(this.id, { state: this.state, stats: this.stats });
  }

  /** Runs a checkpoint now unless one is running (or the task failed). */
  trigger(): void {
    if (this.running || this.status === 'failed' || this.finished) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stats.trigger_count++;
    this.running = this.runOnce().finally(() => {
      this.running = undefined;
    });
  }

  private schedule(ms: number): void {
    if (this.finished || this.closing) return;
    this.timer = setTimeout(() => this.trigger(), ms);
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    const { s, client, store } = this.deps;
    this.status = 'indexing';
    try {
      await checkTransformPrivileges(s, 'start', this.config, this.who, true);
      const outcome = await runCheckpoint({
        s,
        client,
        config: this.config,
        state: this.state,
        stats: this.stats,
        stopRequested: () => this.stopping || this.closing,
        persist: () => this.persist(),
        sleep: (ms) =>
          new Promise<void>((resolve) => {
            const t = setTimeout(resolve, ms);
            this.wake = () => {
              clearTimeout(t);
              resolve();
            };
          }).finally(() => (this.wake = undefined)),
      });
      this.failures = 0;
      if (outcome === 'done') {
        await store.putCheckpoint(this.id, this.state.checkpoint, {
          timestamp_millis: this.state.last?.timestamp_millis,
          time_upper_bound_millis: this.state.last?.time_upper_bound_millis,
        });
        void store.audit(
          this.id,
          'info',
          `Finished indexing for transform checkpoint [${this.state.checkpoint}].`,
        );
      }
      if (this.closing) return;
      if (outcome === 'stopped' || this.stopAtCheckpoint || !isContinuous(this.config)) {
        await this.finish();
        return;
      }
      this.status = 'started';
      this.schedule(frequencyMs(this.config));
    } catch (e) {
      // A force stop or a node stop ended the task while the page was in flight.
      if (this.closing || this.finished) return;
      this.failures++;
      const retries = this.config.settings.numFailureRetries ?? DEFAULT_RETRIES;
      const reason = reasonOf(e);
      s.logger.warn({ transform: this.id, err: e }, 'transform checkpoint failed');
      // Unattended: every failure is retried, the transform never fails.
      const unattended = this.config.settings.unattended === true;
      if (!unattended && (irrecoverable(e) || (retries !== -1 && this.failures > retries) || this.stopping)) {
        await this.fail(`task encountered irrecoverable failure: ${reason}`);
        return;
      }
      void store.audit(
        this.id,
        'warning',
        `Transform encountered an exception: [${reason}]; Will automatically retry [${this.failures}/${retries}]`,
      );
      this.status = 'started';
      this.schedule(Math.min(frequencyMs(this.config), 5000));
    }
  }

  private async fail(reason: string): Promise<void> {
    this.status = 'failed';
    this.state.task_state = 'failed';
    this.state.reason = reason;
    await this.persist().catch(() => undefined);
    void this.deps.store.audit(this.id, 'error', reason);
  }

  /** Ends the task: stopped, state saved. */
  private async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.state.task_state = 'stopped';
    delete this.state.reason;
    delete this.state.node_id;
    await this.persist().catch((err) =>
      this.deps.s.logger.warn({ err, transform: this.id }, 'transform state not saved'),
    );
    void this.deps.store.audit(this.id, 'info', 'Transform has stopped.');
    this.deps.ended(this);
    this.resolveEnded();
  }

  /**
   * `_stop`: at once when idle or forced; after the current page, or with `waitForCheckpoint`
   * after the current checkpoint, when indexing. Resolves when stopped.
   */
  async stop(opts: { force: boolean; waitForCheckpoint: boolean }): Promise<void> {
    if (opts.force || !this.running) {
      this.stopping = true;
      this.wake?.();
      if (this.running && !opts.force) await this.running;
      await this.finish();
      return this.endedPromise;
    }
    if (opts.waitForCheckpoint) this.stopAtCheckpoint = true;
    else {
      this.stopping = true;
      this.wake?.();
    }
    this.status = 'stopping';
    return this.endedPromise;
  }

  /** The node stops: the task halts where it is and stays started, to resume at the next start. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.running;
    this.finished = true;
    this.resolveEnded();
  }
}
