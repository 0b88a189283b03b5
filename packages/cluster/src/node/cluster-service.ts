/**
 * Coordination in a node process: the Coordinator driven by the real clock and the TCP
 * transport, its state persisted before anything leaves the node, discovery from the seed
 * hosts, and cluster-state changes submitted by any node and carried out by the master. With
 * `discovery.type: single-node` the node has no transport and elects itself.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { masterNotDiscovered, noLongerPrimaryShard, ShoalError, type WireError } from '@shoal/protocol';
import { type IndexToAllocate, reroute } from '../allocation/allocator.ts';
import { awaitsShardData, recoveredRouting } from '../allocation/cluster-recovery.ts';
import { primaryTermOf, withPrimaryTerms } from '../allocation/primary-terms.ts';
import { EMPTY_ROUTING, withShardFailed, withShardStarted } from '../allocation/routing-table.ts';
import {
  type ClusterState,
  type DiscoveryNode,
  initialClusterState,
  loadedFromDisk,
} from '../coordination/cluster-state.ts';
import { Coordinator, type Effects, type Mode, NotMasterError } from '../coordination/coordinator.ts';
import {
  type ExclusionRequest,
  withExclusionsAdded,
  withExclusionsCleared,
} from '../coordination/exclusions.ts';
import type { CoordinationMessage } from '../coordination/messages.ts';
import type { CoordinationSettings } from '../coordination/settings.ts';
import { TcpTransport } from '../transport/tcp-transport.ts';
import { CoordinationStore } from './persisted-state.ts';
import { LIST_SHARD_STORES_ACTION, type ShardStoreListing, ShardStores } from './shard-stores.ts';

/** A change to the cluster state, as it travels from the node that was asked to the master. */
export type ClusterTaskSpec =
  | { op: 'add_voting_config_exclusions'; request: ExclusionRequest }
  | { op: 'clear_voting_config_exclusions' }
  /** Cluster settings coordination reads (`cluster.auto_shrink_voting_configuration`, …); null removes one. */
  | { op: 'put_settings'; settings: Record<string, string | null> }
  /** A node has opened its copy (Elasticsearch's shard-started). */
  | { op: 'shard_started'; index: string; shard: number; allocationId: string }
  /**
   * A node could not open its copy, or a primary's replica failed a write (shard-failed); a
   * primary that reports its replica gives its term, and a deposed primary's report is refused.
   */
  | {
      op: 'shard_failed';
      index: string;
      shard: number;
      allocationId: string;
      details: string;
      primaryTerm?: number;
    };

function updateOf(spec: ClusterTaskSpec): (s: ClusterState) => ClusterState {
  switch (spec.op) {
    case 'shard_started':
      return (s) => {
        const routingTable = withShardStarted(s.routingTable, spec.index, spec.shard, spec.allocationId);
        return routingTable === s.routingTable ? s : { ...s, routingTable };
      };
    case 'shard_failed':
      return (s) => {
        const current = primaryTermOf(s.routingTable.indices[spec.index], spec.shard);
        if (spec.primaryTerm !== undefined && spec.primaryTerm < current) {
          throw noLongerPrimaryShard(
            `primary term [${spec.primaryTerm}] did not match current primary term [${current}]`,
          );
        }
        const routingTable = withShardFailed(
          s.routingTable,
          spec.index,
          spec.shard,
          spec.allocationId,
          spec.details,
          Date.now(),
        );
        return routingTable === s.routingTable ? s : { ...s, routingTable };
      };
    case 'add_voting_config_exclusions':
      return (s) => withExclusionsAdded(s, spec.request);
    case 'clear_voting_config_exclusions':
      return withExclusionsCleared;
    case 'put_settings':
      return (s) => {
        const next: Record<string, string> = { ...s.settings };
        let changed = false;
        for (const [k, v] of Object.entries(spec.settings)) {
          if (v === null ? k in next : next[k] !== v) changed = true;
          if (v === null) delete next[k];
          else next[k] = v;
        }
        return changed ? { ...s, settings: next } : s;
      };
  }
}

