/**
 * The state the coordination state machine keeps, and what every part of it uses: one step
 * (an input run, the messages to this node delivered, the effects collected), sending,
 * learning of peers, and the terms seen. The parts build on it in layers: publication
 * (publishing.ts), then elections and joins (electing.ts), then the inputs, the modes and
 * fault detection (coordinator.ts).
 */
import {
  type ClusterState,
  type DiscoveryNode,
  isMasterEligible,
  type PersistedCoordination,
} from './cluster-state.ts';
import { CoordinationState } from './coordination-state.ts';
import type { CoordinatorOptions, Effects, Mode, Publication, StateTask } from './coordinator-types.ts';
import { ElectionScheduler, type PreVoteRound } from './election.ts';
import { FaultDetector } from './fault-detection.ts';
import type { CoordinationMessage, Join } from './messages.ts';
import { type CoordinationSettings, DEFAULT_COORDINATION_SETTINGS } from './settings.ts';

export abstract class CoordinatorBase {
  readonly settings: CoordinationSettings;
  protected readonly cs: CoordinationState;
  protected modeNow: Mode = 'CANDIDATE';
  protected leader: string | null = null;
  protected now = 0;
  protected maxTermSeen: number;
  protected lastJoin: Join | null = null;
  /** Every node this one has heard of, by id (seed hosts, gossip, the state). */
  protected readonly known = new Map<string, DiscoveryNode>();
  /** Nodes that asked to join (with or without a vote), taken in when this node leads. */
  protected readonly joining = new Map<string, DiscoveryNode>();
  protected readonly joinAskedAt = new Map<string, number>();
  protected peersAt = 0;
  protected readonly elections: ElectionScheduler;
  protected preVote: PreVoteRound | null = null;
  protected preVoteRounds = 0;
  protected readonly faults: FaultDetector;
  protected publication: Publication | null = null;
  /** The last committed publication, to send its commit to nodes that accept it late. */
  protected committedPub: { term: number; version: number } | null = null;
  protected readonly queue: StateTask[] = [];
  /** Followers seen behind the last committed version at their last check, with the version they had. */
  protected readonly lagging = new Map<string, number>();
  protected lastApplied: ClusterState | null = null;
  protected bootstrapped = false;
  protected readonly selfQueue: CoordinationMessage[] = [];
  protected effects: Effects = { persist: null, accepted: [], applied: [], tasks: [], send: [] };

  constructor(
    readonly local: DiscoveryNode,
    persisted: PersistedCoordination,
    protected readonly opts: CoordinatorOptions,
  ) {
    this.settings = { ...DEFAULT_COORDINATION_SETTINGS, ...opts.settings };
    this.cs = new CoordinationState(local.id, persisted);
    this.maxTermSeen = persisted.currentTerm;
    this.elections = new ElectionScheduler(this.settings, opts.random);
    this.faults = new FaultDetector(this.settings);
    this.known.set(local.id, local);
    for (const n of [...(opts.formerPeers ?? []), ...Object.values(persisted.lastAccepted.nodes)])
      if (n.id !== local.id) this.known.set(n.id, n);
  }

  /** Every node this one has heard of. */
  knownPeers(): DiscoveryNode[] {
    return [...this.known.values()];
  }

  protected abstract becomeCandidate(reason: string): void;
  protected abstract maybeBootstrap(): void;
  protected abstract startElection(): void;
  protected abstract dispatch(from: string, msg: CoordinationMessage): void;

  // ---- the step: run an input, deliver messages to self, collect effects ----

  protected step(now: number, run: () => void): Effects {
    this.now = Math.max(this.now, now);
    run();
    for (let guard = 0; this.selfQueue.length > 0; guard++) {
      if (guard > 10_000) throw new Error('coordination: messages to self do not settle');
      this.dispatch(this.local.id, this.selfQueue.shift()!);
    }
    const out = this.effects;
    if (this.cs.dirty) {
      out.persist = this.cs.persisted();
      this.cs.dirty = false;
    }
    this.effects = { persist: null, accepted: [], applied: [], tasks: [], send: [] };
    return out;
  }

  protected send(to: DiscoveryNode | string, msg: CoordinationMessage): void {
    const id = typeof to === 'string' ? to : to.id;
    if (id === this.local.id) {
      this.selfQueue.push(msg);
      return;
    }
    const node = typeof to === 'string' ? this.known.get(to) : to;
    if (node) this.effects.send.push({ to: node, msg });
  }

  protected learn(node: DiscoveryNode): void {
    if (node.id === this.local.id) return;
    const had = this.known.get(node.id);
    const fresh = !had || had.ephemeralId !== node.ephemeralId;
    if (fresh) this.known.set(node.id, node);
    if (this.modeNow !== 'CANDIDATE') return;
    this.maybeBootstrap();
    // A candidate asks a node it has just heard of at once, not at its next round of peer finding.
    if (fresh) this.send(node, { t: 'peers', node: this.local, known: this.knownPeers() });
  }

  protected masterEligiblePeers(): DiscoveryNode[] {
    return [...this.known.values()].filter(isMasterEligible);
  }

  protected updateMaxTermSeen(term: number): void {
    if (term <= this.maxTermSeen) return;
    this.maxTermSeen = term;
    // A leader that learns of a later term starts an election beyond it, once its
    // publication is done (Elasticsearch's updateMaxTermSeen).
    if (this.modeNow === 'LEADER' && term > this.cs.term && !this.publication) this.startElection();
  }

  protected ensureTermAtLeast(source: string, term: number): Join | null {
    if (term <= this.cs.term) return null;
    const join = this.cs.handleStartJoin(source, term);
    this.lastJoin = join;
    if (this.modeNow !== 'CANDIDATE') this.becomeCandidate('a later term');
    return join;
  }
}
