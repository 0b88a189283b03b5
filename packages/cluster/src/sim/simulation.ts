/**
 * A deterministic simulation of coordination: N nodes run the real Coordinator over a seeded
 * clock and network that loses, delays, duplicates and reorders messages, cuts partitions,
 * crashes and restarts nodes (each keeping only what it persisted), while a client submits
 * changes and adds and clears voting-config exclusions. Invariants are checked after every
 * step; after the chaos the network heals and the cluster must elect a master, take every node
 * in, drop excluded nodes from the configuration, and commit again. The same seed replays the
 * same run exactly.
 */
import {
  type ClusterState,
  type DiscoveryNode,
  initialClusterState,
  type PersistedCoordination,
} from '../coordination/cluster-state.ts';
import { Coordinator, type Effects, type StateTask } from '../coordination/coordinator.ts';
import { withExclusionsAdded, withExclusionsCleared } from '../coordination/exclusions.ts';
import type { CoordinationMessage } from '../coordination/messages.ts';
import { AUTO_SHRINK_SETTING, type CoordinationSettings } from '../coordination/settings.ts';
import { EventQueue } from './event-queue.ts';
import { Invariants, InvariantViolation, logOf } from './invariants.ts';
import { Prng } from './prng.ts';

export interface SimOptions {
  seed: number;
  /** Virtual milliseconds of faults (default 40 s). */
  chaosMs?: number;
  /** Virtual milliseconds the healed cluster gets to recover (default 60 s). */
  settleMs?: number;
  /** Keep a line per event (for replaying a failing seed). */
  trace?: boolean;
  /** With `trace`: every delivered message too. */
  verbose?: boolean;
}

export interface SimResult {
  seed: number;
  ok: boolean;
  failure?: string;
  nodes: number;
  events: number;
  virtualMs: number;
  leaders: number;
  committed: number;
  acked: number;
  trace: string[];
}

interface SimNode {
  index: number;
  info: DiscoveryNode;
  disk: PersistedCoordination;
  core: Coordinator | null;
  incarnation: number;
  tickAt: number;
  rng: Prng;
  mode: string;
}

type SimEvent =
  | { k: 'deliver'; from: number; to: number; toIncarnation: number; msg: CoordinationMessage }
  | { k: 'tick'; node: number }
  | { k: 'disconnected'; node: number; peer: number; incarnation: number }
  | { k: 'chaos' }
  | { k: 'client' }
  | { k: 'restart'; node: number };

interface Faults {
  loss: number;
  duplicate: number;
  maxDelay: number;
  /** The share of messages held back up to 3 s (so that messages overtake each other). */
  slow: number;
  /** Pairs `a:b` that cannot talk. */
  cut: Set<string>;
}

class LivenessFailure extends Error {}

export class Simulation {
  private readonly rng: Prng;
  private readonly queue = new EventQueue<SimEvent>();
  private readonly nodes: SimNode[] = [];
  private readonly inv = new Invariants();
  private now = 0;
  private events = 0;
  private readonly faults: Faults = { loss: 0, duplicate: 0, maxDelay: 20, slow: 0, cut: new Set() };
  private chaos = true;
  private initial: readonly string[] = [];
  private settings: Partial<CoordinationSettings> = {};
  private nextTask = 1;
  private nextValue = 1;
  private readonly pendingValues = new Map<number, string>();
  private readonly acked: string[] = [];
  readonly trace: string[] = [];

  constructor(private readonly opts: SimOptions) {
    this.rng = new Prng(opts.seed);
  }

  private log(line: string): void {
    if (this.opts.trace) this.trace.push(`${String(this.now).padStart(7)} ${line}`);
  }

