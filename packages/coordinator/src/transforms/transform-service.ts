/**
 * The transforms of a node: their configurations in the internal index, the ones started on
 * this node as tasks, and every transform API's work — put, get, stats, start, stop, update,
 * reset, schedule now, delete, upgrade — with Elasticsearch's checks and errors. A node that
 * starts again resumes the transforms that were started on it.
 */
import {
  actionRequestValidation,
  resourceAlreadyExistsFor,
  resourceNotFound,
  type ShoalError,
  simpleMatch,
  statusException,
  timeoutException,
} from '@shoal/protocol';
import type { Authentication } from '@shoal/security';
import type { InternalClient } from '../security/internal-client.ts';
import type { NodeServices } from '../services.ts';
import { destExists, ensureDestIndex } from './dest-index.ts';
import { checkPipeline, validateSourceDest } from './source-dest-validation.ts';
import { BodyReader } from './strict-body.ts';
import {
  configJson,
  parseTransformConfig,
  type TransformConfig,
  validateTransformId,
} from './transform-config.ts';
import {
  checkTransformPrivileges,
  type StoredAuthorization,
  storedAuthorization,
} from './transform-privileges.ts';
import { type IndexerStats, statsFrom, type TransformRunState } from './transform-stats.ts';
import { TransformStore } from './transform-store.ts';
import { TransformTask } from './transform-task.ts';
import { mergeUpdate } from './transform-update.ts';
import { validateWithSearch } from './transform-validation.ts';

export const notFound = (id: string): ShoalError =>
  resourceNotFound(`Transform with id [${id}] could not be found`);

export interface LoadedTransform {
  config: TransformConfig;
  who?: StoredAuthorization;
}

function isPattern(id: string): boolean {
  return id === '_all' || id === '*' || id.includes('*');
}

export class TransformService {
  readonly store: TransformStore;
  private readonly tasks = new Map<string, TransformTask>();
  private readonly starting = new Set<string>();

  constructor(
    readonly s: NodeServices,
    readonly client: InternalClient<NodeServices>,
  ) {
    this.store = new TransformStore(client, s);
  }

  /** Reads a stored configuration back (its own stored form, so no deprecation is raised again). */
  private revive(id: string, stored: Record<string, unknown>): TransformConfig {
    const { version, create_time, ...rest } = stored;
    const config = parseTransformConfig(new BodyReader(''), id, rest, [], { now: Number(create_time) });
    config.version = String(version);
    return config;
  }

  async load(id: string): Promise<LoadedTransform> {
    const stored = await this.store.getConfig(id);
    if (!stored) throw notFound(id);
    const out: LoadedTransform = { config: this.revive(id, stored.config) };
    if (stored.authorization) out.who = stored.authorization;
    return out;
  }

  /** The ids an expression names (`a,b*`, `_all`, `*`), sorted; exact ids that do not exist are 404s. */
  async expand(expression: string, allowNoMatch: boolean): Promise<string[]> {
    const all = await this.store.ids();
    const parts = expression === '' ? ['_all'] : expression.split(',').filter((p) => p !== '');
    const out = new Set<string>();
    for (const p of parts) {
      if (!isPattern(p)) {
        if (!all.includes(p)) throw notFound(p);
        out.add(p);
        continue;
      }
      const matched = p === '_all' ? all : all.filter((id) => simpleMatch(p, id));
      if (matched.length === 0 && !allowNoMatch) throw notFound(expression);
      for (const id of matched) out.add(id);
    }
    return [...out].sort();
  }

  /** Checks against the cluster what `defer_validation` defers (SourceDestValidator and a test search). */
  async validate(config: TransformConfig, forPreview: boolean): Promise<void> {
    validateSourceDest(this.s, config, forPreview);
    checkPipeline(config);
    await validateWithSearch(this, config);
  }

