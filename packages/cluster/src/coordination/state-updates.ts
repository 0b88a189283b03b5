/**
 * The master's own changes to the cluster state: a node joins, nodes leave, the voting
 * configuration is improved. Pure functions of a state; the coordinator runs them as tasks.
 */
import { ABSENT, type ClusterState, type DiscoveryNode, isMasterEligible } from './cluster-state.ts';
import { reconfigure } from './reconfigurator.ts';
import { AUTO_SHRINK_SETTING } from './settings.ts';
import { sameConfig } from './voting-config.ts';

/**
 * Adds (or, after a restart, replaces) a node. An exclusion that named the node by a name no
 * node had carries its id from now on, as Elasticsearch's JoinTaskExecutor does.
 */
export function withNodeJoined(state: ClusterState, node: DiscoveryNode): ClusterState {
  const existing = state.nodes[node.id];
  const exclusions = state.coordination.exclusions;
  const rewrite = exclusions.some((e) => e.nodeId === ABSENT && e.nodeName === node.name);
  if (existing && existing.ephemeralId === node.ephemeralId && !rewrite) return state;
  return {
    ...state,
    nodes: { ...state.nodes, [node.id]: node },
    coordination: rewrite
      ? {
          ...state.coordination,
          exclusions: exclusions.map((e) =>
            e.nodeId === ABSENT && e.nodeName === node.name ? { nodeId: node.id, nodeName: node.name } : e,
          ),
        }
      : state.coordination,
  };
}

export function withNodesLeft(state: ClusterState, ids: Iterable<string>): ClusterState {
  let nodes: Record<string, DiscoveryNode> | undefined;
  for (const id of ids) {
    if (!(id in state.nodes)) continue;
    nodes ??= { ...state.nodes };
    delete nodes[id];
  }
  return nodes ? { ...state, nodes } : state;
}

/**
 * Elasticsearch's Coordinator.improveConfiguration: the live nodes are those of the state that
 * voted for this master, and the Reconfigurator picks the configuration among them.
 */
export function improvedConfiguration(
  state: ClusterState,
  masterId: string,
  voters: ReadonlySet<string>,
): ClusterState {
  const live = new Set<string>();
  for (const n of Object.values(state.nodes)) if (isMasterEligible(n) && voters.has(n.id)) live.add(n.id);
  const current = state.coordination.lastAcceptedConfig;
  const next = reconfigure({
    live,
    retired: new Set(state.coordination.exclusions.map((e) => e.nodeId)),
    masterId,
    current,
    autoShrink: state.settings[AUTO_SHRINK_SETTING] !== 'false',
  });
  if (sameConfig(next, current)) return state;
  return { ...state, coordination: { ...state.coordination, lastAcceptedConfig: next } };
}
