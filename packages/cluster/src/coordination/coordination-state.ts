/**
 * The safety core of coordination, after Elasticsearch's CoordinationState (and the TLA+ model
 * it follows): the persisted term and last-accepted state, the join votes of an election and
 * the publish votes of a publication. Each handler either changes the state and returns what
 * to send, or throws CoordinationRejected and changes nothing. Everything that makes two
 * masters in one term or a lost committed state impossible is checked here; the coordinator
 * around it decides only when to call which handler.
 */
import type { ClusterState, PersistedCoordination } from './cluster-state.ts';
import type { Join } from './messages.ts';
import { hasQuorum, sameConfig, type VotingConfig } from './voting-config.ts';

export class CoordinationRejected extends Error {}

const reject = (why: string): never => {
  throw new CoordinationRejected(why);
};

export class CoordinationState {
  private currentTerm: number;
  private lastAccepted: ClusterState;
  /** Volatile: no vote may be counted in a term this node has not started since it last booted. */
  private startedJoinSinceBoot = false;
  private electionWon = false;
  private joinVotes = new Map<string, Join>();
  private publishVotes = new Set<string>();
  private lastPublishedVersion = 0;
  private lastPublishedConfig: VotingConfig;
  /** Set whenever the persisted part changed; the caller writes it before sending anything. */
  dirty = false;

  constructor(
    readonly localId: string,
    persisted: PersistedCoordination,
  ) {
    this.currentTerm = persisted.currentTerm;
    this.lastAccepted = persisted.lastAccepted;
    this.lastPublishedConfig = persisted.lastAccepted.coordination.lastAcceptedConfig;
  }

  get term(): number {
    return this.currentTerm;
  }
  get accepted(): ClusterState {
    return this.lastAccepted;
  }
  get acceptedTerm(): number {
    return this.lastAccepted.coordination.term;
  }
  get acceptedVersion(): number {
    return this.lastAccepted.version;
  }
  get committedConfig(): VotingConfig {
    return this.lastAccepted.coordination.lastCommittedConfig;
  }
  get acceptedConfig(): VotingConfig {
    return this.lastAccepted.coordination.lastAcceptedConfig;
  }
  get isElectionWon(): boolean {
    return this.electionWon;
  }
  get votes(): ReadonlyMap<string, Join> {
    return this.joinVotes;
  }

  persisted(): PersistedCoordination {
    return { currentTerm: this.currentTerm, lastAccepted: this.lastAccepted };
  }

  /** A quorum in both configurations: the one last committed and the one last accepted. */
  isElectionQuorum(votes: ReadonlySet<string>): boolean {
    return hasQuorum(this.committedConfig, votes) && hasQuorum(this.acceptedConfig, votes);
  }

  private isPublishQuorum(votes: ReadonlySet<string>): boolean {
    return hasQuorum(this.committedConfig, votes) && hasQuorum(this.lastPublishedConfig, votes);
  }

  /** Whether a new configuration may be published: the votes of this election reach a quorum of it. */
  joinVotesHaveQuorumFor(config: VotingConfig): boolean {
    return hasQuorum(config, new Set(this.joinVotes.keys()));
  }

  /** The first state, from `cluster.initial_master_nodes`; only a node with no configuration yet. */
  setInitialState(state: ClusterState): void {
    if (this.acceptedConfig.length > 0) reject('this node has already been bootstrapped');
    if (state.coordination.lastAcceptedConfig.length === 0) reject('an initial state needs a configuration');
    this.lastAccepted = state;
    this.lastPublishedConfig = state.coordination.lastAcceptedConfig;
    this.dirty = true;
  }

  /** Moves to `term` and returns this node's vote for `candidate` in it. */
  handleStartJoin(candidate: string, term: number): Join {
    if (term <= this.currentTerm)
      reject(`start-join term [${term}] is not above the current term [${this.currentTerm}]`);
    this.currentTerm = term;
    this.dirty = true;
    this.startedJoinSinceBoot = true;
    this.electionWon = false;
    this.joinVotes = new Map();
    this.publishVotes = new Set();
    this.lastPublishedVersion = 0;
    this.lastPublishedConfig = this.acceptedConfig;
    return {
      source: this.localId,
      target: candidate,
      term,
      lastAcceptedTerm: this.acceptedTerm,
      lastAcceptedVersion: this.acceptedVersion,
    };
  }

