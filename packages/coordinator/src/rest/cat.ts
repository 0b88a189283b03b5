/** `_cat/indices`, `_cat/shards`, `_cat/health`. */
import { formatByteSize, illegalArgument } from '@shoal/protocol';
import type { ShardStats } from '@shoal/shard';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { type CatColumn, catResponse } from './cat-table.ts';
import { clusterHealth, indexHealth } from './health.ts';

async function shardStats(s: NodeServices): Promise<Map<string, ShardStats>> {
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

function bytes(n: number, unit: string | undefined): string | number {
  if (!unit) return formatByteSize(n);
  const div: Record<string, number> = {
    b: 1,
    kb: 1024,
    mb: 1024 ** 2,
    gb: 1024 ** 3,
    tb: 1024 ** 4,
    pb: 1024 ** 5,
  };
  return Math.floor(n / (div[unit] ?? 1));
}

const INDEX_COLUMNS: CatColumn[] = [
  { name: 'health', aliases: ['h'], desc: 'current health status', default: true },
  { name: 'status', aliases: ['s'], desc: 'open/close status', default: true },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name', default: true },
  { name: 'uuid', aliases: ['id'], desc: 'index uuid', default: true },
  {
    name: 'pri',
    aliases: ['p', 'shards.primary'],
    desc: 'number of primary shards',
    default: true,
    right: true,
  },
  {
    name: 'rep',
    aliases: ['r', 'shards.replica'],
    desc: 'number of replica shards',
    default: true,
    right: true,
  },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], desc: 'available docs', default: true, right: true },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], desc: 'deleted docs', default: true, right: true },
  {
    name: 'store.size',
    aliases: ['ss', 'storeSize'],
    desc: 'store size of primaries & replicas',
    default: true,
    right: true,
  },
  { name: 'pri.store.size', desc: 'store size of primaries', default: true, right: true },
  { name: 'dataset.size', desc: 'total size of dataset', default: true, right: true },
  { name: 'creation.date', aliases: ['cd'], desc: 'index creation date (millisecond value)', default: false },
  { name: 'creation.date.string', aliases: ['cds'], desc: 'index creation date (as string)', default: false },
];

const HEALTH_VALUES = new Set(['green', 'yellow', 'red']);

/** `?health=`: only the indices of that health (ClusterHealthStatus.fromString's error otherwise). */
function healthFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (!HEALTH_VALUES.has(v)) throw illegalArgument(`unknown cluster health status [${value}]`);
  return v;
}

async function catIndices(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const health = healthFilter(req.query.health);
  const resolved = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const indices =
    health === undefined ? resolved : resolved.filter((meta) => indexHealth(s, meta) === health);
  const stats = await shardStats(s);
  const rows = indices.map((meta) => {
    let count = 0;
    let deleted = 0;
    let size = 0;
    for (const c of s.shards.primaries(meta.uuid)) {
      const st = stats.get(c.key);
      if (!st) continue;
      count += st.docs.count;
      deleted += st.docs.deleted;
      size += st.detail?.storeBytes ?? st.docs.sizeInBytes;
    }
    return {
      health: indexHealth(s, meta),
      status: meta.state,
      index: meta.name,
      uuid: meta.uuid,
      pri: meta.numberOfShards,
      rep: Number(meta.settings['index.number_of_replicas'] ?? 1),
      'docs.count': count,
      'docs.deleted': deleted,
      'store.size': bytes(size, req.query.bytes),
      'pri.store.size': bytes(size, req.query.bytes),
      'dataset.size': bytes(size, req.query.bytes),
      'creation.date': meta.creationDate,
      'creation.date.string': new Date(meta.creationDate).toISOString(),
    };
  });
  return catResponse(req, INDEX_COLUMNS, rows);
}

const SHARD_COLUMNS: CatColumn[] = [
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name', default: true },
  { name: 'shard', aliases: ['s', 'sh'], desc: 'shard name', default: true, right: true },
  { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], desc: 'primary or replica', default: true },
  { name: 'state', aliases: ['st'], desc: 'shard state', default: true },
  { name: 'docs', aliases: ['d', 'dc'], desc: 'number of docs in shard', default: true, right: true },
  {
    name: 'store',
    aliases: ['sto'],
    desc: 'store size of shard (how much disk it uses)',
    default: true,
    right: true,
  },
  { name: 'ip', desc: 'ip of node where it lives', default: true },
  { name: 'node', aliases: ['n'], desc: 'name of node where it lives', default: true },
  {
    name: 'unassigned.reason',
    aliases: ['ur'],
    desc: 'reason shard became unassigned or failed',
    default: false,
  },
  { name: 'worker', desc: 'shard worker thread that owns the copy', default: false },
];