export interface ClusterLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface ClusterServiceOptions {
  local: DiscoveryNode;
  clusterName: string;
  dataPath: string;
  /** `discovery.type: single-node`. */
  singleNode: boolean;
  /** `discovery.seed_hosts`: `host:port` transport addresses. */
  seedHosts: readonly string[];
  /** `cluster.initial_master_nodes`. */
  initialMasterNodes: readonly string[];
  settings?: Partial<CoordinationSettings>;
  log: ClusterLog;
  /**
   * The indices to allocate, read from the application's metadata; without it the master keeps
   * no routing table (a single node whose shards are its own).
   */
  indicesToAllocate?: (s: ClusterState) => IndexToAllocate[];
}

const uuid = () => randomBytes(16).toString('base64url').slice(0, 22);
const clock = () => performance.now();

type TaskReply = { ok: true } | { ok: false; error: WireError | null; notMaster: boolean };

export class ClusterService {
  private readonly store: CoordinationStore;
  private readonly core: Coordinator;
  private transport: TcpTransport | null = null;
  private timer: NodeJS.Timeout | null = null;
  private discovery: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(s: ClusterState) => void>();
  private readonly waiting = new Map<number, (outcome: { ok: boolean; error?: unknown }) => void>();
  private nextTask = 1;
  private rerouting = false;
  private rerouteAgain = false;
  private stopped = false;
  private lastMode: Mode | null = null;
  private readonly stores: ShardStores;
  private readonly handlers = new Map<
    string,
    (from: DiscoveryNode, body: unknown, signal: AbortSignal) => unknown
  >();
  local: DiscoveryNode;

  constructor(private readonly opts: ClusterServiceOptions) {
    this.store = new CoordinationStore(opts.dataPath);
    this.local = opts.local;
    const persisted = this.store.load() ?? {
      currentTerm: 0,
      lastAccepted: initialClusterState(opts.clusterName),
    };
    // A state written before the routing table was part of it.
    persisted.lastAccepted.routingTable ??= EMPTY_ROUTING;
    const formerPeers = Object.values(persisted.lastAccepted.nodes);
    persisted.lastAccepted = loadedFromDisk(persisted.lastAccepted);
    this.core = new Coordinator(this.local, persisted, {
      settings: opts.settings,
      random: Math.random,
      uuid,
      initialMasterNodes: opts.singleNode ? [this.local.name] : opts.initialMasterNodes,
      formerPeers,
    });
    this.stores = new ShardStores(
      (node) => this.request<ShardStoreListing>(node, LIST_SHARD_STORES_ACTION, {}, 10_000),
      () => this.rerouteIfNeeded(),
      (obj, msg) => this.opts.log.warn(obj, msg),
    );
  }

  async start(): Promise<void> {
    if (!this.opts.singleNode) {
      const t = new TcpTransport({
        local: this.local,
        clusterName: this.opts.clusterName,
        host: this.local.host,
        port: this.local.transportPort,
      });
      this.local.transportPort = await t.start();
      t.onMessage('coord', (from, body) =>
        this.run(this.core.handle(from.id, body as CoordinationMessage, clock())),
      );
      t.onRequest('cluster/task', (_from, body) => this.executeHere(body as ClusterTaskSpec));
      t.onDisconnect((n) => this.run(this.core.peerDisconnected(n.id, clock(), n.ephemeralId)));
      for (const [action, h] of this.handlers) t.onRequest(action, h);
      this.transport = t;
    }
    this.run(this.core.start(clock()));
    if (this.transport) this.discover();
    else await this.waitForState((s) => s.masterNodeId === this.local.id, 10_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stores.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.discovery) clearTimeout(this.discovery);
    for (const w of this.waiting.values()) w({ ok: false, error: new NotMasterError() });
    this.waiting.clear();
    await this.transport?.stop();
  }

  get mode(): Mode {
    return this.core.mode;
  }

  /**
   * The last state this node applied. Before its first (a node that has not joined since it
   * started), what it last accepted, with no master and itself as the only node, as
   * Elasticsearch's initial applied state has.
   */
  state(): ClusterState {
    const applied = this.core.appliedState;
    if (applied) return applied;
    return { ...this.core.acceptedState, masterNodeId: null, nodes: { [this.local.id]: this.local } };
  }

  /** The elected master this node follows (or is), if any. */
  masterNode(): DiscoveryNode | null {
    const id = this.core.leaderId;
    if (!id) return null;
    return this.state().nodes[id] ?? this.core.knownPeers().find((n) => n.id === id) ?? null;
  }

