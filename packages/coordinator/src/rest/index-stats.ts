/**
 * `GET /_stats`, `GET /{index}/_stats[/{metric}]`: per index and for `_all`, the `primaries`
 * and `total` sections docs, store, indexing, search, segments (count), merges, refresh, flush,
 * translog and request_cache in Elasticsearch's shape (IndicesStatsResponse). Replicas are
 * never assigned on one node, so `total` equals `primaries`.
 */
import { illegalArgument } from '@shoal/protocol';
import type { ShardStats } from '@shoal/shard';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { indexHealth } from './health.ts';

const METRICS = [
  'docs',
  'store',
  'indexing',
  'search',
  'segments',
  'merges',
  'refresh',
  'flush',
  'translog',
  'request_cache',
] as const;
type Metric = (typeof METRICS)[number];

/** Every shard's stats, from the worker threads that own them. */
export async function allShardStats(s: NodeServices): Promise<Map<string, ShardStats>> {
  const out = new Map<string, ShardStats>();
  await Promise.all(
    s.workers.map(async (w) => {
      if (w.shards.size === 0) return;
      try {
        const r = await w.run({ t: 'stats', keys: [...w.shards] });
        for (const st of r.shards) out.set(st.key, st);
      } catch {
        // A dead worker has no stats; its shards show as failed.
      }
    }),
  );
  return out;
}

const ms = (v: number) => Math.round(v);

function sections(stats: ShardStats[]): Record<Metric, Record<string, unknown>> {
  const sum = (f: (st: ShardStats) => number | undefined) => stats.reduce((n, st) => n + (f(st) ?? 0), 0);
  const d = (f: (det: NonNullable<ShardStats['detail']>) => number) =>
    sum((st) => (st.detail ? f(st.detail) : 0));
  const storeBytes = sum((st) => st.detail?.storeBytes ?? st.docs.sizeInBytes);
  return {
    docs: {
      count: sum((st) => st.docs.count),
      deleted: sum((st) => st.docs.deleted),
      total_size_in_bytes: sum((st) => st.docs.sizeInBytes),
    },
    store: { size_in_bytes: storeBytes, total_data_set_size_in_bytes: storeBytes, reserved_in_bytes: 0 },
    // The searchable segments of the shards' latest readers (what a search walks).
    segments: { count: sum((st) => st.docs.segments) },
    indexing: {
      index_total: d((x) => x.indexing.indexTotal),
      index_time_in_millis: ms(d((x) => x.indexing.indexTimeMs)),
      index_current: 0,
      index_failed: 0,
      delete_total: d((x) => x.indexing.deleteTotal),
      delete_time_in_millis: 0,
      delete_current: 0,
      noop_update_total: 0,
      is_throttled: false,
      throttle_time_in_millis: 0,
    },
    search: {
      open_contexts: 0,
      query_total: d((x) => x.search.queryTotal),
      query_time_in_millis: ms(d((x) => x.search.queryTimeMs)),
      query_current: 0,
      fetch_total: d((x) => x.search.fetchTotal),
      fetch_time_in_millis: ms(d((x) => x.search.fetchTimeMs)),
      fetch_current: 0,
      scroll_total: 0,
      scroll_time_in_millis: 0,
      scroll_current: 0,
      suggest_total: 0,
      suggest_time_in_millis: 0,
      suggest_current: 0,
    },
    merges: {
      current: d((x) => x.merges.current),
      current_docs: 0,
      current_size_in_bytes: 0,
      total: d((x) => x.merges.total),
      total_time_in_millis: ms(d((x) => x.merges.timeMs)),
      total_docs: d((x) => x.merges.docs),
      total_size_in_bytes: d((x) => x.merges.sizeInBytes),
      total_stopped_time_in_millis: 0,
      total_throttled_time_in_millis: 0,
      total_auto_throttle_in_bytes: 0,
    },
    refresh: {
      total: d((x) => x.refresh.total),
      total_time_in_millis: ms(d((x) => x.refresh.timeMs)),
      external_total: d((x) => x.refresh.total),
      external_total_time_in_millis: ms(d((x) => x.refresh.timeMs)),
      listeners: 0,
    },
    flush: {
      total: d((x) => x.flush.total),
      periodic: 0,
      total_time_in_millis: ms(d((x) => x.flush.timeMs)),
    },
    request_cache: {
      memory_size_in_bytes: sum((st) => st.requestCache?.memorySizeInBytes),
      evictions: sum((st) => st.requestCache?.evictions),
      hit_count: sum((st) => st.requestCache?.hitCount),
      miss_count: sum((st) => st.requestCache?.missCount),
    },
    translog: {
      operations: d((x) => x.translog.operations),
      size_in_bytes: d((x) => x.translog.sizeInBytes),
      uncommitted_operations: d((x) => x.translog.uncommittedOperations),
      uncommitted_size_in_bytes: d((x) => x.translog.uncommittedSizeInBytes),
      earliest_last_modified_age: 0,
    },
  };
}

function pick(
  all: Record<Metric, Record<string, unknown>>,
  metrics: readonly Metric[],
): Record<string, unknown> {
  return Object.fromEntries(metrics.map((m) => [m, all[m]]));
}

async function indexStats(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  let metrics: readonly Metric[] = METRICS;
  const asked = req.params.metric;
  if (asked !== undefined && asked !== '_all') {
    const list = asked.split(',');
    for (const m of list) {
      if (!(METRICS as readonly string[]).includes(m)) {
        throw illegalArgument(`request [${req.path}] contains unrecognized metric: [${m}]`);
      }
    }
    metrics = list as Metric[];
  }
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const stats = await allShardStats(s);
  let total = 0;
  let successful = 0;
  const everything: ShardStats[] = [];
  const indices: Record<string, unknown> = {};
  for (const meta of targets) {
    const own: ShardStats[] = [];
    for (const c of s.shards.copies(meta.uuid)) {
      total++;
      const st = c.primary && c.state === 'STARTED' ? stats.get(c.key) : undefined;
      if (!st) continue;
      successful++;
      own.push(st);
    }
    everything.push(...own);
    const secs = pick(sections(own), metrics);
    indices[meta.name] = {
      uuid: meta.uuid,
      health: indexHealth(s, meta),
      status: meta.state,
      primaries: secs,
      total: secs,
    };
  }
  const all = pick(sections(everything), metrics);
  return {
    status: 200,
    body: {
      _shards: { total, successful, failed: 0 },
      _all: { primaries: all, total: all },
      indices,
    },
  };
}

export function indexStatsRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_stats', action: 'indices:monitor/stats', handler: indexStats },
    { method: 'GET', path: '/_stats/:metric', action: 'indices:monitor/stats', handler: indexStats },
    { method: 'GET', path: '/:index/_stats', action: 'indices:monitor/stats', handler: indexStats },
    { method: 'GET', path: '/:index/_stats/:metric', action: 'indices:monitor/stats', handler: indexStats },
  ];
}
