/** `GET /`, `_cluster/health`, `_cluster/settings`, `_nodes/stats`. */
import {
  type FlatSettings,
  illegalArgument,
  parseActiveShardCount,
  parseTimeValue,
  renderSettings,
  type SettingsUpdate,
  SHOAL_VERSION,
  ShoalError,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { type IndicesOptions, indicesOptionsFrom } from '../state/resolve-indices.ts';
import { clusterHealth, type Health } from './health.ts';
import { filteredNodes } from './node-filter.ts';
import { boolParam, statsLevelParam } from './params.ts';

/** The Elasticsearch version Shoal answers as (its wire behaviour follows the newest 8.x). */
export const COMPATIBLE_ES_VERSION = '8.17.0';

/** The build date `GET /` and `GET /_ext` report. */
export const BUILD_DATE = '2026-11-21T00:00:00.000Z';

function clusterUuidOf(s: NodeServices): string {
  const st = s.cluster.state();
  return st.clusterUuidCommitted ? st.clusterUuid : '_na_';
}

function root(_req: RestRequest, s: NodeServices): RestResponse {
  return {
    status: 200,
    body: {
      name: s.node.name,
      cluster_name: s.node.clusterName,
      // `_na_` until the cluster has formed and committed its uuid, as Elasticsearch answers.
      cluster_uuid: clusterUuidOf(s),
      version: {
        number: COMPATIBLE_ES_VERSION,
        build_flavor: 'default',
        build_type: 'shoal',
        build_hash: `shoal-${SHOAL_VERSION}`,
        build_date: BUILD_DATE,
        build_snapshot: false,
        lucene_version: '9.12.0',
        minimum_wire_compatibility_version: '7.17.0',
        minimum_index_compatibility_version: '7.0.0',
      },
      tagline: 'Shoal: many small fish, one search',
    },
  };
}

const HEALTH_ORDER: Record<Health, number> = { red: 0, yellow: 1, green: 2 };

/** ClusterHealthRequest's default: missing names are skipped when counting, and wildcards reach closed and hidden indices. */
const HEALTH_COUNT_OPTIONS: IndicesOptions = {
  ignoreUnavailable: true,
  allowNoIndices: true,
  expandWildcards: new Set(['open', 'closed', 'hidden']),
};

/** IndicesOptions.strictExpand: the check that every named index exists, one of the conditions health waits for. */
const HEALTH_EXISTS_OPTIONS: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandWildcards: new Set(['open', 'closed']),
};

/** RestClusterHealthAction reads `wait_for_status` with ClusterHealthStatus.valueOf on the upper-cased value. */
function healthParam(v: string | undefined): Health | undefined {
  if (v === undefined) return undefined;
  const lower = v.toLowerCase();
  if (lower === 'green' || lower === 'yellow' || lower === 'red') return lower;
  throw illegalArgument(
    `No enum constant org.elasticsearch.cluster.health.ClusterHealthStatus.${v.toUpperCase()}`,
  );
}

