export { type IndexToAllocate, reroute } from './allocation/allocator.ts';
export { primaryTermOf, withPrimaryTerms } from './allocation/primary-terms.ts';
export {
  copiesOnNode,
  EMPTY_ROUTING,
  type IndexRouting,
  isActive,
  type RoutingTable,
  type ShardRouting,
  type ShardRoutingState,
  type UnassignedInfo,
} from './allocation/routing-table.ts';
export {
  ABSENT,
  type ClusterState,
  type DiscoveryNode,
  initialClusterState,
  isMasterEligible,
  type PersistedCoordination,
  type VotingConfigExclusion,
} from './coordination/cluster-state.ts';
export {
  Coordinator,
  type Effects,
  type Mode,
  NotMasterError,
  type StateTask,
} from './coordination/coordinator.ts';
export {
  DEFAULT_MAX_EXCLUSIONS,
  describeExclusion,
  type ExclusionRequest,
  MAX_EXCLUSIONS_SETTING,
  maxExclusions,
  resolveExclusions,
  withExclusionsAdded,
  withExclusionsCleared,
} from './coordination/exclusions.ts';
export { resolveNodeDescriptions } from './coordination/node-filters.ts';
export { AUTO_SHRINK_SETTING, type CoordinationSettings } from './coordination/settings.ts';
export {
  type ClusterLog,
  ClusterService,
  type ClusterServiceOptions,
  type ClusterTaskSpec,
} from './node/cluster-service.ts';
export { LIST_SHARD_STORES_ACTION, type ShardStoreListing } from './node/shard-stores.ts';
export { TcpTransport } from './transport/tcp-transport.ts';