  run(): SimResult {
    const count = this.rng.pick([1, 2, 3, 3, 3, 4, 5, 5]);
    const masters = this.rng.chance(0.2) && count >= 4 ? count - 1 : count;
    const names = Array.from({ length: count }, (_, i) => `node-${i + 1}`);
    // `cluster.initial_master_nodes`: every master-eligible node, or (sometimes) a majority of them.
    const initial = names
      .slice(0, masters)
      .filter((_, i) => i < Math.max(1, masters - (this.rng.chance(0.3) ? 1 : 0)));
    for (let i = 0; i < count; i++) {
      const info: DiscoveryNode = {
        id: `id${i + 1}${this.rng.uuid().slice(0, 4)}`,
        name: names[i]!,
        ephemeralId: '',
        host: '10.0.0.1',
        transportPort: 9300 + i,
        httpPort: 9200 + i,
        roles: i < masters ? ['data', 'master'] : ['data'],
      };
      this.nodes.push({
        index: i,
        info,
        disk: { currentTerm: 0, lastAccepted: initialClusterState('sim') },
        core: null,
        incarnation: 0,
        tickAt: Number.POSITIVE_INFINITY,
        rng: this.rng.fork(),
        mode: '',
      });
    }
    this.faults.loss = this.rng.pick([0, 0, 0.05, 0.1, 0.3]);
    this.faults.duplicate = this.rng.pick([0, 0.02, 0.1]);
    this.faults.maxDelay = this.rng.pick([5, 20, 100, 500]);
    this.faults.slow = this.rng.pick([0, 0.02, 0.1, 0.3]);
    // Timings vary by seed: the defaults, or elections so eager that candidates collide.
    if (this.rng.chance(0.5)) {
      this.settings = {
        electionInitialTimeoutMs: this.rng.pick([5, 20, 100]),
        electionBackOffMs: this.rng.pick([1, 10, 100]),
        electionDurationMs: this.rng.pick([20, 100, 500]),
        leaderCheckIntervalMs: this.rng.pick([300, 1_000]),
        followerCheckIntervalMs: this.rng.pick([300, 1_000]),
        leaderCheckRetries: this.rng.pick([1, 3]),
        followerCheckRetries: this.rng.pick([1, 3]),
      };
    }
    this.initial = initial;
    for (const n of this.nodes) this.boot(n, initial);
    const chaosMs = this.opts.chaosMs ?? 40_000;
    const settleMs = this.opts.settleMs ?? 60_000;
    this.queue.push(this.rng.int(100, 2_000), { k: 'chaos' });
    this.queue.push(this.rng.int(50, 500), { k: 'client' });
    let failure: string | undefined;
    try {
      this.runUntil(chaosMs);
      this.heal(initial);
      this.settle(settleMs);
      this.inv.checkAcknowledged(this.acked);
    } catch (e) {
      if (!(e instanceof InvariantViolation) && !(e instanceof LivenessFailure)) throw e;
      failure = `${e instanceof LivenessFailure ? 'liveness' : 'safety'}: ${e.message}`;
      this.log(`FAILED ${failure}`);
    }
    return {
      seed: this.opts.seed,
      ok: failure === undefined,
      failure,
      nodes: count,
      events: this.events,
      virtualMs: this.now,
      leaders: this.inv.leaderCount,
      committed: this.inv.committedCount,
      acked: this.acked.length,
      trace: this.trace,
    };
  }

  // ---- nodes ----

  private boot(n: SimNode, initial: readonly string[]): void {
    n.incarnation++;
    n.info = { ...n.info, ephemeralId: `${n.info.id}-e${n.incarnation}` };
    const rng = n.rng;
    n.core = new Coordinator(n.info, n.disk, {
      settings: this.settings,
      random: () => rng.next(),
      uuid: () => rng.uuid(),
      initialMasterNodes: initial,
    });
    n.tickAt = Number.POSITIVE_INFINITY;
    this.log(`${n.info.name} boots (incarnation ${n.incarnation}, term ${n.disk.currentTerm})`);
    this.after(n, n.core.start(this.now));
    // Seed hosts: every node knows the next one's address (the ring keeps them connected) and
    // some of the others'.
    const next = this.nodes[(n.index + 1) % this.nodes.length]!;
    for (const other of this.nodes) {
      if (other === n || (other !== next && !this.rng.chance(0.5))) continue;
      if (n.core) this.after(n, n.core.peerDiscovered({ ...other.info }, this.now));
    }
  }

