/**
 * The coordinator's handle on one shard worker thread: a single-thread Piscina pool that owns
 * a set of shard copies. A thread that dies takes its shards' in-memory state with it, and
 * Piscina would silently start an empty replacement; so a death marks every shard the thread
 * held as failed (the owner hears it through `onShardsFailed`) and the replacement is told of
 * no shard until they are recovered.
 */
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ShoalError } from '@shoal/protocol';
import { Piscina } from 'piscina';
import type { CounterRef } from './context-counters.ts';
import type { WirePackedReply } from './hit-codec.ts';
import { replySlotsBuffer, SlotReader } from './reply-slots.ts';
import type { ShardKey, ShardWorkerData, TaskReply, TaskResults, WorkerTask } from './tasks.ts';
import type { ThreadScheduling } from './thread-scheduling.ts';
import { startWithExecArgv, tsExecArgv, workerResourceLimits } from './ts-worker.ts';
import { bundledWorker } from './worker-bundle.ts';

/**
 * The worker module's source: beside this file, or, when this file is bundled into another
 * module (the node program's bundle), beside the package's entry.
 */
function workerSourceUrl(): URL {
  const here = import.meta.url;
  if (/\/shard-worker\.[jt]s$/.test(here)) return new URL(`./worker${extname(here)}`, here);
  const entry = createRequire(here).resolve('@shoal/shard');
  return new URL(`./worker${extname(entry)}`, pathToFileURL(entry));
}

const workerSource = workerSourceUrl();
const ext = extname(workerSource.pathname);
let workerUrl: URL | undefined;

/**
 * What the threads run: compiled JavaScript as it is; TypeScript source bundled into one
 * module (worker-bundle.ts), or, when the bundle cannot be made, the source through tsx's
 * CommonJS hook (ts-worker.ts), which works the same, only slower.
 */
function workerModule(): URL {
  if (workerUrl) return workerUrl;
  if (ext === '.js') workerUrl = workerSource;
  else {
    try {
      workerUrl = bundledWorker(workerSource);
    } catch (e) {
      process.emitWarning(
        `shard worker threads run their TypeScript source unbundled: ${e instanceof Error ? e.message : String(e)}`,
      );
      workerUrl = workerSource;
    }
  }
  return workerUrl;
}

/** Queued tasks a shard worker accepts beyond those in flight. */
const MAX_QUEUED_TASKS = 10_000;

export type TaskOf<K extends keyof TaskResults> = Extract<WorkerTask, { t: K }>;

export class ShardWorker {
  readonly id: number;
  /** The module the thread runs (see workerModule). */
  readonly module: URL;
  private readonly pool: Piscina;
  /** The shard copies this thread owns. */
  readonly shards = new Set<ShardKey>();
  private failedListeners: ((keys: ShardKey[], reason: string) => void)[] = [];
  private closed = false;
  /** Where the thread packs query replies (reply-slots.ts); shared with every thread the pool starts. */
  private readonly slots = new SlotReader(replySlotsBuffer());

  /**
   * `counters` (this thread's row of the node's search-context counters) and `cancel` (the
   * node's cancellation flags) are handed to every thread the pool starts, a replacement too,
   * instead of travelling with each task. `scheduling` is the thread's kernel policy
   * (thread-scheduling.ts; `batch` unless told otherwise).
   */
  constructor(
    id: number,
    opts: { counters?: CounterRef; cancel?: SharedArrayBuffer; scheduling?: ThreadScheduling } = {},
  ) {
    this.id = id;
    const workerUrl = workerModule();
    this.module = workerUrl;
    this.pool = startWithExecArgv(
      tsExecArgv(workerUrl),
      (execArgv) =>
        new Piscina({
          filename: workerUrl.href,
          minThreads: 1,
          maxThreads: 1,
          idleTimeout: Number.POSITIVE_INFINITY,
          // Timers (periodic refresh) must run between tasks: never park the thread in Atomics.wait.
          atomics: 'disabled',
          concurrentTasksPerWorker: 16,
          // Tasks beyond the 16 in flight wait here; past this bound the node sheds load with a
          // 429, as an Elasticsearch thread pool with a full queue does.
          maxQueue: MAX_QUEUED_TASKS,
          // Piscina's run- and wait-time histograms: nothing reads them, and each task paid for
          // two clock reads and two histogram records on each side.
          recordTiming: false,
          execArgv,
          resourceLimits: workerResourceLimits(),
          workerData: {
            counters: opts.counters,
            cancel: opts.cancel,
            scheduling: opts.scheduling ?? 'batch',
            replySlots: this.slots.buffer,
          } satisfies ShardWorkerData,
        }),
    );
    // Piscina reports a thread death as an 'error' event only when no task was running on it;
    // otherwise the running tasks reject. 'workerDestroy' fires in both cases.
    this.pool.on('error', (err: unknown) => {
      this.lastError = err instanceof Error ? err.message : String(err);
    });
    this.pool.on('workerDestroy', () => {
      if (!this.closed) queueMicrotask(() => this.died());
    });
  }

