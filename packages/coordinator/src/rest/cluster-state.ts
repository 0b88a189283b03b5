/**
 * `GET /_cluster/state[/{metric}[/{index}]]`, as Elasticsearch's RestClusterStateAction and
 * ClusterState.toXContent write it: the cluster name and uuid always; `version` and
 * `state_uuid`, `master_node`, `blocks`, `nodes`, `metadata` (with `cluster_coordination`: the
 * term, both voting configurations and the voting-config exclusions), `routing_table` and
 * `routing_nodes` as the metrics ask, all from the state this node applied (on a single node,
 * index metadata and routing are this node's own).
 */
import type { ClusterState } from '@shoal/cluster';
import { renderSettings } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { type IndicesOptions, indicesOptionsFrom } from '../state/resolve-indices.ts';

/** ClusterStateRequest's default, IndicesOptions.lenientExpandOpen. */
const CLUSTER_STATE_INDICES_OPTIONS: IndicesOptions = {
  ignoreUnavailable: true,
  allowNoIndices: true,
  expandWildcards: new Set(['open']),
};

const METRICS = [
  'version',
  'master_node',
  'blocks',
  'nodes',
  'metadata',
  'routing_table',
  'routing_nodes',
  'customs',
];

/** ClusterState.Metric.parseString with ignoreUnknown, as RestClusterStateAction calls it: an unknown metric is left out. */
function parseMetrics(param: string | undefined): Set<string> {
  if (param === undefined || param === '' || param === '_all') return new Set(METRICS);
  const out = new Set<string>();
  for (const m of param.split(',')) {
    if (m === '_all') for (const x of METRICS) out.add(x);
    else if (METRICS.includes(m)) out.add(m);
  }
  return out;
}

export function nodeJson(n: ClusterState['nodes'][string]): Record<string, unknown> {
  return {
    name: n.name,
    ephemeral_id: n.ephemeralId,
    transport_address: `${n.host}:${n.transportPort}`,
    external_id: n.name,
    attributes: {},
    roles: [...n.roles].sort(),
  };
}

function indexMetadataJson(meta: IndexMetadata, s: NodeServices): Record<string, unknown> {
  const copies = s.shards.copies(meta.uuid);
  const primaryTerms: Record<string, number> = {};
  const inSync: Record<string, string[]> = {};
  for (let i = 0; i < meta.numberOfShards; i++) {
    primaryTerms[String(i)] = s.shards.primary(meta.uuid, i)?.primaryTerm ?? 1;
    inSync[String(i)] = copies
      .filter((c) => c.shardId === i && (c.inSync ?? c.state === 'STARTED'))
      .map((c) => c.allocationId ?? c.key);
  }
  return {
    version: meta.mappingVersion + meta.settingsVersion + meta.aliasesVersion,
    mapping_version: meta.mappingVersion,
    settings_version: meta.settingsVersion,
    aliases_version: meta.aliasesVersion,
    routing_num_shards: meta.routingNumShards,
    state: meta.state,
    settings: renderSettings(meta.settings, { flat: false, includeDefaults: false }),
    mappings: { _doc: meta.mapping.toDisplayJSON() },
    aliases: [...meta.aliases.keys()].sort(),
    primary_terms: primaryTerms,
    in_sync_allocations: inSync,
    rollover_info: {},
    system: false,
  };
}

const isAssigned = (c: ShardCopy): boolean =>
  c.state === 'STARTED' || c.state === 'INITIALIZING' || c.state === 'RELOCATING';

function routingJson(metas: IndexMetadata[], s: NodeServices, nodeId: string): Record<string, unknown> {
  const indices: Record<string, unknown> = {};
  for (const meta of metas) {
    const shards: Record<string, unknown[]> = {};
    for (const c of s.shards.copies(meta.uuid)) {
      const started = isAssigned(c);
      const list = shards[String(c.shardId)] ?? [];
      shards[String(c.shardId)] = list;
      list.push({
        state: c.state === 'FAILED' ? 'UNASSIGNED' : c.state,
        primary: c.primary,
        node: started ? (c.node ?? nodeId) : null,
        relocating_node: null,
        shard: c.shardId,
        index: meta.name,
        ...(started ? { allocation_id: { id: c.allocationId ?? c.key } } : {}),
      });
    }
    indices[meta.name] = { shards };
  }
  return indices;
}