  async put(
    id: string,
    body: Buffer | undefined,
    json: unknown,
    auth: Authentication | undefined,
    deferValidation: boolean,
    warnings: string[],
  ): Promise<void> {
    validateTransformId(id);
    const config = parseTransformConfig(BodyReader.of(body), id, json, warnings, { now: Date.now() });
    const who = storedAuthorization(auth);
    await checkTransformPrivileges(this.s, 'create', config, who, true);
    if (await this.store.getConfig(id)) {
      throw resourceAlreadyExistsFor(`Transform with id [${id}] already exists`);
    }
    if (!deferValidation) await this.validate(config, false);
    const stored = { config: configJson(config), ...(who ? { authorization: who } : {}) };
    if (!(await this.store.createConfig(id, stored))) {
      throw resourceAlreadyExistsFor(`Transform with id [${id}] already exists`);
    }
    void this.store.audit(id, 'info', 'Created transform.');
  }

  running(id: string): TransformTask | undefined {
    return this.tasks.get(id);
  }

  async runState(id: string): Promise<{ state: TransformRunState; stats: IndexerStats }> {
    const task = this.tasks.get(id);
    if (task) return { state: task.state, stats: task.stats };
    const doc = await this.store.getState(id);
    const state = (doc?.state as TransformRunState | undefined) ?? { task_state: 'stopped', checkpoint: 0 };
    return { state, stats: statsFrom(doc?.stats) };
  }

  /** `_start`; two starts of one transform at once: the second is refused as already started. */
  async start(id: string, from: number | undefined): Promise<void> {
    if (this.starting.has(id))
      throw statusException(`Cannot start transform [${id}] as it is already started.`, 409);
    this.starting.add(id);
    try {
      await this.startOnce(id, from);
    } finally {
      this.starting.delete(id);
    }
  }

  private async startOnce(id: string, from: number | undefined): Promise<void> {
    const { config, who } = await this.load(id);
    if (from !== undefined && !config.sync) {
      throw statusException(
        '[from] parameter is currently not supported for batch (non-continuous) transforms',
        400,
      );
    }
    const existing = this.tasks.get(id);
    if (existing?.status === 'failed') {
      throw statusException(
        `Unable to start transform [${id}] as it is in a failed state with failure: [${existing.state.reason ?? ''}]. Use force stop and then restart the transform once error is resolved.`,
        409,
      );
    }
    if (existing) {
      throw statusException(`Cannot start transform [${id}] as it is already started.`, 409);
    }
    await checkTransformPrivileges(this.s, 'start', config, who, true);
    // Unattended: nothing is checked at start; the first checkpoints retry until they can run.
    if (config.settings.unattended !== true) {
      await this.validate(config, false);
      await ensureDest(this, config);
    }
    const { state, stats } = await this.runState(id);
    state.task_state = 'started';
    state.node_id = this.s.node.id;
    delete state.reason;
    if (from !== undefined && state.checkpoint === 0 && config.sync) {
      state.last = { timestamp_millis: from, time_upper_bound_millis: from };
    }
    const task = this.newTask(config, who, state, stats);
    await task.persist();
    void this.store.audit(id, 'info', 'Started transform.');
    task.trigger();
  }

  private newTask(
    config: TransformConfig,
    who: StoredAuthorization | undefined,
    state: TransformRunState,
    stats: IndexerStats,
  ): TransformTask {
    const task = new TransformTask(
      {
        s: this.s,
        client: this.client,
        store: this.store,
        ended: (t) => {
          if (this.tasks.get(t.id) === t) this.tasks.delete(t.id);
        },
      },
      config,
      who,
      state,
      stats,
    );
    this.tasks.set(config.id, task);
    return task;
  }

