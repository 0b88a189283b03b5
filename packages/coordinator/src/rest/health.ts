/** Cluster and index health from the shard table: red (a primary is not started), yellow (a replica is not), green. */
import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';

export type Health = 'green' | 'yellow' | 'red';

/** `level` of `_cluster/health`: how deep the response goes (Elasticsearch's ClusterStatsLevel). */
export type HealthLevel = 'cluster' | 'indices' | 'shards';

export function indexHealth(s: NodeServices, meta: IndexMetadata): Health {
  let health: Health = 'green';
  for (const c of s.shards.copies(meta.uuid)) {
    if (c.state === 'STARTED') continue;
    if (c.primary) return 'red';
    health = 'yellow';
  }
  return health;
}

const isUnassigned = (c: ShardCopy) => c.state === 'UNASSIGNED' || c.state === 'FAILED';

/** The counters Elasticsearch's ClusterShardHealth and ClusterIndexHealth report, in their order. */
function shardCounts(copies: readonly ShardCopy[]) {
  const count = (p: (c: ShardCopy) => boolean) => copies.filter(p).length;
  return {
    active_shards: count((c) => c.state === 'STARTED'),
    relocating_shards: 0,
    initializing_shards: count((c) => c.state === 'INITIALIZING'),
    unassigned_shards: count(isUnassigned),
    unassigned_primary_shards: count((c) => c.primary && isUnassigned(c)),
  };
}

/** The nodes of the applied cluster state (this node alone before it has one). */
function nodeCount(s: NodeServices, dataOnly: boolean): number {
  const nodes = Object.values(s.cluster.state().nodes);
  if (nodes.length === 0) return dataOnly && !s.node.roles.includes('data') ? 0 : 1;
  return dataOnly ? nodes.filter((n) => n.roles.includes('data')).length : nodes.length;
}

function worst(a: Health, b: Health): Health {
  if (a === 'red' || b === 'red') return 'red';
  return a === 'yellow' || b === 'yellow' ? 'yellow' : 'green';
}

function shardStatus(copies: readonly ShardCopy[]): Health {
  const primary = copies.find((c) => c.primary);
  if (primary?.state !== 'STARTED') return 'red';
  return copies.every((c) => c.state === 'STARTED') ? 'green' : 'yellow';
}

/** One entry of `indices` in `_cluster/health?level=indices|shards`. */
function indexHealthJson(s: NodeServices, meta: IndexMetadata, withShards: boolean): Record<string, unknown> {
  const copies = s.shards.copies(meta.uuid);
  const byShard = new Map<number, ShardCopy[]>();
  for (const c of copies) {
    const list = byShard.get(c.shardId);
    if (list) list.push(c);
    else byShard.set(c.shardId, [c]);
  }
  const counts = shardCounts(copies);
  const replicas = byShard.size === 0 ? 0 : Math.max(...[...byShard.values()].map((l) => l.length)) - 1;
  const out: Record<string, unknown> = {
    status: indexHealth(s, meta),
    number_of_shards: byShard.size,
    number_of_replicas: replicas,
    active_primary_shards: copies.filter((c) => c.primary && c.state === 'STARTED').length,
    ...counts,
  };
  if (withShards) {
    const shards: Record<string, unknown> = {};
    for (const id of [...byShard.keys()].sort((a, b) => a - b)) {
      const list = byShard.get(id)!;
      const c = shardCounts(list);
      shards[String(id)] = {
        status: shardStatus(list),
        primary_active: list.some((x) => x.primary && x.state === 'STARTED'),
        ...c,
      };
    }
    out.shards = shards;
  }
  return out;
}

/**
 * `_cluster/health` over `indices` (every index when omitted). With `level` indices or shards,
 * an `indices` object follows the cluster counters, as Elasticsearch's ClusterHealthResponse
 * prints it.
 */
export function clusterHealth(
  s: NodeServices,
  indices?: readonly IndexMetadata[],
  level: HealthLevel = 'cluster',
) {
  const metas = indices ?? [...s.indices.all().values()];
  const copies = metas.flatMap((meta) => [...s.shards.copies(meta.uuid)]);
  let status: Health = 'green';
  for (const meta of metas) status = worst(status, indexHealth(s, meta));
  const counts = shardCounts(copies);
  const body = {
    cluster_name: s.node.clusterName,
    status,
    timed_out: false,
    number_of_nodes: nodeCount(s, false),
    number_of_data_nodes: nodeCount(s, true),
    active_primary_shards: copies.filter((c) => c.primary && c.state === 'STARTED').length,
    ...counts,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: copies.length === 0 ? 100 : (counts.active_shards / copies.length) * 100,
  };
  if (level === 'cluster') return body;
  const perIndex: Record<string, unknown> = {};
  for (const meta of metas) perIndex[meta.name] = indexHealthJson(s, meta, level === 'shards');
  return { ...body, indices: perIndex };
}
