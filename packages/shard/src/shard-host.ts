/**
 * One shard copy inside a worker thread: its engine, its mapping, its periodic refresh (and
 * the background merges that follow it), the translog's durability, and the writers waiting
 * for a refresh (`?refresh=wait_for`). With a data path the shard is recovered from disk when
 * it opens (see @shoal/engine openShardEngine), and every write is in the fsynced translog
 * before it is acknowledged unless `index.translog.durability` is `async`.
 */
import { rmSync } from 'node:fs';
import {
  CorruptionError,
  decodeOps,
  encodeOps,
  type IndexMapping,
  type MappingSettings,
  openShardEngine,
  recoveryOps,
  restoreIndexMapping,
  ShardEngine,
  type ShardWriteOp,
} from '@shoal/engine';
import { ShoalError } from '@shoal/protocol';
import type {
  OpenShardResult,
  OpenShardTask,
  PrimaryWriteOutcome,
  ShardDetailStats,
  TranslogSettings,
} from './tasks.ts';

const DEFAULT_TRANSLOG: TranslogSettings = {
  durability: 'request',
  syncIntervalMs: 5000,
  flushThresholdBytes: 10 * 1024 ** 3,
};

/** Elasticsearch's exception types for a damaged shard: the index files or the translog. */
function corruption(e: CorruptionError): ShoalError {
  const translog = /[/\\]translog[/\\]/.test(e.file);
  return new ShoalError(
    translog ? 'translog_corrupted_exception' : 'corrupt_index_exception',
    e.message,
    500,
  );
}