  async stop(
    expression: string,
    opts: {
      allowNoMatch: boolean;
      force: boolean;
      waitForCompletion: boolean;
      waitForCheckpoint: boolean;
      timeoutMs: number;
    },
  ): Promise<void> {
    if (opts.force && opts.waitForCheckpoint) {
      throw actionRequestValidation(['cannot set both [force] and [wait_for_checkpoint] to true']);
    }
    const ids = await this.expand(expression, opts.allowNoMatch);
    const tasks = ids.map((id) => this.tasks.get(id)).filter((t): t is TransformTask => t !== undefined);
    const failed = tasks.filter((t) => t.status === 'failed');
    if (failed.length > 0 && !opts.force) {
      const t = failed[0]!;
      throw statusException(
        `Unable to stop transform [${t.id}] as it is in a failed state with reason [${t.state.reason ?? ''}]. Use force stop to stop the transform.`,
        409,
      );
    }
    const stopped = Promise.all(
      tasks.map((t) => t.stop({ force: opts.force, waitForCheckpoint: opts.waitForCheckpoint })),
    );
    if (!opts.waitForCompletion) {
      void stopped.catch(() => undefined);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), opts.timeoutMs)));
    const outcome = await Promise.race([stopped, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      const left = tasks.filter((t) => this.tasks.get(t.id) === t).map((t) => t.id);
      throw timeoutException(
        `Timed out after [${opts.timeoutMs}ms] while waiting for transform [${left.join(', ')}] to stop`,
      );
    }
  }

  async delete(id: string, force: boolean, deleteDestIndex: boolean): Promise<void> {
    const { config } = await this.load(id);
    const task = this.tasks.get(id);
    if (task && !force) {
      throw statusException(
        `Cannot delete transform [${id}] as the task is running. Stop the task first`,
        409,
      );
    }
    if (task) await task.stop({ force: true, waitForCheckpoint: false });
    if (deleteDestIndex && destExists(this.s, config.dest.index)) {
      const meta = this.s.indices.get(config.dest.index);
      if (meta) await this.s.indices.delete(meta);
    }
    await this.store.deleteAll(id);
  }

  async update(
    id: string,
    body: Buffer | undefined,
    json: unknown,
    auth: Authentication | undefined,
    deferValidation: boolean,
    warnings: string[],
  ): Promise<TransformConfig> {
    const { config: old } = await this.load(id);
    const merged = mergeUpdate(old, json, BodyReader.of(body), warnings);
    const who = storedAuthorization(auth);
    await checkTransformPrivileges(this.s, 'update', merged, who, true);
    if (!deferValidation) await this.validate(merged, false);
    const stored = { config: configJson(merged), ...(who ? { authorization: who } : {}) };
    await this.store.updateConfig(id, stored);
    const task = this.tasks.get(id);
    if (task) {
      task.config = merged;
      task.who = who;
    }
    void this.store.audit(id, 'info', 'Updated transform.');
    return merged;
  }

  async reset(id: string, force: boolean): Promise<void> {
    const { config } = await this.load(id);
    const task = this.tasks.get(id);
    if (task && !force) {
      throw statusException(
        `Cannot reset transform [${id}] as the task is running. Stop the task first`,
        409,
      );
    }
    if (task) await task.stop({ force: true, waitForCheckpoint: false });
    const meta = this.s.indices.get(config.dest.index);
    if (meta) await this.s.indices.delete(meta);
    await this.store.resetState(id);
    void this.store.audit(id, 'info', 'Reset transform.');
  }

  async scheduleNow(id: string): Promise<void> {
    await this.load(id);
    const task = this.tasks.get(id);
    if (!task) throw statusException(`Cannot schedule transform [${id}] as it is not started.`, 409);
    task.trigger();
  }

  /** `_upgrade`: every stored configuration is already in the current format. */
  async upgrade(): Promise<{ needs_update: number; updated: number; no_action: number }> {
    const ids = await this.store.ids();
    return { needs_update: 0, updated: 0, no_action: ids.length };
  }

  /** At node start: the transforms started on this node run again; failed ones stay failed. */
  async resume(): Promise<number> {
    let resumed = 0;
    for (const id of await this.store.ids()) {
      const doc = await this.store.getState(id);
      const state = doc?.state as TransformRunState | undefined;
      if (!state || state.task_state === 'stopped' || this.tasks.has(id)) continue;
      if (state.node_id !== undefined && state.node_id !== this.s.node.id) continue;
      const { config, who } = await this.load(id);
      const task = this.newTask(config, who, state, statsFrom(doc?.stats));
      if (state.task_state === 'started') {
        task.trigger();
        resumed++;
      }
    }
    return resumed;
  }

  /** The node stops: running transforms halt and stay started. */
  async close(): Promise<void> {
    await Promise.all([...this.tasks.values()].map((t) => t.close()));
    this.tasks.clear();
  }
}

async function ensureDest(service: TransformService, config: TransformConfig): Promise<void> {
  if (await ensureDestIndex(service.s, service.client, config)) {
    void service.store.audit(config.id, 'info', `Created destination index [${config.dest.index}].`);
  }
}
