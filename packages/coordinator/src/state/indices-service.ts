/**
 * The index metadata of the cluster and the changes to it: create, delete, mappings, settings
 * and aliases. Each change is validated whole before anything is applied (no half-applied
 * change), serialised per index, and pushed to the shard workers that hold the index.
 */
import { randomUUID } from 'node:crypto';
import {
  createIndexMapping,
  type IndexMapping,
  isMappingSetting,
  mappingSettings,
  restoreIndexMapping,
} from '@shoal/engine';
import {
  defaultRoutingNumShards,
  type FlatSettings,
  getBytes,
  getInt,
  getString,
  getTimeMs,
  newIndexChecks,
  normalizeSettings,
  resourceAlreadyExists,
  ShoalError,
  updatableCheck,
  validateIndexName,
  validateSettings,
} from '@shoal/protocol';
import type { TranslogSettings } from '@shoal/shard';
import type { Logger } from 'pino';
import type { ShardCopy, ShardTable } from '../shards/shard-table.ts';
import { parseCreateAliases } from './alias-specs.ts';
import { validateAlias } from './alias-validation.ts';
import { withAutoExpandedReplicas } from './auto-expand-replicas.ts';
import { DataStreams } from './data-streams.ts';
import { partitionSize } from './document-routing.ts';
import { checkBlocks, checkMetadataBlock } from './index-blocks.ts';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';
import { IndexTemplates, withTemplates } from './index-templates.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import type { MetadataStore } from './metadata-store.ts';
import {
  checkNewMapping,
  checkRoutingPartition,
  defaultTierPreference,
  partitionNeedsRouting,
} from './new-index-checks.ts';
import { type IndicesOptions, type ReachedNames, resolveIndices } from './resolve-indices.ts';
import { applyChanges, withoutExisting, withoutNulls } from './settings-changes.ts';

const CREATE_INDEX_KEYS = new Set(['settings', 'mappings', 'aliases']);

export interface CreateIndexBody {
  settings?: unknown;
  mappings?: unknown;
  aliases?: unknown;
}

function base64UrlUuid(): string {
  return Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url').slice(0, 22);
}

export class IndicesService {
  private readonly indices = new Map<string, IndexMetadata>();
  private readonly mutex = new KeyedMutex();
  /** Index templates, applied to every index created (index-templates.ts). */
  readonly templates: IndexTemplates;
  /** Data streams over hidden backing indices (data-streams.ts). */
  readonly dataStreams: DataStreams;

  constructor(
    private readonly shards: ShardTable,
    private readonly logger: Logger,
    /** Where index metadata and shard files live; absent: memory only. */
    private readonly store?: MetadataStore,
  ) {
    this.templates = new IndexTemplates(store);
    this.dataStreams = new DataStreams(this, store);
    for (const w of shards.workers) {
      // A dead worker thread's shard copies are recovered from disk on its replacement.
      w.onShardsFailed((keys) => {
        if (this.store) void this.recoverFailed(keys);
      });
    }
  }

  /**
   * Start-up: every index on disk comes back with its settings, mappings and aliases, and each
   * of its shards is recovered from its last commit and translog. A shard that cannot be
   * recovered (a corrupt file) is FAILED with the reason, and never serves anything.
   */
  async load(): Promise<void> {
    if (!this.store) return;
    const { metas, removed } = this.store.loadIndices();
    for (const uuid of removed) this.logger.warn({ uuid }, 'removed an index folder that has no metadata');
    for (const meta of metas) {
      this.indices.set(meta.name, meta);
      const copies = this.shards.allocate(
        meta.name,
        meta.uuid,
        meta.numberOfShards,
        getInt(meta.settings, 'index.number_of_replicas'),
      );
      await Promise.all(copies.filter((c) => c.primary).map((c) => this.openShard(c, meta, true)));
    }
  }

