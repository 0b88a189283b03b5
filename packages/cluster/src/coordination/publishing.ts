/**
 * The master's side of publication, after Elasticsearch's Coordinator and Publication: the
 * queued tasks run on the accepted state and go out as one state in two phases (publish,
 * then commit once a quorum of the voting configuration has accepted it); a node accepts a
 * publication and applies what is committed; the master improves its voting configuration,
 * hands over when it is excluded, and sends a lagging follower what it missed.
 */
import { type ClusterState, isMasterEligible } from './cluster-state.ts';
import { CoordinationRejected } from './coordination-state.ts';
import { CoordinatorBase } from './coordinator-base.ts';
import { NotMasterError, type StateTask } from './coordinator-types.ts';
import type { Join } from './messages.ts';
import { improvedConfiguration } from './state-updates.ts';
import { sameConfig } from './voting-config.ts';

export abstract class Publishing extends CoordinatorBase {
  protected abstract becomeFollower(leaderId: string): void;
  protected abstract countVote(join: Join): void;

  protected failPublicationAndQueue(): void {
    const failed = [...(this.publication?.tasks ?? []), ...this.queue.splice(0)];
    this.publication = null;
    for (const t of failed)
      if (t.id >= 0) this.effects.tasks.push({ id: t.id, ok: false, error: new NotMasterError() });
  }

  protected publishQueued(force = false): void {
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

  protected onPublish(from: string, state: ClusterState): void {
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

  protected onPublishResponse(from: string, term: number, version: number, join: Join | null): void {
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

  protected onCommit(from: string, term: number, version: number): void {
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

  protected apply(state: ClusterState): void {
    if (this.lastApplied?.stateUuid === state.stateUuid && this.lastApplied.clusterUuidCommitted) return;
    this.lastApplied = state;
    this.effects.applied.push(state);
  }

  /** A better configuration is possible: publish it (as its own task, after what is queued). */
  protected maybeReconfigure(): void {
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
  protected abdicate(state: ClusterState): void {
    const config = state.coordination.lastCommittedConfig;
    const heir = Object.values(state.nodes)
      .filter((n) => n.id !== this.local.id && isMasterEligible(n) && config.includes(n.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1))[0];
    if (!heir) return;
    const term = Math.max(this.cs.term, this.maxTermSeen) + 1;
    this.maxTermSeen = term;
    for (const n of Object.values(state.nodes)) this.send(n, { t: 'start_join', candidate: heir, term });
  }

  /**
   * A follower that answers checks but has not applied the last committed state (it lost the
   * publication or its commit) is sent them again once it is seen behind twice in a row, so a
   * quiet cluster converges without waiting for its next change; a publication in flight that
   * it has not accepted is sent again at once.
   */
  protected catchUp(from: string, accepted: { term: number; version: number }, appliedVersion: number): void {
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
}