/** `wait_for_nodes`: `N`, `>=N`, `<=N`, `>N`, `<N` or `ge(N)`, `le(N)`, `gt(N)`, `lt(N)`. */
function nodeCountMatches(spec: string, nodes: number): boolean {
  const m = /^(>=|<=|>|<|ge\(|le\(|gt\(|lt\()?(.*?)\)?$/.exec(spec);
  const op = m?.[1] ?? '';
  const n = Number.parseInt(m?.[2] ?? '', 10);
  if (Number.isNaN(n)) return false;
  switch (op) {
    case '>=':
    case 'ge(':
      return nodes >= n;
    case '<=':
    case 'le(':
      return nodes <= n;
    case '>':
    case 'gt(':
      return nodes > n;
    case '<':
    case 'lt(':
      return nodes < n;
    default:
      return nodes === n;
  }
}

/**
 * `_cluster/health[/{index}]`, as TransportClusterHealthAction answers it: each `wait_for_*`
 * and every named index existing are conditions; until all hold (or `timeout`, 30s by default,
 * passes) the request waits. A named index that does not exist makes the status red. When the
 * conditions are not met in time the body says `timed_out: true` and the status is 408.
 */
async function health(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const q = req.query;
  const wanted = healthParam(q.wait_for_status);
  const nodesWanted = q.wait_for_nodes;
  const noRelocating = boolParam(q, 'wait_for_no_relocating_shards', false);
  const noInitializing = boolParam(q, 'wait_for_no_initializing_shards', false);
  const activeShards = parseActiveShardCount(q.wait_for_active_shards);
  const timeoutMs = q.timeout === undefined ? 30_000 : parseTimeValue(q.timeout, 'timeout');
  // Validated after the other parameters, as Elasticsearch's fromRequest does.
  const level = statsLevelParam(q, 'cluster');
  const expr = req.params.index;
  const named = expr !== undefined && expr !== '' && expr !== '_all';
  const countOptions = indicesOptionsFrom(q, HEALTH_COUNT_OPTIONS);

  const evaluate = () => {
    const metas = named ? s.indices.resolve(expr, countOptions) : undefined;
    const h = clusterHealth(s, metas, level);
    let met = true;
    if (named) {
      try {
        s.indices.resolve(expr, HEALTH_EXISTS_OPTIONS);
      } catch (e) {
        if (!(e instanceof ShoalError) || e.type !== 'index_not_found_exception') throw e;
        h.status = 'red';
        met = false;
      }
    }
    if (wanted !== undefined && HEALTH_ORDER[h.status] < HEALTH_ORDER[wanted]) met = false;
    if (noRelocating && h.relocating_shards > 0) met = false;
    if (noInitializing && h.initializing_shards > 0) met = false;
    if (activeShards === 'all' && (h.unassigned_shards > 0 || h.initializing_shards > 0)) met = false;
    if (typeof activeShards === 'number' && h.active_shards < activeShards) met = false;
    if (nodesWanted && !nodeCountMatches(nodesWanted, h.number_of_nodes)) met = false;
    return { h, met };
  };

  const deadline = Date.now() + Math.max(timeoutMs, 0);
  let { h, met } = evaluate();
  while (!met && Date.now() < deadline && !req.signal.aborted) {
    await new Promise((r) => setTimeout(r, Math.min(50, Math.max(deadline - Date.now(), 1))));
    ({ h, met } = evaluate());
  }
  return { status: met ? 200 : 408, body: { ...h, timed_out: !met } };
}

function getClusterSettings(req: RestRequest, s: NodeServices): RestResponse {
  const flat = boolParam(req.query, 'flat_settings', false);
  const { persistent, transient } = s.clusterSettings.view();
  const body: Record<string, unknown> = {
    persistent: renderSettings(persistent, { flat, includeDefaults: false }),
    transient: renderSettings(transient, { flat, includeDefaults: false }),
  };
  if (boolParam(req.query, 'include_defaults', false)) {
    body.defaults = renderSettings({}, { flat, includeDefaults: true, scope: 'cluster' });
  }
  return { status: 200, body };
}

function putClusterSettings(req: RestRequest, s: NodeServices): RestResponse {
  const body = (req.json() ?? {}) as { persistent?: unknown; transient?: unknown };
  const applied = s.clusterSettings.update(body);
  req.warnings.push(...applied.warnings);
  // The echo honours `flat_settings` like every Settings rendering.
  const flat = boolParam(req.query, 'flat_settings', false);
  return {
    status: 200,
    body: {
      acknowledged: true,
      persistent: renderSettings(withoutResets(applied.persistent), { flat, includeDefaults: false }),
      transient: renderSettings(withoutResets(applied.transient), { flat, includeDefaults: false }),
    },
  };
}

/** Elasticsearch echoes the applied settings; a `null` (reset) is not shown. */
function withoutResets(update: SettingsUpdate): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(update)) if (v !== null) out[k] = v;
  return out;
}

/** This node's entry of `_nodes/stats`; every node serves it for the node that was asked. */
export function localNodeStats(s: NodeServices): Record<string, unknown> {
  const c = s.counters;
  const ctx = s.leases.counters.totals();
  const mem = process.memoryUsage();
  return {
    timestamp: Date.now(),
    name: s.node.name,
    transport_address: `${s.node.host}:${s.node.transportPort}`,
    host: s.node.host,
    ip: `${s.node.host}:${s.node.transportPort}`,
    roles: s.node.roles,
    indices: {
      indexing: { index_total: c.indexTotal },
      search: {
        open_contexts: ctx.openContexts,
        query_total: c.queryTotal,
        query_time_in_millis: c.queryTimeMs,
        query_current: c.queryCurrent,
        query_failure: c.queryFailure,
        fetch_total: c.fetchTotal,
        fetch_time_in_millis: c.fetchTimeMs,
        fetch_current: c.fetchCurrent,
        fetch_failure: c.fetchFailure,
        scroll_total: ctx.scrollTotal,
        scroll_time_in_millis: ctx.scrollTimeMs,
        scroll_current: ctx.scrollCurrent,
        suggest_total: 0,
        suggest_time_in_millis: 0,
        suggest_current: 0,
      },
    },
    // Shoal's own: open PITs, and the slice filters cached with the readers contexts pin.
    search_contexts: {
      open_point_in_time_contexts: ctx.pitCurrent,
      open_scroll_contexts: ctx.scrollCurrent,
      slice_filter_memory_in_bytes: ctx.sliceFilterBytes,
    },
    process: { mem: { resident_set_size_in_bytes: mem.rss } },
    jvm: { mem: { heap_used_in_bytes: mem.heapUsed, heap_committed_in_bytes: mem.heapTotal } },
  };
}

export const NODE_STATS_ACTION = 'cluster:monitor/nodes/stats[n]';

/**
 * `_nodes/stats` for the nodes the `{node_id}` filter names (all by default), each node
 * answering for itself; a node that does not answer counts under `_nodes.failed`.
 */
async function nodesStats(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const nodes = filteredNodes(s, req.params.nodeId);
  const answers = await Promise.all(
    nodes.map((n) =>
      s.cluster
        .request<Record<string, unknown>>(n, NODE_STATS_ACTION, null, 30_000, req.signal)
        .catch(() => null),
    ),
  );
  const out: Record<string, unknown> = {};
  nodes.forEach((n, i) => {
    const a = answers[i];
    if (a) out[n.id] = a;
  });
  const ok = Object.keys(out).length;
  return {
    status: 200,
    body: {
      _nodes: { total: nodes.length, successful: ok, failed: nodes.length - ok },
      cluster_name: s.node.clusterName,
      nodes: out,
    },
  };
}

export function clusterRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/', action: 'cluster:monitor/main', handler: root },
    { method: 'HEAD', path: '/', action: 'cluster:monitor/main', handler: root },
    { method: 'GET', path: '/_cluster/health', action: 'cluster:monitor/health', handler: health },
    { method: 'GET', path: '/_cluster/health/:index', action: 'cluster:monitor/health', handler: health },
    {
      method: 'GET',
      path: '/_cluster/settings',
      action: 'cluster:monitor/settings',
      handler: getClusterSettings,
    },
    {
      method: 'PUT',
      path: '/_cluster/settings',
      action: 'cluster:admin/settings/update',
      handler: putClusterSettings,
    },
    { method: 'GET', path: '/_nodes/stats', action: 'cluster:monitor/nodes/stats', handler: nodesStats },
    {
      method: 'GET',
      path: '/_nodes/:nodeId/stats',
      action: 'cluster:monitor/nodes/stats',
      handler: nodesStats,
    },
    {
      method: 'GET',
      path: '/_nodes/:nodeId/stats/:metric',
      action: 'cluster:monitor/nodes/stats',
      handler: nodesStats,
    },
    {
      method: 'GET',
      path: '/_nodes/stats/:metric',
      action: 'cluster:monitor/nodes/stats',
      handler: nodesStats,
    },
    {
      method: 'GET',
      path: '/_nodes/stats/:metric/:sub',
      action: 'cluster:monitor/nodes/stats',
      handler: nodesStats,
    },
  ];
}