  private lastError: string | undefined;

  private died(reason?: string): void {
    const keys = [...this.shards];
    this.shards.clear();
    if (keys.length === 0) return;
    const why = reason ?? this.lastError ?? 'the worker thread exited';
    for (const l of this.failedListeners) l(keys, why);
  }

  onShardsFailed(listener: (keys: ShardKey[], reason: string) => void): void {
    this.failedListeners.push(listener);
  }

  /**
   * Runs a task; rejects with the task's ShoalError when the worker answered with an error.
   * With `hold`, a packed reply that came in a reply slot is read there: its `bytes` view the
   * slot, which stays taken until `release(reply)`, to be called once the bytes are used.
   */
  run<K extends keyof TaskResults>(
    task: TaskOf<K>,
    transferList?: ArrayBuffer[],
    hold = false,
  ): Promise<TaskResults[K]> {
    // Not an async function: its frame and extra promise cost every shard call of every search.
    return this.pool
      .run(task, transferList ? { transferList } : undefined)
      .then(hold ? this.answerHeld : this.answer, this.refused) as Promise<TaskResults[K]>;
  }

  private readonly answer = (reply: TaskReply<keyof TaskResults>): unknown => this.answered(reply, false);
  private readonly answerHeld = (reply: TaskReply<keyof TaskResults>): unknown => this.answered(reply, true);

  private answered(reply: TaskReply<keyof TaskResults>, hold: boolean): unknown {
    if ('error' in reply) throw ShoalError.fromWire(reply.error);
    const ok = reply.ok as WirePackedReply;
    if (ok !== null && typeof ok === 'object' && ok.slot !== undefined) this.fromSlot(ok, hold);
    return ok;
  }

  /** The pool refused the task, or the thread died under it (or the pool is closing). */
  private readonly refused = (e: unknown): never => {
    const reason = e instanceof Error ? e.message : String(e);
    if (reason === 'Task queue is at limit') {
      throw new ShoalError(
        'es_rejected_execution_exception',
        `rejected execution of shard task on shard worker [${this.id}]: queue capacity [${MAX_QUEUED_TASKS}] reached`,
        429,
      );
    }
    this.lastError = reason;
    throw new ShoalError('node_closed_exception', `shard worker [${this.id}] failed: ${reason}`, 500);
  };

  /**
   * Copies a reply's packed bytes out of its slot (freeing the slot) to where callers read them,
   * or, held, points them at the slot and keeps `slot` set for `release`.
   */
  private fromSlot(reply: WirePackedReply, hold: boolean): void {
    const bytes = hold ? this.slots.hold(reply.slot!) : this.slots.take(reply.slot!);
    if (!bytes) {
      throw new ShoalError(
        'node_closed_exception',
        `shard worker [${this.id}] failed: its reply slot was taken by a new thread`,
        500,
      );
    }
    reply.bytes = bytes;
    if (!hold) reply.slot = undefined;
  }

  /** Frees the slot of a reply run with `hold` (nothing for one that came in its own buffer). */
  release(reply: { slot?: WirePackedReply['slot'] }): void {
    const ref = reply.slot;
    if (ref === undefined) return;
    reply.slot = undefined;
    this.slots.free(ref);
  }

  /** Reply slots taken (reply-slots.ts): none once every search is answered, bar a dead thread's. */
  get replySlotsInUse(): number {
    return this.slots.inUse();
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }
}
