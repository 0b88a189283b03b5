/**
 * The index metadata of the cluster and the changes to it: create, delete, mappings, settings
 * and aliases. Each change is validated whole before anything is applied (no half-applied
 * change), serialised per index, and pushed to the shard workers that hold the index.
 *
 * On one node (`discovery.type: single-node`) the metadata is this node's own, kept under its
 * data path. In a multi-node cluster it is a view of the published cluster state: a change is
 * made on the master (forwarded there from any other node) and published, and every node
 * applies the indices of each state it applies (published-indices.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  type ClusterService,
  type ClusterState,
  LIST_SHARD_STORES_ACTION,
  type ShardStoreListing,
} from '@shoal/cluster';
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
  getInt,
  indexNotFound,
  newIndexChecks,
  normalizeSettings,
  resourceAlreadyExists,
  ShoalError,
  updatableCheck,
  validateIndexName,
  validateSettings,
} from '@shoal/protocol';
import type { Logger } from 'pino';
import { PeerRecovery } from '../replication/peer-recovery.ts';
import { WriteReplication } from '../replication/write-replication.ts';
import { serveShardTasks } from '../shards/remote-worker.ts';
import type { ShardTable } from '../shards/shard-table.ts';
import { parseCreateAliases } from './alias-specs.ts';
import { validateAlias } from './alias-validation.ts';
import { AppliedRouting } from './applied-routing.ts';
import { withAutoExpandedReplicas } from './auto-expand-replicas.ts';
import { DataStreams } from './data-streams.ts';
import { partitionSize } from './document-routing.ts';
import { checkBlocks, checkMetadataBlock } from './index-blocks.ts';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';
import { type IndexMetadataJson, indexMetadataFromJson } from './index-metadata-json.ts';
import { changedSettingKeys, IndexShards } from './index-shards.ts';
import { IndexTemplates, withTemplates } from './index-templates.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import type { MetadataStore } from './metadata-store.ts';
import {
  checkNewMapping,
  checkRoutingPartition,
  defaultTierPreference,
  partitionNeedsRouting,
} from './new-index-checks.ts';
import { type IndexPut, PublishedIndices, publishedIndices } from './published-indices.ts';
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

/** How long a request waits for a primary the routing table shows started to be open here. */
const PRIMARY_OPEN_WAIT_MS = 30_000;