  /** Counts a vote; returns true when this vote is the one that wins the election. */
  handleJoin(join: Join): boolean {
    if (join.target !== this.localId) reject(`join is for [${join.target}], not this node`);
    if (join.term !== this.currentTerm)
      reject(`join term [${join.term}] is not the current term [${this.currentTerm}]`);
    if (!this.startedJoinSinceBoot) reject('no term has been started since this node booted');
    const t = this.acceptedTerm;
    if (join.lastAcceptedTerm > t) reject('the voter has accepted a state of a later term');
    if (join.lastAcceptedTerm === t && join.lastAcceptedVersion > this.acceptedVersion) {
      reject('the voter has accepted a later state of the same term');
    }
    if (this.acceptedConfig.length === 0) reject('this node has not received its initial configuration');
    const before = this.electionWon;
    this.joinVotes.set(join.source, join);
    this.electionWon = this.isElectionQuorum(new Set(this.joinVotes.keys()));
    if (this.electionWon && !before) {
      this.lastPublishedVersion = this.acceptedVersion;
      return true;
    }
    return false;
  }

  /** The master starts publishing `state`; it must be of this term and newer than the last one. */
  handleClientValue(state: ClusterState): void {
    if (!this.electionWon) reject('this node has not won an election');
    if (state.coordination.term !== this.currentTerm) reject('the state is not of the current term');
    if (state.version <= this.lastPublishedVersion)
      reject('the state is not newer than the last published one');
    const config = state.coordination.lastAcceptedConfig;
    if (!sameConfig(config, this.acceptedConfig)) {
      if (!sameConfig(this.committedConfig, this.acceptedConfig)) {
        reject('a reconfiguration is in progress; another may not start');
      }
      if (!this.joinVotesHaveQuorumFor(config))
        reject('the join votes have no quorum in the new configuration');
    }
    this.lastPublishedVersion = state.version;
    this.lastPublishedConfig = config;
    this.publishVotes = new Set();
  }

  /** A node accepts a published state; the caller answers with a publish response. */
  handlePublishRequest(state: ClusterState): void {
    const term = state.coordination.term;
    if (term !== this.currentTerm)
      reject(`publication term [${term}] is not the current term [${this.currentTerm}]`);
    if (term === this.acceptedTerm && state.version <= this.acceptedVersion) {
      reject(
        `publication version [${state.version}] is not above the accepted version [${this.acceptedVersion}]`,
      );
    }
    this.lastAccepted = state;
    this.dirty = true;
  }

  /** Counts an acceptance; returns true when it makes the publication committed. */
  handlePublishResponse(source: string, term: number, version: number): boolean {
    if (!this.electionWon) reject('this node has not won an election');
    if (term !== this.currentTerm) reject('publish response of another term');
    if (version !== this.lastPublishedVersion) reject('publish response of another version');
    const before = this.isPublishQuorum(this.publishVotes);
    this.publishVotes.add(source);
    return !before && this.isPublishQuorum(this.publishVotes);
  }

  /** The last accepted state is committed: its configuration becomes the committed one. */
  handleCommit(term: number, version: number): ClusterState {
    if (term !== this.currentTerm) reject('commit of another term');
    if (term !== this.acceptedTerm) reject('commit of a term whose state this node has not accepted');
    if (version !== this.acceptedVersion) reject('commit of a version this node has not accepted');
    const s = this.lastAccepted;
    if (
      !sameConfig(s.coordination.lastCommittedConfig, s.coordination.lastAcceptedConfig) ||
      !s.clusterUuidCommitted
    ) {
      this.lastAccepted = {
        ...s,
        clusterUuidCommitted: true,
        coordination: { ...s.coordination, lastCommittedConfig: s.coordination.lastAcceptedConfig },
      };
      this.dirty = true;
    }
    return this.lastAccepted;
  }
}
