/** The `{node_id}` part of the node APIs, resolved against the cluster state this node applied. */
import { type DiscoveryNode, resolveNodeDescriptions } from '@shoal/cluster';
import type { NodeServices } from '../services.ts';

/** Strings.splitStringByCommaToArray: empty entries dropped. */
export const split = (v: string | undefined): string[] => (v ?? '').split(',').filter((x) => x !== '');

/** The nodes a `{node_id}` filter names, in the applied state. */
export function filteredNodes(s: NodeServices, spec: string | undefined): DiscoveryNode[] {
  const state = s.cluster.state();
  const all = Object.values(state.nodes);
  const nodes = all.length > 0 ? all : [s.cluster.local];
  const ids = resolveNodeDescriptions(split(spec), nodes, s.cluster.local.id, state.masterNodeId);
  return nodes.filter((n) => ids.has(n.id));
}
