/**
 * `GET /_nodes[/{node_id}[/{metric}]]` (nodes info): the nodes of the applied cluster state that
 * the node filter names (`_all`, `_local`, `_master`, ids, names, addresses, wildcards,
 * `master:true`…), each asked for its own details; a node that does not answer in `timeout`
 * counts under `_nodes.failed`. A single path part that is made of metric names only is taken
 * as metrics, as Elasticsearch's RestNodesInfoAction does (`/_nodes/os`).
 */
import type { DiscoveryNode } from '@shoal/cluster';
import { parseTimeValue } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { filteredNodes, split } from './node-filter.ts';
import { type LocalNodeInfo, NODE_INFO_ACTION, nodeInfoJson } from './node-info.ts';

const METRICS = new Set([
  'settings',
  'os',
  'process',
  'jvm',
  'thread_pool',
  'transport',
  'http',
  'plugins',
  'modules',
  'ingest',
  'aggregations',
  'indices',
]);

/** Each node's own details, asked in parallel; null for a node that did not answer. */
export async function gatherNodeInfo(
  s: NodeServices,
  nodes: DiscoveryNode[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<(LocalNodeInfo | null)[]> {
  return Promise.all(
    nodes.map((n) =>
      s.cluster.request<LocalNodeInfo>(n, NODE_INFO_ACTION, null, timeoutMs, signal).catch(() => null),
    ),
  );
}

async function nodesInfo(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  let nodeSpec = req.params.nodeId;
  let metricSpec = req.params.metric;
  if (metricSpec === undefined && nodeSpec !== undefined) {
    const parts = split(nodeSpec);
    if (parts.length > 0 && parts.every((p) => METRICS.has(p) || p === '_all')) {
      metricSpec = nodeSpec;
      nodeSpec = undefined;
    }
  }
  const metrics = metricSpec === undefined || metricSpec === '_all' ? null : new Set(split(metricSpec));
  const timeoutMs = req.query.timeout === undefined ? 30_000 : parseTimeValue(req.query.timeout, 'timeout');
  const nodes = filteredNodes(s, nodeSpec);
  const infos = await gatherNodeInfo(s, nodes, timeoutMs, req.signal);
  const out: Record<string, unknown> = {};
  const failures: unknown[] = [];
  nodes.forEach((n, i) => {
    const info = infos[i];
    if (info) out[n.id] = nodeInfoJson(n, info, s.node.clusterName, metrics);
    else {
      failures.push({
        type: 'failed_node_exception',
        reason: `Failed node [${n.id}]`,
        node_id: n.id,
      });
    }
  });
  const header: Record<string, unknown> = {
    total: nodes.length,
    successful: nodes.length - failures.length,
    failed: failures.length,
  };
  if (failures.length > 0) header.failures = failures;
  return { status: 200, body: { _nodes: header, cluster_name: s.node.clusterName, nodes: out } };
}

export function nodesInfoRoutes(): Route<NodeServices>[] {
  const action = 'cluster:monitor/nodes/info';
  return [
    { method: 'GET', path: '/_nodes', action, handler: nodesInfo },
    { method: 'GET', path: '/_nodes/:nodeId', action, handler: nodesInfo },
    { method: 'GET', path: '/_nodes/:nodeId/:metric', action, handler: nodesInfo },
  ];
}