export class IndicesService {
  private readonly indices = new Map<string, IndexMetadata>();
  private readonly mutex = new KeyedMutex();
  /** Index templates, applied to every index created (index-templates.ts). */
  readonly templates: IndexTemplates;
  /** Data streams over hidden backing indices (data-streams.ts). */
  readonly dataStreams: DataStreams;
  private readonly shardOps: IndexShards;
  /** In a multi-node cluster: the published state this metadata is a view of. */
  private published: PublishedIndices | null = null;
  /** In a multi-node cluster: the routing table's copies, carried out on this node. */
  private routing: AppliedRouting | null = null;
  /** In a cluster of several nodes: writes go through their primary to its replicas. */
  replication: WriteReplication | null = null;
  /** The shard work of the states applied so far, in order. */
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private readonly shards: ShardTable,
    private readonly logger: Logger,
    /** Where index metadata and shard files live; absent: memory only. */
    private readonly store?: MetadataStore,
  ) {
    this.shardOps = new IndexShards(shards, logger, store);
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
    // In a cluster of several nodes the indices come from the cluster state, and the routing
    // table says which copies this node opens (from its disk when it has them).
    if (!this.store || this.published) return;
    const { metas, removed } = this.store.loadIndices();
    for (const uuid of removed) this.logger.warn({ uuid }, 'removed an index folder that has no metadata');
    for (const meta of metas) {
      this.indices.set(meta.name, meta);
      await this.shardOps.openAll(meta, true);
    }
  }

  /**
   * Makes this metadata a view of the cluster state `cluster` applies (a multi-node cluster):
   * changes go to the master, and each applied state's indices replace this node's.
   */
  followCluster(cluster: ClusterService): void {
    const published = new PublishedIndices(cluster);
    this.published = published;
    this.replication = new WriteReplication(cluster, this.shards, this.logger);
    const recovery = new PeerRecovery(cluster, this.shards, this.replication, this.logger);
    this.routing = new AppliedRouting(cluster, this.shards, this.shardOps, this.logger, recovery);
    serveShardTasks(cluster, this.shards);
    // The master asks which shards this node has on disk when it recovers the cluster after a full restart.
    cluster.handle(
      LIST_SHARD_STORES_ACTION,
      (): ShardStoreListing => ({ shards: this.store?.shardFolders() ?? [] }),
    );
    published.serve('create', (b: { name: string; body: CreateIndexBody | undefined; autoCreate: boolean }) =>
      this.createHere(b.name, b.body, b.autoCreate),
    );
    published.serve('delete', async (b: { name: string; uuid: string }) => {
      const meta = this.indices.get(b.name);
      if (!meta || meta.uuid !== b.uuid) throw indexNotFound(b.name);
      await this.deleteHere(meta);
      return null;
    });
    published.serve('mapping', async (b: { name: string; update: Record<string, unknown> }) => {
      await this.mergeMappingHere(b.name, b.update);
      return null;
    });
    published.serve(
      'settings',
      (b: { names: string[]; body: unknown; opts: { preserveExisting?: boolean; reopen?: boolean } }) =>
        this.updateSettingsHere(this.existing(b.names), b.body, b.opts),
    );
    published.serve('aliases', async (b: { next: [string, [string, AliasMetadata][]][] }) => {
      await this.applyAliasesHere(new Map(b.next.map(([name, a]) => [name, new Map(a)])));
      return null;
    });
    cluster.onApplied((state) => this.applyPublished(state));
  }

  /** The named indices that exist, in order (the others were deleted meanwhile). */
  private existing(names: readonly string[]): IndexMetadata[] {
    return names.map((n) => this.indices.get(n)).filter((m): m is IndexMetadata => m !== undefined);
  }

  /** Forwards a change to the master; resolves once this node has applied it, with the master's answer. */
  private async onMaster<T>(op: string, body: unknown): Promise<T> {
    const r = await this.published!.forward<T>(op, body);
    // Answered as of the master's state: this node applies that state before it answers too
    // (an index that already exists is there, with its shards, when the caller looks).
    if (r.error) {
      await this.settled(r.version).catch(() => {});
      throw r.error;
    }
    await this.settled(r.version);
    return r.value as T;
  }

  /** Waits until this node has applied the state of `version` and opened or closed the shards it asks. */
  private async settled(version: number): Promise<void> {
    await this.published!.applied(version);
    await this.applying;
  }

  /** True when a change must go to the master (this node is one of several, and not the master). */
  private get remote(): boolean {
    return this.published !== null && !this.published.isMaster();
  }

  /**
   * Applies the indices of a published state: new ones are taken in, changed ones pushed to
   * this node's copies, gone ones closed and deleted; then the routing table says which
   * copies this node opens or closes. The maps change at once; the shard work runs after that
   * of the previous states.
   */
  private applyPublished(state: ClusterState): void {
    const published = publishedIndices(state);
    const work: (() => Promise<void>)[] = [];
    for (const [name, json] of Object.entries(published)) {
      const had = this.indices.get(name);
      if (had && sameIndexVersion(had, json)) continue;
      const meta = indexMetadataFromJson(json, 'the cluster state');
      this.indices.set(name, meta);
      this.store?.saveIndex(meta);
      if (had && had.uuid === meta.uuid) {
        const changed = changedSettingKeys(had.settings, meta.settings);
        const mappingChanged = had.mappingVersion !== meta.mappingVersion;
        work.push(async () => {
          if (mappingChanged) await this.shardOps.pushMapping(meta, meta.mapping.toJSON(), meta.settings);
          await this.shardOps.settingsChanged(had, meta, changed, false);
        });
        continue;
      }
      if (had) work.push(() => this.dropPublished(had));
      this.logger.info({ index: name, uuid: meta.uuid }, 'applied a new index from the cluster state');
    }
    for (const [name, meta] of [...this.indices]) {
      if (name in published) continue;
      this.indices.delete(name);
      work.push(() => this.dropPublished(meta));
    }
    work.push(...this.routing!.apply(state, (name) => this.indices.get(name)));
    if (work.length === 0) return;
    this.applying = this.applying.then(async () => {
      for (const w of work) {
        await w().catch((err: unknown) =>
          this.logger.error({ err }, 'applying the indices of the cluster state failed'),
        );
      }
    });
  }

  /** An index gone from the cluster state: its copies here closed, its folder removed. */
  private async dropPublished(meta: IndexMetadata): Promise<void> {
    this.routing?.forget(meta.uuid);
    await this.dropShards(meta, true);
  }

  /** Closes an index's shards here; `deleteFiles`: and removes its folder. */
  private async dropShards(meta: IndexMetadata, deleteFiles: boolean): Promise<void> {
    await this.shardOps.close(meta.uuid);
    if (deleteFiles) {
      this.store?.deleteIndex(meta.uuid);
      this.logger.info({ index: meta.name, uuid: meta.uuid }, 'deleted index');
    }
  }

  /** Flushes every started primary (a clean node stop). */
  flushAll(): Promise<void> {
    return this.shardOps.flushAll();
  }

  /** Re-opens, on the worker's replacement thread, the shard copies a dead thread held. */
  private async recoverFailed(keys: string[]): Promise<void> {
    for (const key of keys) {
      const copy = this.shards
        .all()
        .find((c) => c.key === key && !c.remote && (c.primary || c.node !== undefined));
      if (!copy) continue;
      const meta = [...this.indices.values()].find((m) => m.uuid === copy.indexUuid);
      if (!meta) continue;
      await this.mutex.run(meta.name, async () => {
        this.shards.reassign(copy);
        copy.state = 'INITIALIZING';
        await this.shardOps.open(copy, meta, true);
        if ((copy.state as string) === 'STARTED') {
          this.logger.info(
            { index: meta.name, shard: copy.shardId },
            'shard recovered from disk after its worker died',
          );
        }
      });
    }
  }

  /**
   * Resolves once every primary of the index is active, or the master timeout passed (in a
   * cluster of several nodes a primary may be opening on another node; on one node an index's
   * primaries are open once it exists).
   */
  async primariesActive(name: string): Promise<void> {
    const meta = this.indices.get(name);
    if (!this.published || !meta) return;
    await this.published.primariesActive(name, meta.uuid);
    // This node's table may show a primary as not serving yet though the routing table has it
    // started (a copy being reopened after its worker thread died): wait until each can serve.
    const deadline = Date.now() + PRIMARY_OPEN_WAIT_MS;
    const serving = () =>
      Array.from({ length: meta.numberOfShards }, (_, i) => this.shards.primary(meta.uuid, i)).every(
        (c) => c?.state === 'STARTED' && c.worker !== undefined,
      );
    while (!serving() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
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

  async create(
    name: string,
    requested: CreateIndexBody | undefined,
    warnings: string[] = [],
    autoCreate = false,
  ): Promise<IndexMetadata> {
    if (this.remote) {
      const w = await this.onMaster<string[]>('create', { name, body: requested, autoCreate });
      warnings.push(...w);
      const meta = this.indices.get(name);
      if (!meta) throw indexNotFound(name);
      return meta;
    }
    const w: string[] = [];
    const meta = await this.createIndex(name, requested, w, autoCreate);
    warnings.push(...w);
    return meta;
  }

  private async createHere(
    name: string,
    requested: CreateIndexBody | undefined,
    autoCreate: boolean,
  ): Promise<string[]> {
    const warnings: string[] = [];
    await this.createIndex(name, requested, warnings, autoCreate);
    return warnings;
  }

  private createIndex(
    name: string,
    requested: CreateIndexBody | undefined,
    warnings: string[],
    autoCreate: boolean,
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
      if (this.published) {
        // Published; every node (this one too) places and opens its shards as it applies the state.
        await this.settled(await this.published.commit(`create-index [${name}]`, [{ meta, base: null }]));
        // As wait_for_active_shards (1) does: the answer waits for the primaries to start.
        await this.published.primariesActive(name, uuid);
      } else {
        try {
          await this.shardOps.openAll(meta, false);
          this.store?.saveIndex(meta);
        } catch (e) {
          await this.shardOps.close(uuid);
          this.store?.deleteIndex(uuid);
          throw e;
        }
        this.indices.set(name, meta);
      }
      warnings.push(...settingWarnings);
      this.logger.info({ index: name, uuid, shards: numberOfShards }, 'created index');
      return meta;
    });
  }

  async delete(meta: IndexMetadata): Promise<void> {
    if (this.remote) {
      await this.onMaster('delete', { name: meta.name, uuid: meta.uuid });
      return;
    }
    await this.deleteHere(meta);
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
        if (this.published) {
          await this.settled(
            await this.published.commit(`${state}-index [${meta.name}]`, [{ meta: next, base: current }]),
          );
          return;
        }
        this.store?.saveIndex(next);
        this.indices.set(meta.name, next);
        this.logger.info(
          { index: meta.name, uuid: meta.uuid },
          state === 'close' ? 'closed index' : 'opened index',
        );
      });
    }
  }

  private async deleteHere(meta: IndexMetadata): Promise<void> {
    await this.mutex.run(meta.name, async () => {
      if (this.published) {
        await this.settled(await this.published.commit(`delete-index [${meta.name}]`, [], [meta]));
        return;
      }
      this.indices.delete(meta.name);
      await this.dropShards(meta, true);
    });
  }

  /** Merges a mapping update (PUT _mapping or dynamic) and pushes it to every shard of the index. */
  async mergeMapping(name: string, update: Record<string, unknown>): Promise<IndexMetadata> {
    if (this.remote) {
      await this.onMaster('mapping', { name, update });
      const meta = this.indices.get(name);
      if (!meta) throw indexNotFound(name);
      return meta;
    }
    return this.mergeMappingHere(name, update);
  }

  private mergeMappingHere(name: string, update: Record<string, unknown>): Promise<IndexMetadata> {
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
      if (this.published) {
        await this.settled(
          await this.published.commit(`put-mapping [${name}]`, [{ meta: next, base: meta }]),
        );
        return this.indices.get(name) ?? next;
      }
      await this.shardOps.pushMapping(meta, json, meta.settings);
      // Durable before the write that needed it is retried and acknowledged.
      this.store?.saveIndex(next);
      this.indices.set(name, next);
      return next;
    });
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
    if (this.remote) return this.onMaster('settings', { names: targets.map((t) => t.name), body, opts });
    return this.updateSettingsHere(targets, body, opts);
  }

  private async updateSettingsHere(
    targets: IndexMetadata[],
    body: unknown,
    opts: { preserveExisting?: boolean; reopen?: boolean },
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
    const puts: IndexPut[] = [];
    const change = async (meta: IndexMetadata) => {
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
      if (this.published) {
        puts.push({ meta: next, base: current });
        return;
      }
      this.store?.saveIndex(next);
      this.indices.set(meta.name, next);
      await this.shardOps.settingsChanged(meta, next, Object.keys(changes));
    };
    if (!this.published) {
      for (const meta of targets) await this.mutex.run(meta.name, () => change(meta));
      return warnings;
    }
    // Published together: every target changes, or none does. Each index stays locked from the
    // read of its metadata to the commit, so that a mapping update made meanwhile (a document
    // with a new field) is not refused as a concurrent change; locked in name order.
    const names = [...new Set(targets.map((m) => m.name))].sort();
    const locked = async (i: number): Promise<void> => {
      if (i < names.length) return this.mutex.run(names[i]!, () => locked(i + 1));
      for (const meta of targets) await change(meta);
      if (puts.length === 0) return;
      const changed = puts.map((p) => p.meta.name).join(',');
      await this.settled(await this.published!.commit(`update-settings [${changed}]`, puts));
    };
    await locked(0);
    return warnings;
  }

  /** Replaces the aliases of several indices at once (the `_aliases` API is atomic). */
  async applyAliases(next: Map<string, Map<string, AliasMetadata>>): Promise<void> {
    if (this.remote) {
      await this.onMaster('aliases', { next: [...next].map(([name, a]) => [name, [...a]]) });
      return;
    }
    await this.applyAliasesHere(next);
  }

  private async applyAliasesHere(next: Map<string, Map<string, AliasMetadata>>): Promise<void> {
    const puts: IndexPut[] = [];
    for (const [name, aliases] of next) {
      const meta = this.indices.get(name);
      if (!meta) continue;
      const updated = { ...meta, aliases, aliasesVersion: meta.aliasesVersion + 1 };
      if (this.published) puts.push({ meta: updated, base: meta });
      else {
        this.store?.saveIndex(updated);
        this.indices.set(name, updated);
      }
    }
    if (this.published && puts.length > 0) {
      await this.settled(await this.published.commit('index-aliases', puts));
    }
  }
}

function sameIndexVersion(m: IndexMetadata, j: IndexMetadataJson): boolean {
  return (
    m.uuid === j.uuid &&
    m.mappingVersion === j.mappingVersion &&
    m.settingsVersion === j.settingsVersion &&
    m.aliasesVersion === j.aliasesVersion
  );
}