/** Elasticsearch's global block of a state read from disk that no master has recovered yet. */
const STATE_NOT_RECOVERED = {
  description: 'state not recovered / initialized',
  retryable: true,
  disable_state_persistence: true,
  levels: ['read', 'write', 'metadata_read', 'metadata_write'],
};

function clusterState(req: RestRequest, s: NodeServices): RestResponse {
  const metrics = parseMetrics(req.params.metric);
  const state = s.cluster.state();
  const indexExpr = req.params.index;
  const metas =
    indexExpr === undefined || indexExpr === '' || indexExpr === '_all'
      ? [...s.indices.all().values()]
      : s.indices.resolve(indexExpr, indicesOptionsFrom(req.query, CLUSTER_STATE_INDICES_OPTIONS));
  const c = state.coordination;
  const body: Record<string, unknown> = { cluster_name: state.clusterName, cluster_uuid: state.clusterUuid };
  if (metrics.has('version')) {
    body.version = state.version;
    body.state_uuid = state.stateUuid;
  }
  if (metrics.has('master_node')) body.master_node = state.masterNodeId;
  if (metrics.has('blocks'))
    body.blocks = state.stateNotRecovered ? { global: { '1': STATE_NOT_RECOVERED } } : {};
  if (metrics.has('nodes')) {
    body.nodes = Object.fromEntries(Object.values(state.nodes).map((n) => [n.id, nodeJson(n)]));
  }
  if (metrics.has('metadata')) {
    body.metadata = {
      cluster_uuid: state.clusterUuid,
      cluster_uuid_committed: state.clusterUuidCommitted,
      cluster_coordination: {
        term: c.term,
        last_committed_config: [...c.lastCommittedConfig],
        last_accepted_config: [...c.lastAcceptedConfig],
        voting_config_exclusions: c.exclusions.map((e) => ({ node_id: e.nodeId, node_name: e.nodeName })),
      },
      templates: {},
      indices: Object.fromEntries(metas.map((m) => [m.name, indexMetadataJson(m, s)])),
      'index-graveyard': { tombstones: [] },
    };
  }
  if (metrics.has('routing_table')) body.routing_table = { indices: routingJson(metas, s, s.node.id) };
  if (metrics.has('routing_nodes')) {
    const assigned = s.shards.all().filter(isAssigned);
    const unassigned = s.shards.all().filter((x) => !isAssigned(x));
    const row = (x: ShardCopy, node: string | null) => ({
      state: x.state === 'FAILED' ? 'UNASSIGNED' : x.state,
      primary: x.primary,
      node,
      relocating_node: null,
      shard: x.shardId,
      index: x.index,
    });
    // Every node of the state has its list, empty or not, as RoutingNodes has.
    const nodes: Record<string, unknown[]> = {};
    for (const id of Object.keys(state.nodes)) nodes[id] = [];
    for (const x of assigned) {
      const node = x.node ?? s.node.id;
      const list = nodes[node] ?? [];
      nodes[node] = list;
      list.push(row(x, node));
    }
    body.routing_nodes = { unassigned: unassigned.map((x) => row(x, null)), nodes };
  }
  return { status: 200, body };
}

export function clusterStateRoutes(): Route<NodeServices>[] {
  const action = 'cluster:monitor/state';
  return [
    { method: 'GET', path: '/_cluster/state', action, handler: clusterState },
    { method: 'GET', path: '/_cluster/state/:metric', action, handler: clusterState },
    { method: 'GET', path: '/_cluster/state/:metric/:index', action, handler: clusterState },
  ];
}
