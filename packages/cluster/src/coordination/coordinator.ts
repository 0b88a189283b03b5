/**
 * The coordination state machine of one node, after Elasticsearch's Coordinator: a node is a
 * CANDIDATE (finding peers, pre-voting, then asking for votes in a new term), a LEADER
 * (publishing states and checking its followers) or a FOLLOWER (applying what the leader
 * commits and checking the leader). It does no I/O and reads no clock: every input (a
 * message, a timer tick, a task, a discovered or lost peer) comes with the time, and every
 * call returns the effects to carry out — the state to persist first, then the committed
 * states to apply, the task outcomes, and the messages to send. The node process runs it over
 * TCP, the simulation over a seeded network; both run this code unchanged.
 */

import { bootstrapState } from './bootstrap.ts';
import {
  type ClusterState,
  type DiscoveryNode,
  isMasterEligible,
  type PersistedCoordination,
} from './cluster-state.ts';
import { CoordinationRejected, CoordinationState } from './coordination-state.ts';
import { ElectionScheduler, PreVoteRound } from './election.ts';
import { type CheckResult, FaultDetector } from './fault-detection.ts';
import type { CoordinationMessage, Join } from './messages.ts';
import { type CoordinationSettings, DEFAULT_COORDINATION_SETTINGS } from './settings.ts';
import { improvedConfiguration, withNodeJoined, withNodesLeft } from './state-updates.ts';
import { sameConfig } from './voting-config.ts';

export type Mode = 'CANDIDATE' | 'LEADER' | 'FOLLOWER';

export interface Outbound {
  to: DiscoveryNode;
  msg: CoordinationMessage;
}

/** A change the master makes to the cluster state; `update` is pure and may throw to refuse. */
export interface StateTask {
  id: number;
  source: string;
  update(state: ClusterState): ClusterState;
}

export interface TaskOutcome {
  id: number;
  /** Committed (or a no-op on a committed state), or failed with `error`. */
  ok: boolean;
  error?: unknown;
}

export interface Effects {
  /** Write this before anything is sent or applied. */
  persist: PersistedCoordination | null;
  /** States this node accepted (wrote as its last accepted state) in this step, in order. */
  accepted: ClusterState[];
  /** Committed states, in order: apply them. */
  applied: ClusterState[];
  tasks: TaskOutcome[];
  send: Outbound[];
}

export interface CoordinatorOptions {
  settings?: Partial<CoordinationSettings>;
  /** Uniform in [0, 1): seeded in the simulation. */
  random: () => number;
  /** New unique ids (state uuids, the cluster uuid). */
  uuid: () => string;
  /** `cluster.initial_master_nodes` (names); empty once the cluster has formed. */
  initialMasterNodes?: readonly string[];
  /** Nodes to look for besides the accepted state's (those of the state read from disk). */
  formerPeers?: readonly DiscoveryNode[];
}

interface Publication {
  state: ClusterState;
  tasks: StateTask[];
  acked: Set<string>;
  committed: boolean;
  deadline: number;
}

export class Coordinator {
  readonly settings: CoordinationSettings;
  private readonly cs: CoordinationState;
  private modeNow: Mode = 'CANDIDATE';
  private leader: string | null = null;
  private now = 0;
  private maxTermSeen: number;
  private lastJoin: Join | null = null;
  /** Every node this one has heard of, by id (seed hosts, gossip, the state). */
  private readonly known = new Map<string, DiscoveryNode>();
  /** Nodes that asked to join (with or without a vote), taken in when this node leads. */
  private readonly joining = new Map<string, DiscoveryNode>();
  private readonly joinAskedAt = new Map<string, number>();
  private peersAt = 0;
  private readonly elections: ElectionScheduler;
  private preVote: PreVoteRound | null = null;
  private preVoteRounds = 0;
  private readonly faults: FaultDetector;
  private publication: Publication | null = null;
  /** The last committed publication, to send its commit to nodes that accept it late. */
  private committedPub: { term: number; version: number } | null = null;
  private readonly queue: StateTask[] = [];
  /** Followers seen behind the last committed version at their last check, with the version they had. */
  private readonly lagging = new Map<string, number>();
  private lastApplied: ClusterState | null = null;
  private bootstrapped = false;
  private readonly selfQueue: CoordinationMessage[] = [];
  private effects: Effects = { persist: null, accepted: [], applied: [], tasks: [], send: [] };