export class ShardHost {
  readonly engine: ShardEngine;
  mapping: IndexMapping;
  readonly opened: OpenShardResult;
  readonly searchStats = { queryTotal: 0, queryTimeMs: 0, fetchTotal: 0, fetchTimeMs: 0 };
  private timer: NodeJS.Timeout | undefined;
  private syncTimer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];
  private translog: TranslogSettings;
  private flushScheduled = false;
  private mergesCurrent = 0;
  private closed = false;
  private mappingSettings: MappingSettings;

  constructor(readonly spec: OpenShardTask) {
    this.mappingSettings = spec.mappingSettings ?? {};
    this.mapping = restoreIndexMapping(spec.mapping, { indexName: spec.index, ...this.mappingSettings });
    this.translog = spec.translog ?? DEFAULT_TRANSLOG;
    const base = {
      index: spec.index,
      indexUuid: spec.indexUuid,
      shardId: spec.shardId,
      mapping: this.mapping,
    };
    if (spec.path && spec.fresh) rmSync(spec.path, { recursive: true, force: true });
    if (spec.path) {
      const warnings: { msg: string; fields: Record<string, unknown> }[] = [];
      try {
        const { engine, recovery } = openShardEngine({
          ...base,
          path: spec.path,
          warn: (msg, fields) => warnings.push({ msg, fields }),
        });
        this.engine = engine;
        this.mapping = engine.getMapping();
        for (const u of recovery.mappingUpdates) {
          warnings.push({
            msg: 'a replayed document needed a mapping update the index metadata lacks',
            fields: { update: u },
          });
        }
        const { mappingUpdates: _, ...info } = recovery;
        this.opened = { recovery: info, warnings };
      } catch (e) {
        if (e instanceof CorruptionError) throw corruption(e);
        throw e;
      }
    } else {
      this.engine = new ShardEngine(base);
      this.opened = {};
    }
    if (spec.primaryTerm !== undefined) this.setPrimaryTerm(spec.primaryTerm);
    this.setRefreshInterval(spec.refreshIntervalMs);
    this.setTranslog(this.translog);
  }

  /** The cluster state's primary term for the shard; a term never goes back. */
  setPrimaryTerm(term: number): void {
    if (term > this.engine.currentPrimaryTerm) this.engine.setPrimaryTerm(term);
  }

  /** A new mapping, or new `index.mapping.*` settings for it (kept when not given). */
  setMapping(json: Record<string, unknown>, settings?: MappingSettings): void {
    if (settings) this.mappingSettings = settings;
    this.mapping = restoreIndexMapping(json, { indexName: this.spec.index, ...this.mappingSettings });
    this.engine.setMapping(this.mapping);
  }

  setRefreshInterval(ms: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (ms > 0) {
      this.timer = setInterval(() => this.background(() => this.periodicRefresh()), ms);
      this.timer.unref();
    }
  }

  /** `index.translog.*` changed (or the shard opened): the async sync timer follows it. */
  setTranslog(settings: TranslogSettings): void {
    this.translog = settings;
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = undefined;
    if (settings.durability === 'async' && this.engine.store) {
      this.syncTimer = setInterval(
        () => this.background(() => this.engine.store?.translog.sync()),
        settings.syncIntervalMs,
      );
      this.syncTimer.unref();
    }
  }

  /**
   * Applies a write batch; with `durability: request` it is fsynced before this resolves.
   * `replicate`: the outcome carries the batch's operations, encoded, for the copy's replicas.
   */
  async write(
    ops: ShardWriteOp[],
    refresh: 'false' | 'true' | 'wait_for',
    replicate = false,
  ): Promise<PrimaryWriteOutcome> {
    const started = performance.now();
    const applied = this.engine.write(ops, replicate);
    if (applied.kind !== 'applied') return applied;
    const { ops: done, ...outcome } = applied;
    await this.settle(started, refresh);
    return replicate && done && done.length > 0 ? { ...outcome, replication: encodeOps(done) } : outcome;
  }

  /**
   * A replica applies its primary's operations (or a recovery batch), durably as a primary's
   * write; operations from a primary older than the term this copy knows are refused, so a
   * deposed primary cannot change it.
   */
  async replicaWrite(
    bytes: Uint8Array,
    primaryTerm: number,
    refresh: 'false' | 'true' | 'wait_for',
  ): Promise<{ applied: number }> {
    const current = this.engine.currentPrimaryTerm;
    if (primaryTerm < current) {
      throw new ShoalError(
        'illegal_state_exception',
        `operation primary term [${primaryTerm}] is too old (current [${current}])`,
        500,
      );
    }
    const started = performance.now();
    const { applied, mappingUpdates } = this.engine.applyReplicated(decodeOps(bytes));
    if (mappingUpdates.length > 0) this.mapping = this.engine.getMapping();
    await this.settle(started, refresh);
    return { applied };
  }

  /** Peer recovery's source: every live document as encoded operation batches. */
  recoverySource(): { batches: Uint8Array[]; maxSeqNo: number } {
    this.refresh();
    const reader = this.engine.acquireReader();
    try {
      const batches: Uint8Array[] = [];
      for (const batch of recoveryOps(reader)) batches.push(encodeOps(batch));
      return { batches, maxSeqNo: this.engine.maxSeqNo };
    } finally {
      reader.release();
    }
  }

  /** After a write: durability (fsync or a scheduled flush), stats, and the refresh asked for. */
  private async settle(started: number, refresh: 'false' | 'true' | 'wait_for'): Promise<void> {
    const store = this.engine.store;
    if (store) {
      if (this.translog.durability === 'request') await store.translog.syncSoon();
      if (store.translog.stats().sizeInBytes > this.translog.flushThresholdBytes) this.scheduleFlush();
    }
    this.engine.stats.indexTimeMs += performance.now() - started;
    if (refresh === 'true') this.refresh();
    else if (refresh === 'wait_for') await this.waitForRefresh();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      if (!this.closed) this.background(() => this.flush(false));
    });
  }

  /**
   * Timer work (refresh, merges, async translog sync, threshold flush). An error thrown from a
   * timer would kill the worker thread; kept here, it surfaces on the next write or flush
   * instead, which hit the same files.
   */
  private background(work: () => unknown): void {
    try {
      work();
    } catch (e) {
      this.lastBackgroundError = e instanceof Error ? e.message : String(e);
    }
  }

  /** The last failure of background work, if any (reported by `_stats`-style callers). */
  lastBackgroundError: string | undefined;

  private periodicRefresh(): void {
    this.refresh();
    // Background merges: the tiered policy picks small segments once there are many.
    this.mergesCurrent++;
    try {
      while (this.engine.maybeMerge()) {}
    } finally {
      this.mergesCurrent--;
    }
  }

  refresh(): boolean {
    const refreshed = this.engine.refresh();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    return refreshed;
  }

  flush(force: boolean): boolean {
    const flushed = this.engine.flush(force);
    // flush refreshed: writers waiting for a refresh can go.
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    return flushed;
  }

  /** `_forcemerge`, then a flush (its `flush` parameter defaults to true in Elasticsearch). */
  forceMerge(maxNumSegments: number, onlyExpungeDeletes: boolean): boolean {
    this.mergesCurrent++;
    try {
      const merged = onlyExpungeDeletes
        ? this.engine.expungeDeletes()
        : this.engine.forceMerge(maxNumSegments);
      this.flush(false);
      return merged;
    } finally {
      this.mergesCurrent--;
    }
  }

  /** Resolves once the next refresh has made earlier writes searchable. */
  waitForRefresh(): Promise<void> {
    if (!this.timer) {
      // No periodic refresh (refresh_interval -1): Elasticsearch forces one for wait_for.
      this.refresh();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  detailStats(): ShardDetailStats | undefined {
    const store = this.engine.store;
    if (!store) return undefined;
    const st = this.engine.stats;
    const tl = store.translog.stats();
    const sizes = store.sizes();
    return {
      storeBytes: sizes.store,
      translog: {
        operations: tl.operations,
        sizeInBytes: sizes.translog,
        uncommittedOperations: tl.operations,
        uncommittedSizeInBytes: tl.sizeInBytes,
        generation: tl.generation,
      },
      indexing: { indexTotal: st.indexTotal, deleteTotal: st.deleteTotal, indexTimeMs: st.indexTimeMs },
      search: { ...this.searchStats },
      refresh: { total: st.refreshTotal, timeMs: st.refreshTimeMs },
      flush: { total: st.flushTotal, timeMs: st.flushTimeMs },
      merges: {
        total: st.mergeTotal,
        timeMs: st.mergeTimeMs,
        docs: st.mergeDocs,
        sizeInBytes: st.mergeBytes,
        current: this.mergesCurrent,
      },
      localCheckpoint: this.engine.maxSeqNo,
      maxSeqNo: this.engine.maxSeqNo,
    };
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.timer = undefined;
    this.syncTimer = undefined;
    this.engine.close();
  }
}
