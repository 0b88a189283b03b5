/**
 * An index's changes carried to the shard workers that hold its copies on this node: opening
 * (creating or recovering) and closing its primaries, a new mapping, and the settings a shard
 * reads live (translog, refresh interval, the number of replicas).
 */
import { isMappingSetting, mappingSettings } from '@shoal/engine';
import { type FlatSettings, getBytes, getInt, getString, getTimeMs, ShoalError } from '@shoal/protocol';
import type { TranslogSettings } from '@shoal/shard';
import type { Logger } from 'pino';
import type { ShardCopy, ShardTable } from '../shards/shard-table.ts';
import type { IndexMetadata } from './index-metadata.ts';
import type { MetadataStore } from './metadata-store.ts';

export class IndexShards {
  constructor(
    readonly table: ShardTable,
    private readonly logger: Logger,
    private readonly store?: MetadataStore,
  ) {}

  /** Places the index's copies on this node's workers and opens its primaries. */
  async openAll(meta: IndexMetadata, tolerateFailure: boolean): Promise<void> {
    const copies = this.table.allocate(
      meta.name,
      meta.uuid,
      meta.numberOfShards,
      getInt(meta.settings, 'index.number_of_replicas'),
    );
    await Promise.all(copies.filter((c) => c.primary).map((c) => this.open(c, meta, tolerateFailure)));
  }

  /**
   * Opens (creating or recovering) one copy on its worker; failures mark it FAILED. `fresh`: a
   * replica about to recover from its primary starts empty.
   */
  async open(
    c: ShardCopy,
    meta: IndexMetadata,
    tolerateFailure: boolean,
    opts: { fresh?: boolean; primaryTerm?: number } = {},
  ): Promise<void> {
    const worker = c.worker!;
    const started = Date.now();
    try {
      const r = await worker.run({
        t: 'open',
        key: c.key,
        index: meta.name,
        indexUuid: meta.uuid,
        shardId: c.shardId,
        mapping: meta.mapping.toJSON(),
        mappingSettings: mappingSettings(meta.settings),
        refreshIntervalMs: getTimeMs(meta.settings, 'index.refresh_interval'),
        path: this.store?.shardPath(meta.uuid, c.shardId),
        translog: translogSettings(meta.settings),
        ...(opts.fresh ? { fresh: true } : {}),
        ...(opts.primaryTerm !== undefined ? { primaryTerm: opts.primaryTerm } : {}),
      });
      for (const w of r.warnings ?? [])
        this.logger.warn({ index: meta.name, shard: c.shardId, ...w.fields }, w.msg);
      if (r.recovery?.existing) {
        this.logger.info(
          { index: meta.name, shard: c.shardId, ...r.recovery, ms: Date.now() - started },
          'recovered shard from its commit and translog',
        );
      }
      c.state = 'STARTED';
      c.reason = undefined;
    } catch (e) {
      if (!tolerateFailure) throw e;
      const reason = e instanceof ShoalError ? `${e.type}: ${e.reason}` : String(e);
      c.state = 'FAILED';
      c.reason = `shard failed to recover: ${reason}`;
      this.logger.error(
        { index: meta.name, shard: c.shardId, reason },
        'shard failed to recover; it is FAILED',
      );
    }
  }

  async close(uuid: string): Promise<void> {
    const copies = this.table.remove(uuid);
    await Promise.all(
      copies
        .filter((c) => c.worker && !c.remote)
        .map((c) => c.worker!.run({ t: 'close', key: c.key }).catch(() => {})),
    );
  }

  /** Flushes every started primary (a clean node stop). */
  async flushAll(): Promise<void> {
    await Promise.all(
      this.table
        .all()
        .filter((c) => !c.remote && c.state === 'STARTED' && c.worker)
        .map((c) => c.worker!.run({ t: 'flush', key: c.key, force: false })),
    );
  }

  /** A mapping, and the `index.mapping.*` settings it obeys, to every shard of the index. */
  async pushMapping(
    meta: IndexMetadata,
    json: Record<string, unknown>,
    settings: Readonly<FlatSettings>,
  ): Promise<void> {
    const ms = mappingSettings(settings);
    await Promise.all(
      this.table
        .local(meta.uuid)
        .map((c) => c.worker!.run({ t: 'mapping', key: c.key, mapping: json, mappingSettings: ms })),
    );
  }

  /**
   * The settings that changed between `prev` and `next` (the keys in `changed`), to the shards:
   * the mapping again when a mapping setting changed, the translog settings, the refresh
   * interval, the number of replica entries.
   */
  async settingsChanged(
    prev: IndexMetadata,
    next: IndexMetadata,
    changed: readonly string[],
    /** In a cluster of several nodes the routing table has the replicas, not this table. */
    replicaEntries = true,
  ): Promise<void> {
    const settings = next.settings;
    if (changed.some(isMappingSetting)) await this.pushMapping(prev, next.mapping.toJSON(), settings);
    if (changed.some((k) => k.startsWith('index.translog.'))) {
      const translog = translogSettings(settings);
      await Promise.all(
        this.table
          .local(prev.uuid)
          .filter((c) => c.state === 'STARTED')
          .map((c) => c.worker!.run({ t: 'translog_settings', key: c.key, translog })),
      );
    }
    if (changed.includes('index.refresh_interval')) {
      const ms = getTimeMs(settings, 'index.refresh_interval');
      await Promise.all(
        this.table
          .local(prev.uuid)
          .map((c) => c.worker!.run({ t: 'refresh_interval', key: c.key, refreshIntervalMs: ms })),
      );
    }
    if (
      replicaEntries &&
      settings['index.number_of_replicas'] !== prev.settings['index.number_of_replicas']
    ) {
      this.table.setReplicas(prev.uuid, getInt(settings, 'index.number_of_replicas'));
    }
  }
}

/** `index.translog.*` as the shard worker takes them. */
export function translogSettings(settings: Readonly<FlatSettings>): TranslogSettings {
  return {
    durability:
      getString(settings, 'index.translog.durability').toLowerCase() === 'async' ? 'async' : 'request',
    syncIntervalMs: getTimeMs(settings, 'index.translog.sync_interval'),
    flushThresholdBytes: getBytes(settings, 'index.translog.flush_threshold_size'),
  };
}

/** The setting keys whose values differ between two flat settings maps. */
export function changedSettingKeys(a: Readonly<FlatSettings>, b: Readonly<FlatSettings>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]);
}
