/**
 * The first configuration of a new cluster, from `cluster.initial_master_nodes` (Elasticsearch's
 * ClusterBootstrapService): once this node has discovered more than half of the named nodes,
 * the configuration is their ids, with a placeholder for each one not found yet, so that the
 * quorum is the same size whichever nodes bootstrap. Only a node that is named itself
 * bootstraps; the others join the cluster the named ones form.
 */
import type { ClusterState, DiscoveryNode } from './cluster-state.ts';
import { BOOTSTRAP_PLACEHOLDER_PREFIX, votingConfig } from './voting-config.ts';

export function bootstrapState(
  accepted: ClusterState,
  local: DiscoveryNode,
  masterEligible: readonly DiscoveryNode[],
  wanted: readonly string[],
  uuid: () => string,
): ClusterState | null {
  const named = (n: DiscoveryNode, req: string) => n.name === req || n.id === req;
  if (!wanted.some((r) => named(local, r))) return null;
  const ids: string[] = [];
  let missing = 0;
  for (const req of new Set(wanted)) {
    const found = masterEligible.find((n) => named(n, req));
    if (found) ids.push(found.id);
    else {
      ids.push(`${BOOTSTRAP_PLACEHOLDER_PREFIX}${req}`);
      missing++;
    }
  }
  if (missing * 2 >= ids.length) return null;
  const config = votingConfig(ids);
  return {
    ...accepted,
    clusterUuid: uuid(),
    clusterUuidCommitted: false,
    coordination: { ...accepted.coordination, lastCommittedConfig: config, lastAcceptedConfig: config },
  };
}
