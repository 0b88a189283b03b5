/**
 * The coordination state machine of one node, after Elasticsearch's Coordinator: a node is a
 * CANDIDATE (finding peers, pre-voting, then asking for votes in a new term), a LEADER
 * (publishing states and checking its followers) or a FOLLOWER (applying what the leader
 * commits and checking the leader). It does no I/O and reads no clock: every input (a
 * message, a timer tick, a task, a discovered or lost peer) comes with the time, and every
 * call returns the effects to carry out — the state to persist first, then the committed
 * states to apply, the task outcomes, and the messages to send. The node process runs it over
 * TCP, the simulation over a seeded network; both run this code unchanged.
 *
 * This file has the inputs, the dispatch of messages, the changes of mode and fault
 * detection; it builds on elections and joins (electing.ts), publication (publishing.ts) and
 * the shared state and step (coordinator-base.ts).
 */

import type { ClusterState, DiscoveryNode } from './cluster-state.ts';
import { CoordinationRejected } from './coordination-state.ts';
import { type Effects, type Mode, NotMasterError, type StateTask } from './coordinator-types.ts';
import { Electing } from './electing.ts';
import type { CheckResult } from './fault-detection.ts';
import type { CoordinationMessage } from './messages.ts';
import { withNodeJoined, withNodesLeft } from './state-updates.ts';

export {
  type CoordinatorOptions,
  type Effects,
  type Mode,
  NotMasterError,
  type Outbound,
  type StateTask,
  type TaskOutcome,
} from './coordinator-types.ts';

export class Coordinator extends Electing {
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

  protected dispatch(from: string, msg: CoordinationMessage): void {
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
        for (const n of msg.known) this.learn(n);
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
        for (const n of msg.known) this.learn(n);
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

  protected becomeCandidate(_reason: string): void {
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

  protected becomeFollower(leaderId: string): void {
    if (this.modeNow === 'FOLLOWER' && this.leader === leaderId) return;
    if (this.modeNow === 'LEADER') this.failPublicationAndQueue();
    this.modeNow = 'FOLLOWER';
    this.leader = leaderId;
    this.preVote = null;
    this.joining.clear();
    this.faults.followLeader(leaderId, this.now);
  }

  protected becomeLeader(): void {
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