  private crash(n: SimNode): void {
    if (!n.core) return;
    this.log(`${n.info.name} crashes`);
    n.core = null;
    n.tickAt = Number.POSITIVE_INFINITY;
    for (const other of this.nodes) {
      if (other !== n && other.core && this.rng.chance(0.7)) {
        this.queue.push(this.now + this.rng.int(1, 50), {
          k: 'disconnected',
          node: other.index,
          peer: n.index,
          incarnation: other.incarnation,
        });
      }
    }
  }

  /** Carries out a step's effects: persist, check, apply, answer tasks, send; then plan the next tick. */
  private after(n: SimNode, fx: Effects): void {
    const core = n.core!;
    if (fx.persist) n.disk = fx.persist;
    for (const s of fx.accepted) this.inv.accepted(n.info.id, s);
    if (core.mode === 'LEADER') this.inv.leaderElected(core.term, n.info.id);
    if (this.opts.trace && core.mode !== n.mode) {
      n.mode = core.mode;
      this.log(
        `${n.info.name} is ${core.mode} in term ${core.term}${core.leaderId ? ` (leader ${core.leaderId})` : ''}`,
      );
    }
    for (const s of fx.applied) {
      this.log(
        `${n.info.name} applies v${s.version} t${s.coordination.term} log=${logOf(s).length} cfg=[${s.coordination.lastAcceptedConfig}] excl=${s.coordination.exclusions.length}`,
      );
      this.inv.applied(`${n.info.id}#${n.incarnation}`, n.info.id, s);
    }
    for (const t of fx.tasks) {
      const v = this.pendingValues.get(t.id);
      if (v === undefined) continue;
      this.pendingValues.delete(t.id);
      if (t.ok) this.acked.push(v);
    }
    for (const out of fx.send) this.transmit(n, out.to, out.msg);
    const wake = core.nextWakeup();
    if (wake < n.tickAt || n.tickAt <= this.now) {
      n.tickAt = Math.max(wake, this.now);
      if (Number.isFinite(wake)) this.queue.push(n.tickAt, { k: 'tick', node: n.index });
    }
  }

