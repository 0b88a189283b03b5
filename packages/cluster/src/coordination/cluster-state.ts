/**
 * The cluster state the master owns and publishes: the nodes, the coordination metadata
 * (term, the last committed and last accepted voting configurations, the voting-config
 * exclusions), the persistent cluster settings, and the application's metadata (indices and
 * the like), which coordination carries without reading it.
 */
import { EMPTY_ROUTING, type RoutingTable } from '../allocation/routing-table.ts';
import { EMPTY_CONFIG, type VotingConfig } from './voting-config.ts';

export interface DiscoveryNode {
  /** Persistent: kept in the node's data path across restarts. */
  id: string;
  name: string;
  /** New at every start of the process: a restarted node is a new member. */
  ephemeralId: string;
  host: string;
  transportPort: number;
  httpPort: number;
  /** Sorted role names (`data`, `ingest`, `master`, …). */
  roles: readonly string[];
}

export const isMasterEligible = (n: DiscoveryNode): boolean => n.roles.includes('master');

/** Elasticsearch's VotingConfigExclusion; `_absent_` marks the part that named no known node. */
export interface VotingConfigExclusion {
  nodeId: string;
  nodeName: string;
}

export const ABSENT = '_absent_';

export interface CoordinationMetadata {
  term: number;
  lastCommittedConfig: VotingConfig;
  lastAcceptedConfig: VotingConfig;
  exclusions: readonly VotingConfigExclusion[];
}

export interface ClusterState {
  clusterName: string;
  clusterUuid: string;
  clusterUuidCommitted: boolean;
  /** Raised by one at every publication; with the term it orders states. */
  version: number;
  /** Unique to one published state. */
  stateUuid: string;
  masterNodeId: string | null;
  nodes: Readonly<Record<string, DiscoveryNode>>;
  coordination: CoordinationMetadata;
  /** Persistent cluster settings, flat (`cluster.max_voting_config_exclusions` → `"10"`). */
  settings: Readonly<Record<string, string>>;
  /** The application's part (index metadata, …), opaque to coordination. */
  metadata: Readonly<Record<string, unknown>>;
  /** Where every shard copy is (allocation/); the master keeps it in step with the nodes and indices. */
  routingTable: RoutingTable;
  /**
   * Read from disk at start-up and not yet recovered by an elected master (Elasticsearch's
   * global block "state not recovered / initialized"): its routing table names copies as they
   * were before the restart, and no node opens or routes to them.
   */
  stateNotRecovered?: boolean;
}

/** A node's state before it has joined or bootstrapped a cluster: version 0, no configuration. */
export function initialClusterState(clusterName: string): ClusterState {
  return {
    clusterName,
    clusterUuid: ABSENT,
    clusterUuidCommitted: false,
    version: 0,
    stateUuid: ABSENT,
    masterNodeId: null,
    nodes: {},
    coordination: {
      term: 0,
      lastCommittedConfig: EMPTY_CONFIG,
      lastAcceptedConfig: EMPTY_CONFIG,
      exclusions: [],
    },
    settings: {},
    metadata: {},
    routingTable: EMPTY_ROUTING,
  };
}

export const stateTerm = (s: ClusterState): number => s.coordination.term;

/**
 * The last accepted state as a node reads it from disk at start-up, as Elasticsearch prepares
 * its initial state: not recovered yet, and with none of the nodes of the old incarnations
 * (each joins again).
 */
export function loadedFromDisk(state: ClusterState): ClusterState {
  if (state.version === 0) return state;
  return { ...state, nodes: {}, stateNotRecovered: true };
}

/** What a node keeps on disk before it answers: its term and the last state it accepted. */
export interface PersistedCoordination {
  currentTerm: number;
  lastAccepted: ClusterState;
}
