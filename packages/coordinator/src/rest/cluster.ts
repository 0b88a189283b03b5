/** `GET /`, `_cluster/health`, `_cluster/settings`, `_nodes/stats`. */
import { type FlatSettings, renderSettings, type SettingsUpdate, SHOAL_VERSION } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { clusterHealth, type Health } from './health.ts';
import { boolParam } from './params.ts';

/** The Elasticsearch version Shoal answers as (its wire behaviour follows the newest 8.x). */
export const COMPATIBLE_ES_VERSION = '8.17.0';

function root(_req: RestRequest, s: NodeServices): RestResponse {
  return {
    status: 200,
    body: {
      name: s.node.name,
      cluster_name: s.node.clusterName,
      cluster_uuid: s.node.clusterUuid,
      version: {
        number: COMPATIBLE_ES_VERSION,
        build_flavor: 'default',
        build_type: 'shoal',
        build_hash: `shoal-${SHOAL_VERSION}`,
        build_date: '2026-11-21T00:00:00.000Z',
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

async function health(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const wanted = req.query.wait_for_status as Health | undefined;
  const timeoutMs = req.query.timeout ? Number.parseInt(req.query.timeout, 10) * 1000 || 30_000 : 30_000;
  const deadline = Date.now() + timeoutMs;
  let h = clusterHealth(s);
  while (wanted && HEALTH_ORDER[h.status] < HEALTH_ORDER[wanted] && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    h = clusterHealth(s);
  }
  const timedOut = wanted !== undefined && HEALTH_ORDER[h.status] < HEALTH_ORDER[wanted];
  return { status: timedOut ? 408 : 200, body: { ...h, timed_out: timedOut } };
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
  return {
    status: 200,
    body: {
      acknowledged: true,
      persistent: renderSettings(withoutResets(applied.persistent), { flat: false, includeDefaults: false }),
      transient: renderSettings(withoutResets(applied.transient), { flat: false, includeDefaults: false }),
    },
  };
}

/** Elasticsearch echoes the applied settings; a `null` (reset) is not shown. */
function withoutResets(update: SettingsUpdate): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(update)) if (v !== null) out[k] = v;
  return out;
}

function nodesStats(_req: RestRequest, s: NodeServices): RestResponse {
  const c = s.counters;
  const ctx = s.leases.counters.totals();
  const mem = process.memoryUsage();
  return {
    status: 200,
    body: {
      _nodes: { total: 1, successful: 1, failed: 0 },
      cluster_name: s.node.clusterName,
      nodes: {
        [s.node.id]: {
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
        },
      },
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