  private transmit(from: SimNode, to: DiscoveryNode, msg: CoordinationMessage): void {
    const target = this.nodes.find((x) => x.info.id === to.id);
    if (!target?.core) return;
    // A message addressed to an earlier incarnation fails the transport's handshake (only peer
    // finding goes by address alone), and the sender may hear of it as a lost connection.
    if (target.info.ephemeralId !== to.ephemeralId && msg.t !== 'peers') {
      if (this.rng.chance(0.5)) {
        this.queue.push(this.now + this.rng.int(1, 20), {
          k: 'disconnected',
          node: from.index,
          peer: target.index,
          incarnation: from.incarnation,
        });
      }
      return;
    }
    if (this.faults.cut.has(`${from.index}:${target.index}`)) return;
    if (this.rng.chance(this.faults.loss)) return;
    const copies = this.rng.chance(this.faults.duplicate) ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      const slow = this.rng.chance(this.faults.slow) ? this.rng.int(0, 3_000) : 0;
      this.queue.push(this.now + this.rng.int(1, this.faults.maxDelay) + slow, {
        k: 'deliver',
        from: from.index,
        to: target.index,
        toIncarnation: target.incarnation,
        msg,
      });
    }
  }

  // ---- the timeline ----

  private runUntil(until: number): void {
    for (;;) {
      const next = this.queue.pop();
      if (!next) return;
      if (next.at > until) {
        this.queue.push(next.at, next.event);
        this.now = until;
        return;
      }
      this.now = next.at;
      this.events++;
      if (this.events > 5_000_000) throw new LivenessFailure('the simulation does not settle (event storm)');
      this.handle(next.event);
    }
  }

  private handle(e: SimEvent): void {
    switch (e.k) {
      case 'deliver': {
        const n = this.nodes[e.to]!;
        if (!n.core || n.incarnation !== e.toIncarnation) return;
        if (this.faults.cut.has(`${e.from}:${e.to}`)) return;
        if (this.opts.verbose)
          this.log(`${this.nodes[e.from]!.info.name} -> ${n.info.name} ${describeMessage(e.msg)}`);
        this.after(n, n.core.handle(this.nodes[e.from]!.info.id, e.msg, this.now));
        return;
      }
      case 'tick': {
        const n = this.nodes[e.node]!;
        if (!n.core || n.tickAt !== this.now) return;
        n.tickAt = Number.POSITIVE_INFINITY;
        this.after(n, n.core.tick(this.now));
        return;
      }
      case 'disconnected': {
        const n = this.nodes[e.node]!;
        if (!n.core || n.incarnation !== e.incarnation) return;
        this.after(n, n.core.peerDisconnected(this.nodes[e.peer]!.info.id, this.now));
        return;
      }
      case 'restart': {
        const n = this.nodes[e.node]!;
        if (!n.core) this.boot(n, this.initialOf());
        return;
      }
      case 'client':
        // Quiet once healed: the cluster must settle without changes to carry it along.
        if (this.chaos) this.submitValue();
        this.queue.push(this.now + this.rng.int(50, 600), { k: 'client' });
        return;
      case 'chaos':
        if (!this.chaos) return;
        this.disrupt();
        this.queue.push(this.now + this.rng.int(200, 4_000), { k: 'chaos' });
        return;
    }
  }

  /** `cluster.initial_master_nodes` stays in every node's settings; it matters only before the first bootstrap. */
  private initialOf(): readonly string[] {
    return this.initial;
  }

  private leaders(): SimNode[] {
    return this.nodes.filter((n) => n.core?.mode === 'LEADER');
  }

  private submit(n: SimNode, source: string, update: (s: ClusterState) => ClusterState): number {
    const id = this.nextTask++;
    const task: StateTask = { id, source, update };
    this.after(n, n.core!.submit(task, this.now));
    return id;
  }

  private submitValue(): void {
    const live = this.nodes.filter((n) => n.core);
    if (live.length === 0) return;
    // Mostly to a leader; sometimes to any node (which refuses unless it leads).
    const leaders = this.leaders();
    const n = leaders.length > 0 && this.rng.chance(0.9) ? this.rng.pick(leaders) : this.rng.pick(live);
    const v = `v${this.nextValue++}`;
    const id = this.nextTask;
    this.pendingValues.set(id, v);
    this.submit(n, `append ${v}`, (s) => ({ ...s, metadata: { ...s.metadata, log: [...logOf(s), v] } }));
  }

  private disrupt(): void {
    const r = this.rng.next();
    const n = this.nodes.length;
    if (r < 0.2) {
      // A partition: a random side cut off from the rest, both ways or one way only.
      const side = new Set(this.nodes.filter(() => this.rng.chance(0.5)).map((x) => x.index));
      const oneWay = this.rng.chance(0.2);
      this.faults.cut.clear();
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          if (side.has(a) === side.has(b)) continue;
          if (!oneWay || side.has(a)) this.faults.cut.add(`${a}:${b}`);
        }
      }
      this.log(`partition [${[...side]}]${oneWay ? ' one way' : ''}`);
    } else if (r < 0.3) {
      this.faults.cut.clear();
      this.log('partition healed');
    } else if (r < 0.45) {
      const victim = this.rng.pick(this.nodes);
      if (victim.core) {
        this.crash(victim);
        this.queue.push(this.now + this.rng.pick([10, 500, 3_000, 10_000]), {
          k: 'restart',
          node: victim.index,
        });
      }
    } else if (r < 0.55) {
      // A leader crashes in particular.
      const l = this.leaders();
      if (l.length > 0) {
        const victim = this.rng.pick(l);
        this.crash(victim);
        this.queue.push(this.now + this.rng.int(100, 8_000), { k: 'restart', node: victim.index });
      }
    } else if (r < 0.7) {
      this.exclude();
    } else if (r < 0.78) {
      const l = this.leaders();
      if (l.length > 0) {
        this.log('clear exclusions');
        this.submit(this.rng.pick(l), 'clear exclusions', withExclusionsCleared);
      }
    } else if (r < 0.83) {
      const l = this.leaders();
      if (l.length > 0) {
        const v = this.rng.chance(0.5) ? 'false' : 'true';
        this.log(`auto shrink ${v}`);
        this.submit(this.rng.pick(l), 'auto shrink', (s) => ({
          ...s,
          settings: { ...s.settings, [AUTO_SHRINK_SETTING]: v },
        }));
      }
    } else if (r < 0.9) {
      this.faults.loss = this.rng.pick([0, 0.05, 0.2, 0.5]);
      this.faults.maxDelay = this.rng.pick([5, 20, 100, 1_000]);
      this.faults.slow = this.rng.pick([0, 0.02, 0.1, 0.3]);
      this.log(`loss ${this.faults.loss} delay ${this.faults.maxDelay}`);
    } else {
      // A peer reported lost without being lost (a connection that broke and came back).
      const a = this.rng.pick(this.nodes);
      const b = this.rng.pick(this.nodes);
      if (a !== b && a.core) {
        this.queue.push(this.now, {
          k: 'disconnected',
          node: a.index,
          peer: b.index,
          incarnation: a.incarnation,
        });
      }
    }
  }

  /** Excludes some master-eligible nodes (never all of them), by name or id, or a name no node has. */
  private exclude(): void {
    const l = this.leaders();
    if (l.length === 0) return;
    const leader = this.rng.pick(l);
    const state = leader.core!.acceptedState;
    const masters = this.nodes.filter((x) => x.info.roles.includes('master'));
    const already = new Set(state.coordination.exclusions.map((e) => e.nodeId));
    const free = masters.filter((m) => !already.has(m.info.id));
    if (free.length <= 1) return;
    const howMany = this.rng.int(1, free.length - 1);
    const chosen = [...free].sort(() => this.rng.next() - 0.5).slice(0, howMany);
    const byName = this.rng.chance(0.5);
    const names = chosen.map((c) => c.info.name);
    if (this.rng.chance(0.1)) names.push('ghost');
    this.log(`exclude ${byName ? names : chosen.map((c) => c.info.id)}`);
    this.submit(leader, 'exclude', (s) =>
      withExclusionsAdded(s, byName ? { nodeNames: names } : { nodeIds: chosen.map((c) => c.info.id) }),
    );
  }

  // ---- healing and liveness ----

  private heal(_initial: readonly string[]): void {
    this.chaos = false;
    this.faults.cut.clear();
    this.faults.loss = 0;
    this.faults.duplicate = 0;
    this.faults.maxDelay = 20;
    this.faults.slow = 0;
    this.log('heal');
    for (const n of this.nodes) if (!n.core) this.boot(n, this.initialOf());
  }

  /** Runs until `done` holds (checked every 100 ms of virtual time) or `ms` pass. */
  private waitFor(ms: number, what: string, done: () => boolean): void {
    const deadline = this.now + ms;
    while (this.now < deadline) {
      this.runUntil(this.now + 100);
      if (done()) return;
    }
    throw new LivenessFailure(`${what} within ${ms} ms of virtual time after healing (${this.describe()})`);
  }

  private stable(): SimNode | null {
    const leaders = this.leaders();
    if (leaders.length !== 1) return null;
    const l = leaders[0]!;
    const applied = l.core!.appliedState;
    if (!applied) return null;
    for (const n of this.nodes) {
      const c = n.core;
      if (!c) return null;
      if (n !== l && (c.mode !== 'FOLLOWER' || c.leaderId !== l.info.id)) return null;
      if (c.appliedState?.stateUuid !== applied.stateUuid) return null;
      if (applied.nodes[n.info.id]?.ephemeralId !== n.info.ephemeralId) return null;
    }
    return l;
  }

  private settle(ms: number): void {
    this.waitFor(ms, 'one master followed by every node', () => this.stable() !== null);
    // Excluded nodes leave the configuration once nodes that are not excluded can take their place.
    const leader = this.stable()!;
    const excluded = new Set(leader.core!.appliedState!.coordination.exclusions.map((e) => e.nodeId));
    const masters = this.nodes.filter((x) => x.info.roles.includes('master'));
    if (excluded.size > 0 && masters.some((m) => !excluded.has(m.info.id))) {
      this.waitFor(ms, 'excluded nodes out of the committed configuration', () => {
        const l = this.stable();
        const s = l?.core?.appliedState;
        if (!s) return false;
        // The exclusions as they are now: a clear sent during the chaos may still commit.
        const now = new Set(s.coordination.exclusions.map((e) => e.nodeId));
        return !s.coordination.lastCommittedConfig.some((id) => now.has(id)) && !now.has(l!.info.id);
      });
    }
    // Cleared exclusions and auto-shrink on: the configuration is every master-eligible node, odd-sized.
    let clearedAt = Number.NEGATIVE_INFINITY;
    this.waitFor(ms, 'exclusions cleared and auto-shrink on', () => {
      const l = this.stable();
      if (!l) return false;
      const s = l.core!.appliedState!;
      if (s.coordination.exclusions.length === 0 && s.settings[AUTO_SHRINK_SETTING] !== 'false') return true;
      // Asked again every 2 s: a master may lose its place (an excluded master hands over) before committing it.
      if (this.now - clearedAt >= 2_000) {
        clearedAt = this.now;
        this.submit(l, 'heal', (st) => ({
          ...withExclusionsCleared(st),
          settings: { ...st.settings, [AUTO_SHRINK_SETTING]: 'true' },
        }));
      }
      return false;
    });
    const want = masters.length % 2 === 0 ? masters.length - 1 : masters.length;
    this.waitFor(ms, `a voting configuration of ${want} master-eligible nodes`, () => {
      const s = this.stable()?.core?.appliedState;
      return (
        !!s &&
        s.coordination.lastCommittedConfig.length === Math.max(want, 1) &&
        s.coordination.lastCommittedConfig.every((id) => masters.some((m) => m.info.id === id))
      );
    });
    // And a change submitted now is committed.
    const before = this.acked.length;
    let submittedAt = Number.NEGATIVE_INFINITY;
    this.waitFor(ms, 'a new change committed', () => {
      if (this.acked.length > before) return true;
      if (this.stable() && this.now - submittedAt >= 1_000) {
        submittedAt = this.now;
        this.submitValue();
      }
      return false;
    });
  }

  private describe(): string {
    return this.nodes
      .map((n) => {
        const c = n.core;
        if (!c) return `${n.info.name}: down`;
        const s = c.appliedState;
        return `${n.info.name}: ${c.mode} t${c.term} leader=${c.leaderId ?? '-'} applied=v${s?.version ?? '-'} cfg=[${c.acceptedState.coordination.lastCommittedConfig}]`;
      })
      .join('; ');
  }
}

export function simulate(opts: SimOptions): SimResult {
  return new Simulation(opts).run();
}

function describeMessage(m: CoordinationMessage): string {
  switch (m.t) {
    case 'publish':
      return `publish v${m.state.version} t${m.state.coordination.term} cfg=[${m.state.coordination.lastCommittedConfig}]/[${m.state.coordination.lastAcceptedConfig}]`;
    case 'peers':
    case 'peers_res':
      return `${m.t}${m.t === 'peers_res' ? ` master=${m.masterId} t${m.term}` : ''}`;
    case 'pre_vote':
    case 'start_join':
      return `${m.t} t${m.term}`;
    case 'join':
      return `join t${m.term} ${m.join ? `vote t${m.join.term} for ${m.join.target}` : 'no vote'}`;
    default: {
      const { t, ...rest } = m as { t: string } & Record<string, unknown>;
      return `${t} ${JSON.stringify(rest)}`;
    }
  }
}