  constructor(
    readonly local: DiscoveryNode,
    persisted: PersistedCoordination,
    private readonly opts: CoordinatorOptions,
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

  // ---- what the node and the REST layer read ----

  get mode(): Mode {
    return this.modeNow;
  }
  get leaderId(): string | null {
    return this.leader;
  }
  get term(): number {
    return this.cs.term;
  }
  get acceptedState(): ClusterState {
    return this.cs.accepted;
  }
  /** The last state this node applied since it started (null before its first). */
  get appliedState(): ClusterState | null {
    return this.lastApplied;
  }
  knownPeers(): DiscoveryNode[] {
    return [...this.known.values()];
  }

  // ---- inputs ----

  start(now: number): Effects {
    return this.step(now, () => this.becomeCandidate('start'));
  }

  /** A node found at a seed address (or told by the transport). */
  peerDiscovered(node: DiscoveryNode, now: number): Effects {
    return this.step(now, () => this.learn(node));
  }

  /**
   * The connection to a node broke: a leader or follower on it is failed at once. With
   * `ephemeralId`, only when it is that incarnation the node is known as (a message to an
   * older incarnation, at an address a restarted node has taken again, fails no one).
   */
  peerDisconnected(id: string, now: number, ephemeralId?: string): Effects {
    return this.step(now, () => {
      const current = this.lastApplied?.nodes[id] ?? this.known.get(id);
      if (ephemeralId !== undefined && current !== undefined && current.ephemeralId !== ephemeralId) return;
      if (this.modeNow === 'FOLLOWER' && this.leader === id) this.becomeCandidate('leader disconnected');
      else if (this.modeNow === 'LEADER' && this.faults.isFollowing(id)) this.followerFailed(id);
    });
  }

  handle(from: string, msg: CoordinationMessage, now: number): Effects {
    return this.step(now, () => this.dispatch(from, msg));
  }

  tick(now: number): Effects {
    return this.step(now, () => this.onTick());
  }

  /** Queues a change of the cluster state; only a leader takes it, others fail it at once. */
  submit(task: StateTask, now: number): Effects {
    return this.step(now, () => {
      if (this.modeNow !== 'LEADER') {
        this.effects.tasks.push({ id: task.id, ok: false, error: new NotMasterError() });
        return;
      }
      this.queue.push(task);
      this.publishQueued();
    });
  }

  /** When `tick` is next due. */
  nextWakeup(): number {
    let at = Number.POSITIVE_INFINITY;
    if (this.modeNow === 'CANDIDATE') {
      at = Math.min(at, this.peersAt, this.elections.dueAt);
      if (this.preVote) at = Math.min(at, this.preVote.expiresAt);
    }
    at = Math.min(at, this.faults.nextWakeup());
    if (this.publication && !this.publication.committed) at = Math.min(at, this.publication.deadline);
    return at;
  }

  // ---- the step: run an input, deliver messages to self, collect effects ----

  private step(now: number, run: () => void): Effects {
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

  private send(to: DiscoveryNode | string, msg: CoordinationMessage): void {
    const id = typeof to === 'string' ? to : to.id;
    if (id === this.local.id) {
      this.selfQueue.push(msg);
      return;
    }
    const node = typeof to === 'string' ? this.known.get(to) : to;
    if (node) this.effects.send.push({ to: node, msg });
  }

  /** `hearsay`: named by another node, which may know an older incarnation: it does not replace one known. */
  private learn(node: DiscoveryNode, hearsay = false): void {
    if (node.id === this.local.id) return;
    const had = this.known.get(node.id);
    if (hearsay && had) return;
    const fresh = !had || had.ephemeralId !== node.ephemeralId;
    if (fresh) this.known.set(node.id, node);
    if (this.modeNow !== 'CANDIDATE') return;
    this.maybeBootstrap();
    // A candidate asks a node it has just heard of at once, not at its next round of peer finding.
    if (fresh) this.send(node, { t: 'peers', node: this.local, known: this.knownPeers() });
  }

  private masterEligiblePeers(): DiscoveryNode[] {
    return [...this.known.values()].filter(isMasterEligible);
  }

  private updateMaxTermSeen(term: number): void {
    if (term <= this.maxTermSeen) return;
    this.maxTermSeen = term;
    // A leader that learns of a later term starts an election beyond it, once its
    // publication is done (Elasticsearch's updateMaxTermSeen).
    if (this.modeNow === 'LEADER' && term > this.cs.term && !this.publication) this.startElection();
  }

  private ensureTermAtLeast(source: string, term: number): Join | null {
    if (term <= this.cs.term) return null;
    const join = this.cs.handleStartJoin(source, term);
    this.lastJoin = join;
    if (this.modeNow !== 'CANDIDATE') this.becomeCandidate('a later term');
    return join;
  }

  private dispatch(from: string, msg: CoordinationMessage): void {
    try {
      this.dispatchUnsafe(from, msg);
    } catch (e) {
      // A message that does not fit this node's state is dropped, as Elasticsearch rejects it.
      if (!(e instanceof CoordinationRejected)) throw e;
    }
  }

  private dispatchUnsafe(from: string, msg: CoordinationMessage): void {
    switch (msg.t) {
      case 'peers':
        this.learn(msg.node);
        for (const n of msg.known) this.learn(n, true);
        this.send(msg.node, {
          t: 'peers_res',
          node: this.local,
          known: this.knownPeers(),
          masterId: this.modeNow === 'CANDIDATE' ? null : this.leader,
          term: this.cs.term,
        });
        return;
      case 'peers_res':
        this.learn(msg.node);
        for (const n of msg.known) this.learn(n, true);
        this.updateMaxTermSeen(msg.term);
        if (this.modeNow === 'CANDIDATE' && msg.masterId === msg.node.id) this.askToJoin(msg.node, msg.term);
        return;
      case 'pre_vote':
        this.learn(msg.node);
        this.updateMaxTermSeen(msg.term);
        // A node that has a leader does not help another node start an election.
        if (this.leader !== null && this.leader !== msg.node.id) return;
        this.send(msg.node, {
          t: 'pre_vote_res',
          round: msg.round,
          currentTerm: this.cs.term,
          lastAcceptedTerm: this.cs.acceptedTerm,
          lastAcceptedVersion: this.cs.acceptedVersion,
        });
        return;
      case 'pre_vote_res':
        this.updateMaxTermSeen(msg.currentTerm);
        if (this.modeNow !== 'CANDIDATE' || !this.preVote || this.preVote.round !== msg.round) return;
        if (
          msg.lastAcceptedTerm > this.cs.acceptedTerm ||
          (msg.lastAcceptedTerm === this.cs.acceptedTerm && msg.lastAcceptedVersion > this.cs.acceptedVersion)
        ) {
          return; // the responder knows a later state: it would not vote for this node
        }
        this.preVote.votes.add(from);
        if (!this.preVote.started && this.cs.isElectionQuorum(this.preVote.votes)) {
          this.preVote.started = true;
          this.startElection();
        }
        return;
      case 'start_join': {
        this.learn(msg.candidate);
        if (msg.term <= this.cs.term) return;
        const join = this.cs.handleStartJoin(msg.candidate.id, msg.term);
        this.lastJoin = join;
        if (this.modeNow !== 'CANDIDATE') this.becomeCandidate('start join');
        this.send(msg.candidate, { t: 'join', node: this.local, join, term: this.cs.term });
        return;
      }
      case 'join':
        this.onJoin(msg.node, msg.join, msg.term);
        return;
      case 'publish':
        this.onPublish(from, msg.state);
        return;
      case 'publish_res':
        this.onPublishResponse(from, msg.term, msg.version, msg.join);
        return;
      case 'commit':
        this.onCommit(from, msg.term, msg.version);
        return;
      case 'leader_check': {
        const applied = this.lastApplied;
        const ok = this.modeNow === 'LEADER' && applied !== null && from in applied.nodes;
        this.send(from, { t: 'leader_check_res', id: msg.id, ok, term: this.cs.term });
        return;
      }
      case 'leader_check_res':
        this.updateMaxTermSeen(msg.term);
        if (this.modeNow === 'FOLLOWER' && from === this.leader)
          this.onCheckResult(this.faults.leaderAnswered(msg.id, msg.ok));
        return;
      case 'follower_check':
        this.onFollowerCheck(from, msg.id, msg.term);
        return;
      case 'follower_check_res':
        this.updateMaxTermSeen(msg.term);
        if (this.modeNow === 'LEADER') {
          this.onCheckResult(this.faults.followerAnswered(from, msg.id, msg.ok));
          if (msg.ok) {
            this.catchUp(from, msg.accepted, msg.appliedVersion);
            this.maybeReconfigure();
          }
        }
        return;
    }
  }

  // ---- modes ----

  private becomeCandidate(_reason: string): void {
    const wasLeader = this.modeNow === 'LEADER';
    this.modeNow = 'CANDIDATE';
    this.leader = null;
    this.faults.clear();
    if (wasLeader || this.publication || this.queue.length > 0) this.failPublicationAndQueue();
    this.joining.clear();
    this.peersAt = this.now;
    this.elections.restart(this.now);
    this.preVote = null;
    this.maybeBootstrap();
  }

  private becomeFollower(leaderId: string): void {
    if (this.modeNow === 'FOLLOWER' && this.leader === leaderId) return;
    if (this.modeNow === 'LEADER') this.failPublicationAndQueue();
    this.modeNow = 'FOLLOWER';
    this.leader = leaderId;
    this.preVote = null;
    this.joining.clear();
    this.faults.followLeader(leaderId, this.now);
  }

  private becomeLeader(): void {
    this.modeNow = 'LEADER';
    this.leader = this.local.id;
    this.preVote = null;
    this.faults.clear();
    this.committedPub = null;
    this.lagging.clear();
    for (const id of this.cs.votes.keys()) {
      const n = this.known.get(id);
      if (n && !this.joining.has(id)) this.joining.set(id, n);
    }
    const joiners = [...this.joining.values()];
    this.joining.clear();
    // The first publication of a term takes in the nodes that voted or asked to join, and
    // finishes whatever reconfiguration the last accepted state was in the middle of.
    this.queue.unshift({
      id: -1,
      source: 'elected-as-master',
      update: (s) => joiners.reduce((acc, n) => withNodeJoined(acc, n), withNodeJoined(s, this.local)),
    });
    this.publishQueued(true);
  }

  private failPublicationAndQueue(): void {
    const failed = [...(this.publication?.tasks ?? []), ...this.queue.splice(0)];
    this.publication = null;
    for (const t of failed)
      if (t.id >= 0) this.effects.tasks.push({ id: t.id, ok: false, error: new NotMasterError() });
  }

  // ---- candidate: peers, bootstrap, pre-vote, election ----

  private maybeBootstrap(): void {
    const wanted = this.opts.initialMasterNodes ?? [];
    if (this.bootstrapped || wanted.length === 0 || this.cs.acceptedConfig.length > 0) return;
    if (!isMasterEligible(this.local)) return;
    const state = bootstrapState(
      this.cs.accepted,
      this.local,
      this.masterEligiblePeers(),
      wanted,
      this.opts.uuid,
    );
    if (!state) return;
    this.bootstrapped = true;
    this.cs.setInitialState(state);
    this.elections.restart(this.now);
  }

  private askToJoin(master: DiscoveryNode, term: number): void {
    const last = this.joinAskedAt.get(master.id);
    if (last !== undefined && this.now - last < this.settings.joinRetryMs) return;
    this.joinAskedAt.set(master.id, this.now);
    const j = this.lastJoin;
    const join = j && j.target === master.id && j.term === term ? j : null;
    this.send(master, { t: 'join', node: this.local, join, term: this.cs.term });
  }

  private mayWinElection(): boolean {
    const id = this.local.id;
    if (!isMasterEligible(this.local)) return false;
    // Elasticsearch's nodeMayWinElection: in a configuration, or at least not excluded.
    if (this.cs.committedConfig.includes(id) || this.cs.acceptedConfig.includes(id)) return true;
    return !this.cs.accepted.coordination.exclusions.some((e) => e.nodeId === id);
  }

  private startPreVote(): void {
    this.preVote = new PreVoteRound(
      ++this.preVoteRounds,
      this.local.id,
      this.now + this.settings.electionDurationMs,
    );
    const msg: CoordinationMessage = {
      t: 'pre_vote',
      node: this.local,
      term: this.cs.term,
      round: this.preVote.round,
    };
    for (const n of this.masterEligiblePeers()) if (n.id !== this.local.id) this.send(n, msg);
    if (this.cs.isElectionQuorum(this.preVote.votes)) {
      this.preVote.started = true;
      this.startElection();
    }
  }

  private startElection(): void {
    const term = Math.max(this.cs.term, this.maxTermSeen) + 1;
    this.maxTermSeen = term;
    const msg: CoordinationMessage = { t: 'start_join', candidate: this.local, term };
    for (const n of this.masterEligiblePeers()) this.send(n, msg);
  }

  private onJoin(node: DiscoveryNode, join: Join | null, term: number): void {
    this.learn(node);
    this.updateMaxTermSeen(term);
    if (this.modeNow !== 'LEADER') this.joining.set(node.id, node);
    if (join) this.countVote(join);
    if (this.modeNow === 'LEADER') {
      const s = this.cs.accepted;
      const there = s.nodes[node.id];
      if (!there || there.ephemeralId !== node.ephemeralId) {
        this.queue.push({
          id: -1,
          source: `node-join [${node.name}]`,
          update: (st) => withNodeJoined(st, node),
        });
        this.publishQueued();
      }
    }
  }

  private countVote(join: Join): void {
    try {
      // A vote for a later term than this node's: it raises its own term and votes for itself.
      const own = this.ensureTermAtLeast(this.local.id, join.term);
      if (own) this.cs.handleJoin(own);
      const won = this.cs.handleJoin(join);
      if (won && this.modeNow === 'CANDIDATE') this.becomeLeader();
      else if (this.modeNow === 'LEADER') this.maybeReconfigure();
    } catch (e) {
      if (!(e instanceof CoordinationRejected)) throw e;
    }
  }

  // ---- leader: publication ----

  private publishQueued(force = false): void {
    if (this.modeNow !== 'LEADER' || this.publication || (this.queue.length === 0 && !force)) return;
    const base = this.cs.accepted;
    const tasks = this.queue.splice(0);
    let state = base;
    const taken: StateTask[] = [];
    for (const t of tasks) {
      try {
        state = t.update(state);
        taken.push(t);
      } catch (error) {
        this.effects.tasks.push({ id: t.id, ok: false, error });
      }
    }
    if (sameConfig(base.coordination.lastCommittedConfig, base.coordination.lastAcceptedConfig)) {
      state = improvedConfiguration(state, this.local.id, new Set(this.cs.votes.keys()));
    }
    if (state === base && !force) {
      for (const t of taken) if (t.id >= 0) this.effects.tasks.push({ id: t.id, ok: true });
      return;
    }
    const next: ClusterState = {
      ...state,
      version: base.version + 1,
      stateUuid: this.opts.uuid(),
      masterNodeId: this.local.id,
      coordination: { ...state.coordination, term: this.cs.term },
    };
    try {
      this.cs.handleClientValue(next);
    } catch (e) {
      if (!(e instanceof CoordinationRejected)) throw e;
      for (const t of taken) if (t.id >= 0) this.effects.tasks.push({ id: t.id, ok: false, error: e });
      return;
    }
    this.publication = {
      state: next,
      tasks: taken,
      acked: new Set(),
      committed: false,
      deadline: this.now + this.settings.publishTimeoutMs,
    };
    for (const n of Object.values(next.nodes)) this.send(n, { t: 'publish', state: next });
  }

  private onPublish(from: string, state: ClusterState): void {
    const term = state.coordination.term;
    if (term < this.cs.term) return;
    const mine = this.cs.accepted;
    if (mine.clusterUuidCommitted && mine.clusterUuid !== state.clusterUuid) return; // another cluster
    const master = state.nodes[from];
    if (master) this.learn(master);
    for (const n of Object.values(state.nodes)) this.learn(n);
    const join = this.ensureTermAtLeast(from, term);
    this.cs.handlePublishRequest(state);
    this.effects.accepted.push(state);
    if (from !== this.local.id) this.becomeFollower(from);
    this.send(from, { t: 'publish_res', term, version: state.version, join });
  }

  private onPublishResponse(from: string, term: number, version: number, join: Join | null): void {
    if (join) this.countVote(join);
    if (this.modeNow !== 'LEADER') return;
    const p = this.publication;
    if (!p || p.state.coordination.term !== term || p.state.version !== version) {
      const c = this.committedPub;
      if (c && c.term === term && c.version === version) this.send(from, { t: 'commit', term, version });
      return;
    }
    p.acked.add(from);
    if (p.committed) {
      this.send(from, { t: 'commit', term, version });
      return;
    }
    if (this.cs.handlePublishResponse(from, term, version)) {
      p.committed = true;
      this.committedPub = { term, version };
      for (const id of p.acked) this.send(id, { t: 'commit', term, version });
    }
  }

  private onCommit(from: string, term: number, version: number): void {
    const state = this.cs.handleCommit(term, version);
    this.apply(state);
    if (from !== this.local.id) return;
    const p = this.publication;
    if (!p || p.state.version !== version) return;
    this.publication = null;
    for (const t of p.tasks) if (t.id >= 0) this.effects.tasks.push({ id: t.id, ok: true });
    if (this.modeNow !== 'LEADER') return;
    this.faults.setFollowers(
      Object.keys(state.nodes).filter((id) => id !== this.local.id),
      this.now,
    );
    if (!state.coordination.lastCommittedConfig.includes(this.local.id)) {
      this.abdicate(state);
      return;
    }
    if (this.maxTermSeen > this.cs.term) {
      this.startElection();
      return;
    }
    this.maybeReconfigure();
    this.publishQueued();
  }

  private apply(state: ClusterState): void {
    if (this.lastApplied?.stateUuid === state.stateUuid && this.lastApplied.clusterUuidCommitted) return;
    this.lastApplied = state;
    this.effects.applied.push(state);
  }

  /** A better configuration is possible: publish it (as its own task, after what is queued). */
  private maybeReconfigure(): void {
    if (this.modeNow !== 'LEADER' || this.publication) return;
    const s = this.cs.accepted;
    if (!sameConfig(s.coordination.lastCommittedConfig, s.coordination.lastAcceptedConfig)) return;
    const voters = new Set(this.cs.votes.keys());
    const better = improvedConfiguration(s, this.local.id, voters);
    if (better !== s) {
      this.queue.push({ id: -1, source: 'reconfigure', update: (st) => st });
      this.publishQueued();
      return;
    }
    // A follower that voted for another candidate in this term can give this master no vote,
    // and a configuration can take in only voters: if it would make a better configuration,
    // this master is elected again in a new term, where every node can vote for it.
    let missing = false;
    for (const id of this.faults.answering()) {
      const n = s.nodes[id];
      if (n && isMasterEligible(n) && !voters.has(id)) {
        voters.add(id);
        missing = true;
      }
    }
    if (missing && improvedConfiguration(s, this.local.id, voters) !== s) this.startElection();
  }

  /** An excluded master hands over: it asks every node to vote for another one in a new term. */
  private abdicate(state: ClusterState): void {
    const config = state.coordination.lastCommittedConfig;
    const heir = Object.values(state.nodes)
      .filter((n) => n.id !== this.local.id && isMasterEligible(n) && config.includes(n.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1))[0];
    if (!heir) return;
    const term = Math.max(this.cs.term, this.maxTermSeen) + 1;
    this.maxTermSeen = term;
    for (const n of Object.values(state.nodes)) this.send(n, { t: 'start_join', candidate: heir, term });
  }

  // ---- fault detection ----

  private onFollowerCheck(from: string, id: number, term: number): void {
    const answer = (ok: boolean) =>
      this.send(from, {
        t: 'follower_check_res',
        id,
        ok,
        term: this.cs.term,
        accepted: { term: this.cs.acceptedTerm, version: this.cs.acceptedVersion },
        appliedVersion: this.lastApplied?.version ?? -1,
      });
    if (term < this.cs.term) {
      answer(false);
      return;
    }
    this.ensureTermAtLeast(from, term);
    this.becomeFollower(from);
    answer(true);
  }

  /**
   * A follower that answers checks but has not applied the last committed state (it lost the
   * publication or its commit) is sent them again once it is seen behind twice in a row, so a
   * quiet cluster converges without waiting for its next change; a publication in flight that
   * it has not accepted is sent again at once.
   */
  private catchUp(from: string, accepted: { term: number; version: number }, appliedVersion: number): void {
    const p = this.publication;
    if (p) {
      // A publication waiting on this follower, which has not accepted it: it was lost, send it again.
      const ps = p.state;
      const node = ps.nodes[from];
      if (
        node &&
        !p.acked.has(from) &&
        (accepted.term !== ps.coordination.term || accepted.version !== ps.version)
      ) {
        this.send(node, { t: 'publish', state: ps });
      }
      return;
    }
    const c = this.committedPub;
    const s = this.cs.accepted;
    if (!c || s.version !== c.version || appliedVersion >= c.version) {
      this.lagging.delete(from);
      return;
    }
    if (this.lagging.get(from) !== appliedVersion) {
      this.lagging.set(from, appliedVersion);
      return;
    }
    this.lagging.delete(from);
    const node = s.nodes[from];
    if (!node) return;
    if (accepted.term === c.term && accepted.version === c.version) this.send(node, { t: 'commit', ...c });
    else this.send(node, { t: 'publish', state: s });
  }

  private onCheckResult(r: CheckResult): void {
    if (r.kind === 'leader_failed') this.becomeCandidate('leader failed');
    else if (r.kind === 'follower_failed') this.followerFailed(r.id);
  }

  private followerFailed(id: string): void {
    this.faults.dropFollower(id);
    this.queue.push({ id: -1, source: `node-left [${id}]`, update: (s) => withNodesLeft(s, [id]) });
    this.publishQueued();
  }

  private onTick(): void {
    const now = this.now;
    if (this.modeNow === 'CANDIDATE') {
      if (now >= this.peersAt) {
        this.peersAt = now + this.settings.findPeersIntervalMs;
        const msg: CoordinationMessage = { t: 'peers', node: this.local, known: this.knownPeers() };
        for (const n of this.known.values()) if (n.id !== this.local.id) this.send(n, msg);
      }
      if (this.preVote && now >= this.preVote.expiresAt) this.preVote = null;
      if (now >= this.elections.dueAt) {
        this.elections.scheduleNext(now);
        if (this.mayWinElection()) this.startPreVote();
      }
    }
    if (this.publication && !this.publication.committed && now >= this.publication.deadline) {
      this.becomeCandidate('publication timed out');
      return;
    }
    for (const action of this.faults.due(now, this.modeNow)) {
      if (action.kind === 'send_leader_check') this.send(action.to, { t: 'leader_check', id: action.id });
      else if (action.kind === 'send_follower_check') {
        // Addressed to the node as the state has it: another incarnation at its address fails
        // the check, and the node is removed and joins again (Elasticsearch's FollowersChecker).
        const member = this.lastApplied?.nodes[action.to] ?? action.to;
        this.send(member, { t: 'follower_check', id: action.id, term: this.cs.term });
      } else this.onCheckResult(action);
    }
  }
}

/** Raised to a task submitted to (or queued on) a node that is not, or no longer, the master. */
export class NotMasterError extends Error {
  constructor() {
    super('no longer master');
  }
}
