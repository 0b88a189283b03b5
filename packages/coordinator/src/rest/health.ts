/** Cluster and index health from the shard table: red (a primary is not started), yellow (a replica is not), green. */
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';

export type Health = 'green' | 'yellow' | 'red';

export function indexHealth(s: NodeServices, meta: IndexMetadata): Health {
  let health: Health = 'green';
  for (const c of s.shards.copies(meta.uuid)) {
    if (c.state === 'STARTED') continue;
    if (c.primary) return 'red';
    health = 'yellow';
  }
  return health;
}

export function clusterHealth(s: NodeServices) {
  const copies = s.shards.all();
  const count = (p: (c: (typeof copies)[number]) => boolean) => copies.filter(p).length;
  let status: Health = 'green';
  for (const meta of s.indices.all().values()) {
    const h = indexHealth(s, meta);
    if (h === 'red') status = 'red';
    else if (h === 'yellow' && status === 'green') status = 'yellow';
  }
  const active = count((c) => c.state === 'STARTED');
  return {
    cluster_name: s.node.clusterName,
    status,
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: count((c) => c.primary && c.state === 'STARTED'),
    active_shards: active,
    relocating_shards: 0,
    initializing_shards: count((c) => c.state === 'INITIALIZING'),
    unassigned_shards: count((c) => c.state === 'UNASSIGNED' || c.state === 'FAILED'),
    unassigned_primary_shards: count((c) => c.primary && (c.state === 'UNASSIGNED' || c.state === 'FAILED')),
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: copies.length === 0 ? 100 : (active / copies.length) * 100,
  };
}
