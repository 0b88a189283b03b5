/**
 * A candidate's side, after Elasticsearch's Coordinator: bootstrapping the first
 * configuration, pre-voting, starting an election in a new term, asking a known master to
 * join, and counting the joins (votes) that make this node the master.
 */
import { bootstrapState } from './bootstrap.ts';
import { type DiscoveryNode, isMasterEligible } from './cluster-state.ts';
import { CoordinationRejected } from './coordination-state.ts';
import { PreVoteRound } from './election.ts';
import type { CoordinationMessage, Join } from './messages.ts';
import { Publishing } from './publishing.ts';
import { withNodeJoined } from './state-updates.ts';

export abstract class Electing extends Publishing {
  protected abstract becomeLeader(): void;

  protected maybeBootstrap(): void {
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

  protected askToJoin(master: DiscoveryNode, term: number): void {
    const last = this.joinAskedAt.get(master.id);
    if (last !== undefined && this.now - last < this.settings.joinRetryMs) return;
    this.joinAskedAt.set(master.id, this.now);
    const j = this.lastJoin;
    const join = j && j.target === master.id && j.term === term ? j : null;
    this.send(master, { t: 'join', node: this.local, join, term: this.cs.term });
  }

  protected mayWinElection(): boolean {
    const id = this.local.id;
    if (!isMasterEligible(this.local)) return false;
    // Elasticsearch's nodeMayWinElection: in a configuration, or at least not excluded.
    if (this.cs.committedConfig.includes(id) || this.cs.acceptedConfig.includes(id)) return true;
    return !this.cs.accepted.coordination.exclusions.some((e) => e.nodeId === id);
  }

  protected startPreVote(): void {
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

  protected startElection(): void {
    const term = Math.max(this.cs.term, this.maxTermSeen) + 1;
    this.maxTermSeen = term;
    const msg: CoordinationMessage = { t: 'start_join', candidate: this.local, term };
    for (const n of this.masterEligiblePeers()) this.send(n, msg);
  }

  protected onJoin(node: DiscoveryNode, join: Join | null, term: number): void {
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

  protected countVote(join: Join): void {
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
}
