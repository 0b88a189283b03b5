/**
 * Node descriptions as Elasticsearch's DiscoveryNodes.resolveNodes reads them (the `{node_id}`
 * of `_nodes`, `_cat/nodes`, and the deprecated voting-exclusion path): `_all`, `_local`,
 * `_master`, node ids, names, host addresses, `*` wildcards over ids and names, and role
 * filters such as `master:true` or `data:false`; applied in order, a role filter adds or
 * removes nodes of that role.
 */
import type { DiscoveryNode } from './cluster-state.ts';

const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

const ROLE_FILTERS = new Set([
  'master',
  'data',
  'ingest',
  'ml',
  'transform',
  'remote_cluster_client',
  'voting_only',
]);

export function resolveNodeDescriptions(
  descriptions: readonly string[],
  nodes: readonly DiscoveryNode[],
  localId: string,
  masterId: string | null,
): Set<string> {
  if (descriptions.length === 0) return new Set(nodes.map((n) => n.id));
  const out = new Set<string>();
  for (const raw of descriptions) {
    const d = raw.trim();
    if (d === '_all' || d === '*') for (const n of nodes) out.add(n.id);
    else if (d === '_local') out.add(localId);
    else if (d === '_master') {
      if (masterId) out.add(masterId);
    } else if (d.includes(':')) {
      const [role, value] = d.split(':', 2) as [string, string];
      if (!ROLE_FILTERS.has(role)) continue;
      for (const n of nodes) {
        if (!n.roles.includes(role)) continue;
        if (value === 'true') out.add(n.id);
        else out.delete(n.id);
      }
    } else if (d.includes('*')) {
      const re = wildcard(d);
      for (const n of nodes) if (re.test(n.id) || re.test(n.name)) out.add(n.id);
    } else {
      for (const n of nodes) {
        if (n.id === d || n.name === d || n.host === d || `${n.host}:${n.transportPort}` === d) out.add(n.id);
      }
    }
  }
  return out;
}