  onApplied(listener: (s: ClusterState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Serves `action` for the other nodes (and for this one, through `request`). */
  handle(
    action: string,
    handler: (from: DiscoveryNode, body: unknown, signal: AbortSignal) => unknown,
  ): void {
    this.handlers.set(action, handler);
    this.transport?.onRequest(action, handler);
  }

  /** Asks a node (this one included) to serve `action`. */
  async request<T>(
    to: DiscoveryNode,
    action: string,
    body: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T> {
    if (to.id === this.local.id) {
      const h = this.handlers.get(action);
      if (!h) throw new Error(`no handler for action [${action}]`);
      return (await h(this.local, body, signal ?? new AbortController().signal)) as T;
    }
    if (!this.transport) throw new Error(`[${to.name}] cannot be reached from a single-node cluster`);
    return this.transport.request<T>(to, action, body, { timeoutMs, signal });
  }

  /** Resolves true once `test` holds for the applied state, false when `timeoutMs` passes first. */
  waitForState(
    test: (s: ClusterState) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (this.core.appliedState && test(this.core.appliedState)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        off();
        signal?.removeEventListener('abort', onAbort);
        resolve(ok);
      };
      const onAbort = () => finish(false);
      const off = this.onApplied((s) => {
        if (test(s)) finish(true);
      });
      const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Carries out a change on the master, wherever it is, and resolves once it is committed.
   * While no master is known, or the master changes under the request, it tries again until
   * `timeoutMs` (Elasticsearch's `master_timeout`) passes: then master_not_discovered_exception.
   */
  async execute(spec: ClusterTaskSpec, timeoutMs = 30_000, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      let reply: TaskReply;
      const master = this.masterNode();
      if (this.core.mode === 'LEADER') reply = await this.executeHere(spec);
      else if (master && this.transport) {
        reply = await this.transport
          .request<TaskReply>(master, 'cluster/task', spec, { timeoutMs: Math.max(left, 1), signal })
          .catch(() => ({ ok: false as const, error: null, notMaster: true }));
      } else reply = { ok: false, error: null, notMaster: true };
      if (reply.ok) return;
      if (!reply.notMaster && reply.error) throw ShoalError.fromWire(reply.error);
      if (Date.now() >= deadline || signal?.aborted) {
        throw masterNotDiscovered(
          `no elected master was found to carry out [${spec.op}] within [${timeoutMs}ms]`,
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(100, Math.max(deadline - Date.now(), 1))));
    }
  }

  /** Whether this node runs without a transport (`discovery.type: single-node`). */
  get singleNode(): boolean {
    return this.opts.singleNode;
  }

  /** Whether this node is the elected master now. */
  isMaster(): boolean {
    return this.core.mode === 'LEADER';
  }

  /**
   * Runs `update` on the master's state, which must be this node's: resolves once the state it
   * made is committed (and applied here), rejects with the update's own error, or with
   * NotMasterError when this node is not (or stops being) the master first.
   */
  commitHere(source: string, update: (s: ClusterState) => ClusterState): Promise<void> {
    return this.submitHere(source, update).then((r) => {
      if (r.ok) return;
      throw r.error ? ShoalError.fromWire(r.error) : new NotMasterError();
    });
  }

  private executeHere(spec: ClusterTaskSpec): Promise<TaskReply> {
    return this.submitHere(spec.op, updateOf(spec));
  }

  /**
   * The state with its routing table brought in step with its nodes and indices (the master's
   * reroute). A state read from disk is recovered first (Elasticsearch's gateway): every copy
   * unassigned, `CLUSTER_RECOVERED`, each primary to go back onto a node holding its data.
   */
  private rerouted(s: ClusterState): ClusterState {
    const indices = this.opts.indicesToAllocate;
    if (s.stateNotRecovered) {
      const { stateNotRecovered: _, ...rest } = s;
      s = indices
        ? { ...rest, routingTable: recoveredRouting(s.routingTable, indices(s), Date.now()) }
        : rest;
    }
    if (!indices) return s;
    const dataNodes = Object.values(s.nodes)
      .filter((n) => n.roles.includes('data'))
      .map((n) => n.id);
    const nodes = s.nodes;
    const routingTable = reroute({
      routing: s.routingTable,
      indices: indices(s),
      dataNodes,
      newId: uuid,
      now: Date.now(),
      hasShardData: (node, indexUuid, shard) => this.stores.has(nodes[node], indexUuid, shard),
    });
    return routingTable === s.routingTable ? s : { ...s, routingTable };
  }

  /**
   * On the master, after it applies a state: a node that joined or left (coordination's own
   * changes) may call for copies to be placed or promoted, in a publication of its own; a
   * recovered primary waiting for its data needs the nodes' shard listings.
   */
  private rerouteIfNeeded(): void {
    if (this.stopped || this.core.mode !== 'LEADER') return;
    const applied = this.core.appliedState;
    if (applied && this.opts.indicesToAllocate) {
      if (awaitsShardData(applied.routingTable))
        this.stores.fetchMissing(Object.values(applied.nodes).filter((n) => n.roles.includes('data')));
      else this.stores.clear();
    }
    // One reroute at a time; a state applied meanwhile is looked at again once it is done.
    if (this.rerouting) {
      this.rerouteAgain = true;
      return;
    }
    const s = this.core.appliedState;
    if (!s || this.rerouted(s) === s) return;
    this.rerouting = true;
    void this.submitHere('reroute', (st) => st).finally(() => {
      this.rerouting = false;
      if (!this.rerouteAgain) return;
      this.rerouteAgain = false;
      this.rerouteIfNeeded();
    });
  }

  private submitHere(source: string, change: (s: ClusterState) => ClusterState): Promise<TaskReply> {
    const update = (s: ClusterState) => {
      const next = this.rerouted(change(s));
      const routingTable = withPrimaryTerms(s.routingTable, next.routingTable);
      return routingTable === next.routingTable ? next : { ...next, routingTable };
    };
    const id = this.nextTask++;
    const outcome = new Promise<TaskReply>((resolve) => {
      this.waiting.set(id, (o) => {
        if (o.ok) resolve({ ok: true });
        else if (o.error instanceof NotMasterError) resolve({ ok: false, error: null, notMaster: true });
        else if (o.error instanceof ShoalError)
          resolve({ ok: false, error: o.error.toWire(), notMaster: false });
        else resolve({ ok: false, error: null, notMaster: true });
      });
    });
    this.run(this.core.submit({ id, source, update }, clock()));
    return outcome;
  }

  /** Carries out one step's effects in order: persist, apply, answer tasks, send; then the next tick. */
  private run(fx: Effects): void {
    if (this.stopped) return;
    if (fx.persist) this.store.save(fx.persist);
    for (const s of fx.applied) for (const l of [...this.listeners]) l(s);
    if (fx.applied.length > 0) queueMicrotask(() => this.rerouteIfNeeded());
    for (const t of fx.tasks) {
      const w = this.waiting.get(t.id);
      this.waiting.delete(t.id);
      w?.(t);
    }
    for (const o of fx.send) this.transport?.send(o.to, 'coord', o.msg);
    if (this.core.mode !== this.lastMode) {
      this.lastMode = this.core.mode;
      const leader = this.core.leaderId;
      this.opts.log.info(
        { mode: this.lastMode, term: this.core.term, master: leader },
        `coordination: ${this.lastMode.toLowerCase()} in term ${this.core.term}`,
      );
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const at = this.core.nextWakeup();
    if (!Number.isFinite(at)) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.run(this.core.tick(clock()));
      },
      Math.max(0, Math.ceil(at - clock())),
    );
  }

  /** Probes the seed hosts every second; each node found is handed to coordination. */
  private discover(): void {
    const t = this.transport!;
    const self = `${this.local.host}:${this.local.transportPort}`;
    for (const seed of this.opts.seedHosts) {
      if (seed === self) continue;
      const i = seed.lastIndexOf(':');
      const host = seed.slice(0, i);
      const port = Number(seed.slice(i + 1));
      t.connect(host, port).then(
        (node) => {
          if (!this.stopped) this.run(this.core.peerDiscovered(node, clock()));
        },
        (err) => this.opts.log.debug({ seed, err: String(err) }, 'seed host not reachable'),
      );
    }
    this.discovery = setTimeout(() => this.discover(), this.core.settings.findPeersIntervalMs);
  }
}