  /** Opens (creating or recovering) one primary on its worker; failures mark it FAILED. */
  private async openShard(c: ShardCopy, meta: IndexMetadata, tolerateFailure: boolean): Promise<void> {
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

  /** Flushes every started primary (a clean node stop). */
  async flushAll(): Promise<void> {
    await Promise.all(
      this.shards
        .all()
        .filter((c) => c.primary && c.state === 'STARTED' && c.worker)
        .map((c) => c.worker!.run({ t: 'flush', key: c.key, force: false })),
    );
  }

  /** Re-opens, on the worker's replacement thread, the shard copies a dead thread held. */
  private async recoverFailed(keys: string[]): Promise<void> {
    for (const key of keys) {
      const copy = this.shards.all().find((c) => c.key === key && c.primary);
      if (!copy) continue;
      const meta = [...this.indices.values()].find((m) => m.uuid === copy.indexUuid);
      if (!meta) continue;
      await this.mutex.run(meta.name, async () => {
        this.shards.reassign(copy);
        copy.state = 'INITIALIZING';
        await this.openShard(copy, meta, true);
        if ((copy.state as string) === 'STARTED') {
          this.logger.info(
            { index: meta.name, shard: copy.shardId },
            'shard recovered from disk after its worker died',
          );
        }
      });
    }
  }

  all(): ReadonlyMap<string, IndexMetadata> {
    return this.indices;
  }

  get(name: string): IndexMetadata | undefined {
    return this.indices.get(name);
  }

  resolve(expression: string | undefined, opts: IndicesOptions, reached?: ReachedNames): IndexMetadata[] {
    return resolveIndices(expression, this.indices, opts, reached);
  }

  /** The indices an alias points to. */
  aliasTargets(alias: string): IndexMetadata[] {
    return [...this.indices.values()].filter((m) => m.aliases.has(alias));
  }

  /**
   * Creates an index; the deprecation warnings its settings raise are added to `warnings`.
   * `autoCreate`: a write creates the index (its templates may ask for a data stream).
   */
  async create(
    name: string,
    requested: CreateIndexBody | undefined,
    warnings: string[] = [],
    autoCreate = false,
  ): Promise<IndexMetadata> {
    return this.mutex.run('__create__', async () => {
      validateIndexName(name);
      const body = withTemplates(this.templates, name, requested, autoCreate);
      const existing = this.indices.get(name);
      if (existing) throw resourceAlreadyExists(name, existing.uuid);
      if (this.aliasTargets(name).length > 0) {
        throw new ShoalError(
          'invalid_index_name_exception',
          `Invalid index name [${name}], already exists as alias`,
          400,
          {
            index_uuid: '_na_',
            index: name,
          },
        );
      }
      for (const key of Object.keys(body ?? {})) {
        if (!CREATE_INDEX_KEYS.has(key)) {
          throw new ShoalError('parse_exception', `unknown key [${key}] for create index`, 400);
        }
      }
      const given = normalizeSettings(body?.settings ?? {}, 'index');
      const settingWarnings = validateSettings(given, 'index');
      const uuid = base64UrlUuid();
      const creationDate = Date.now();
      const settings: FlatSettings = withAutoExpandedReplicas({
        'index.number_of_shards': '1',
        'index.number_of_replicas': '1',
        ...defaultTierPreference(given),
        ...withoutNulls(given),
        'index.uuid': uuid,
        'index.creation_date': String(creationDate),
        'index.provided_name': name,
        'index.version.created': '8170000',
      });
      const numberOfShards = getInt(settings, 'index.number_of_shards');
      const routingNumShards = settings['index.number_of_routing_shards']
        ? getInt(settings, 'index.number_of_routing_shards')
        : defaultRoutingNumShards(numberOfShards);
      if (routingNumShards % numberOfShards !== 0) {
        throw new ShoalError(
          'illegal_argument_exception',
          `the number of source shards [${numberOfShards}] must be a factor of [${routingNumShards}]`,
          400,
        );
      }
      checkRoutingPartition(settings, routingNumShards, { name, uuid });
      settingWarnings.push(...newIndexChecks(settings));
      const mapping = createIndexMapping((body?.mappings as Record<string, unknown>) ?? {}, {
        indexName: name,
        ...mappingSettings(settings),
      });
      const mappingGiven = Object.keys((body?.mappings as object | undefined) ?? {}).length > 0;
      checkNewMapping(name, settings, mapping, mappingGiven);
      const aliases = parseCreateAliases(body?.aliases, this.indices);
      const meta: IndexMetadata = {
        name,
        uuid,
        creationDate,
        settings,
        mapping,
        aliases,
        numberOfShards,
        routingNumShards,
        state: 'open',
        mappingVersion: 1,
        settingsVersion: 1,
        aliasesVersion: 1,
      };
      for (const [alias, a] of aliases) validateAlias(alias, a, meta);
      const copies = this.shards.allocate(
        name,
        uuid,
        numberOfShards,
        getInt(settings, 'index.number_of_replicas'),
      );
      try {
        await Promise.all(copies.filter((c) => c.primary).map((c) => this.openShard(c, meta, false)));
        this.store?.saveIndex(meta);
      } catch (e) {
        await this.closeShards(uuid);
        this.store?.deleteIndex(uuid);
        throw e;
      }
      this.indices.set(name, meta);
      warnings.push(...settingWarnings);
      this.logger.info({ index: name, uuid, shards: numberOfShards }, 'created index');
      return meta;
    });
  }

  async delete(meta: IndexMetadata): Promise<void> {
    await this.mutex.run(meta.name, async () => {
      this.indices.delete(meta.name);
      await this.closeShards(meta.uuid);
      this.store?.deleteIndex(meta.uuid);
      this.logger.info({ index: meta.name, uuid: meta.uuid }, 'deleted index');
    });
  }

  /**
   * `_close` / `_open`: the index's state in its metadata. A closed index refuses reads and
   * writes (index-blocks.ts) and is left out of wildcards; its shards stay where they are, so
   * opening it again needs no recovery.
   */
  async setOpenState(targets: readonly IndexMetadata[], state: 'open' | 'close'): Promise<void> {
    for (const meta of targets) {
      await this.mutex.run(meta.name, async () => {
        const current = this.indices.get(meta.name);
        if (!current || current.state === state) return;
        if (state === 'close') {
          // Everything acknowledged is made durable before the index stops taking requests.
          await Promise.all(
            this.shards
              .primaries(current.uuid)
              .filter((c) => c.state === 'STARTED' && c.worker)
              .map((c) => c.worker!.run({ t: 'flush', key: c.key, force: false })),
          );
        }
        const next: IndexMetadata = { ...current, state };
        this.store?.saveIndex(next);
        this.indices.set(meta.name, next);
        this.logger.info(
          { index: meta.name, uuid: meta.uuid },
          state === 'close' ? 'closed index' : 'opened index',
        );
      });
    }
  }

  private async closeShards(uuid: string): Promise<void> {
    const copies = this.shards.remove(uuid);
    await Promise.all(
      copies
        .filter((c) => c.primary && c.worker)
        .map((c) => c.worker!.run({ t: 'close', key: c.key }).catch(() => {})),
    );
  }

  /** Merges a mapping update (PUT _mapping or dynamic) and pushes it to every shard of the index. */
  async mergeMapping(name: string, update: Record<string, unknown>): Promise<IndexMetadata> {
    return this.mutex.run(name, async () => {
      const meta = this.indices.get(name);
      if (!meta) throw new ShoalError('index_not_found_exception', `no such index [${name}]`, 404);
      // Dynamic mapping updates obey the metadata blocks too (MappingUpdatedAction).
      checkBlocks([meta], 'metadata_write');
      const merged: IndexMapping = meta.mapping.merge(update);
      if (partitionSize(meta) > 1 && !merged.routingRequired) throw partitionNeedsRouting(meta.name);
      const json = merged.toJSON();
      if (JSON.stringify(json) === JSON.stringify(meta.mapping.toJSON())) return meta;
      const next: IndexMetadata = { ...meta, mapping: merged, mappingVersion: meta.mappingVersion + 1 };
      await this.pushMapping(meta, json, meta.settings);
      // Durable before the write that needed it is retried and acknowledged.
      this.store?.saveIndex(next);
      this.indices.set(name, next);
      return next;
    });
  }

  /** A mapping, and the `index.mapping.*` settings it obeys, to every shard of the index. */
  private async pushMapping(
    meta: IndexMetadata,
    json: Record<string, unknown>,
    settings: Readonly<FlatSettings>,
  ): Promise<void> {
    const ms = mappingSettings(settings);
    await Promise.all(
      this.shards
        .primaries(meta.uuid)
        .filter((c) => c.worker)
        .map((c) => c.worker!.run({ t: 'mapping', key: c.key, mapping: json, mappingSettings: ms })),
    );
  }

  /**
   * Applies `PUT /{index}/_settings`: validated for every target before any is changed.
   * `preserveExisting` leaves settings an index already has; `reopen` lets static settings
   * change on an open index (as closing and reopening it would). Returns the warnings.
   */
  async updateSettings(
    targets: IndexMetadata[],
    body: unknown,
    opts: { preserveExisting?: boolean; reopen?: boolean } = {},
  ): Promise<string[]> {
    const requested = normalizeSettings(body ?? {}, 'index');
    for (const meta of targets) checkMetadataBlock(meta, requested);
    const warnings = validateSettings(requested, 'index');
    const changesFor = (meta: IndexMetadata) =>
      opts.preserveExisting ? withoutExisting(requested, meta.settings) : requested;
    for (const meta of targets) {
      const changes = changesFor(meta);
      updatableCheck(changes, { open: meta.state === 'open', index: meta.name, uuid: meta.uuid }, opts);
      validateSettings(changes, 'index', meta.settings);
    }
    for (const meta of targets) {
      await this.mutex.run(meta.name, async () => {
        const current = this.indices.get(meta.name);
        if (!current) return;
        const changes = changesFor(current);
        const settings = withAutoExpandedReplicas(applyChanges(current.settings, changes));
        const mappingChanged = Object.keys(changes).some(isMappingSetting);
        const mapping = mappingChanged
          ? restoreIndexMapping(current.mapping.toJSON(), {
              indexName: current.name,
              ...mappingSettings(settings),
            })
          : current.mapping;
        const next: IndexMetadata = {
          ...current,
          settings,
          mapping,
          settingsVersion: current.settingsVersion + 1,
        };
        this.store?.saveIndex(next);
        this.indices.set(meta.name, next);
        if (mappingChanged) await this.pushMapping(meta, mapping.toJSON(), settings);
        if (Object.keys(changes).some((k) => k.startsWith('index.translog.'))) {
          const translog = translogSettings(settings);
          await Promise.all(
            this.shards
              .primaries(meta.uuid)
              .filter((c) => c.worker && c.state === 'STARTED')
              .map((c) => c.worker!.run({ t: 'translog_settings', key: c.key, translog })),
          );
        }
        if ('index.refresh_interval' in changes) {
          const ms = getTimeMs(settings, 'index.refresh_interval');
          await Promise.all(
            this.shards
              .primaries(meta.uuid)
              .filter((c) => c.worker)
              .map((c) => c.worker!.run({ t: 'refresh_interval', key: c.key, refreshIntervalMs: ms })),
          );
        }
        if (settings['index.number_of_replicas'] !== current.settings['index.number_of_replicas']) {
          this.shards.setReplicas(meta.uuid, getInt(settings, 'index.number_of_replicas'));
        }
      });
    }
    return warnings;
  }

  /** Replaces the aliases of several indices at once (the `_aliases` API is atomic). */
  applyAliases(next: Map<string, Map<string, AliasMetadata>>): void {
    for (const [name, aliases] of next) {
      const meta = this.indices.get(name);
      if (!meta) continue;
      const next = { ...meta, aliases, aliasesVersion: meta.aliasesVersion + 1 };
      this.store?.saveIndex(next);
      this.indices.set(name, next);
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