async function catShards(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const indices = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const stats = await shardStats(s);
  const nodes = s.cluster.state().nodes;
  const isAssigned = (c: ShardCopy) =>
    c.state === 'STARTED' || c.state === 'INITIALIZING' || c.state === 'RELOCATING';
  // A copy another node holds: its stats come from that node.
  const remoteStats = new Map<ShardCopy, ShardStats | undefined>();
  const remote = indices.flatMap((meta) =>
    s.shards.copies(meta.uuid).filter((c) => c.remote && c.worker && isAssigned(c)),
  );
  await Promise.all(
    remote.map((c) =>
      c
        .worker!.run({ t: 'stats', keys: [c.key] })
        .then((r) => remoteStats.set(c, r.shards[0]))
        .catch(() => remoteStats.set(c, undefined)),
    ),
  );
  const rows = indices.flatMap((meta) =>
    s.shards.copies(meta.uuid).map((c) => {
      const st = c.remote ? remoteStats.get(c) : stats.get(c.key);
      const assigned = isAssigned(c);
      const holder = c.node === undefined ? undefined : nodes[c.node];
      return {
        index: meta.name,
        shard: c.shardId,
        prirep: c.primary ? 'p' : 'r',
        state: c.state,
        docs: st && assigned ? st.docs.count : null,
        store: st && assigned ? bytes(st.detail?.storeBytes ?? st.docs.sizeInBytes, req.query.bytes) : null,
        ip: assigned ? (holder?.host ?? s.node.host) : null,
        node: assigned ? (holder?.name ?? s.node.name) : null,
        'unassigned.reason': c.reason ?? null,
        worker: c.worker && !c.remote ? c.worker.id : null,
      };
    }),
  );
  return catResponse(req, SHARD_COLUMNS, rows);
}

const HEALTH_COLUMNS: CatColumn[] = [
  {
    name: 'epoch',
    aliases: ['t', 'time'],
    desc: 'seconds since 1970-01-01 00:00:00',
    default: true,
    right: true,
  },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], desc: 'time in HH:MM:SS', default: true },
  { name: 'cluster', aliases: ['cl'], desc: 'cluster name', default: true },
  { name: 'status', aliases: ['st'], desc: 'health status', default: true },
  {
    name: 'node.total',
    aliases: ['nt', 'nodeTotal'],
    desc: 'total number of nodes',
    default: true,
    right: true,
  },
  {
    name: 'node.data',
    aliases: ['nd', 'nodeData'],
    desc: 'number of nodes that can store data',
    default: true,
    right: true,
  },
  {
    name: 'shards',
    aliases: ['t', 'sh', 'shards.total'],
    desc: 'total number of shards',
    default: true,
    right: true,
  },
  {
    name: 'pri',
    aliases: ['p', 'shards.primary'],
    desc: 'number of primary shards',
    default: true,
    right: true,
  },
  {
    name: 'relo',
    aliases: ['r', 'shards.relocating'],
    desc: 'number of relocating nodes',
    default: true,
    right: true,
  },
  {
    name: 'init',
    aliases: ['i', 'shards.initializing'],
    desc: 'number of initializing nodes',
    default: true,
    right: true,
  },
  {
    name: 'unassign',
    aliases: ['u', 'shards.unassigned'],
    desc: 'number of unassigned shards',
    default: true,
    right: true,
  },
  {
    name: 'active_shards_percent',
    aliases: ['asp'],
    desc: 'active number of shards in percent',
    default: true,
    right: true,
  },
];

function catHealth(req: RestRequest, s: NodeServices): RestResponse {
  const h = clusterHealth(s);
  const now = new Date();
  return catResponse(req, HEALTH_COLUMNS, [
    {
      epoch: Math.floor(now.getTime() / 1000),
      timestamp: now.toISOString().slice(11, 19),
      cluster: h.cluster_name,
      status: h.status,
      'node.total': h.number_of_nodes,
      'node.data': h.number_of_data_nodes,
      shards: h.active_shards,
      pri: h.active_primary_shards,
      relo: h.relocating_shards,
      init: h.initializing_shards,
      unassign: h.unassigned_shards,
      active_shards_percent: `${h.active_shards_percent_as_number.toFixed(1)}%`,
    },
  ]);
}

export function catRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_cat/indices', action: 'indices:monitor/stats', handler: catIndices },
    { method: 'GET', path: '/_cat/indices/:index', action: 'indices:monitor/stats', handler: catIndices },
    { method: 'GET', path: '/_cat/shards', action: 'indices:monitor/stats', handler: catShards },
    { method: 'GET', path: '/_cat/shards/:index', action: 'indices:monitor/stats', handler: catShards },
    { method: 'GET', path: '/_cat/health', action: 'cluster:monitor/health', handler: catHealth },
  ];
}
