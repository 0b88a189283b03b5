/**
 * What the coordination state machine takes and gives: the tasks that change the cluster
 * state, their outcomes, the effects of one step, and the options it is made with.
 */
import type { ClusterState, DiscoveryNode, PersistedCoordination } from './cluster-state.ts';
import type { CoordinationMessage } from './messages.ts';
import type { CoordinationSettings } from './settings.ts';

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

/** The master's publication in flight. */
export interface Publication {
  state: ClusterState;
  tasks: StateTask[];
  acked: Set<string>;
  committed: boolean;
  deadline: number;
}

/** Raised to a task submitted to (or queued on) a node that is not, or no longer, the master. */
export class NotMasterError extends Error {
  constructor() {
    super('no longer master');
  }
}
