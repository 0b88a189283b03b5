/**
 * One shard copy inside a worker thread: its engine, its mapping, its periodic refresh and the
 * writers waiting for a refresh (`?refresh=wait_for`).
 */
import { createIndexMapping, type IndexMapping, ShardEngine } from '@shoal/engine';
import type { OpenShardTask } from './tasks.ts';

export class ShardHost {
  readonly engine: ShardEngine;
  mapping: IndexMapping;
  private timer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];

  constructor(readonly spec: OpenShardTask) {
    this.mapping = createIndexMapping(spec.mapping, { indexName: spec.index });
    this.engine = new ShardEngine({
      index: spec.index,
      indexUuid: spec.indexUuid,
      shardId: spec.shardId,
      mapping: this.mapping,
    });
    this.setRefreshInterval(spec.refreshIntervalMs);
  }

  setMapping(json: Record<string, unknown>): void {
    this.mapping = createIndexMapping(json, { indexName: this.spec.index });
    this.engine.setMapping(this.mapping);
  }

  setRefreshInterval(ms: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (ms > 0) {
      this.timer = setInterval(() => this.refresh(), ms);
      this.timer.unref();
    }
  }

  refresh(): boolean {
    const refreshed = this.engine.refresh();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    return refreshed;
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

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.refresh();
  }
}
