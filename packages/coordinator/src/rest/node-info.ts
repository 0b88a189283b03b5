/**
 * What one node tells about itself for `GET /_nodes` and `GET /_cat/nodes`: served by every node
 * (`cluster:monitor/nodes/info[n]`) and gathered by the node that was asked.
 */
import { cpus, freemem, hostname, loadavg, totalmem } from 'node:os';
import type { DiscoveryNode } from '@shoal/cluster';
import { SHOAL_VERSION } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import { COMPATIBLE_ES_VERSION } from './cluster.ts';

export const NODE_INFO_ACTION = 'cluster:monitor/nodes/info[n]';

export interface LocalNodeInfo {
  pid: number;
  hostname: string;
  os: { name: string; arch: string; availableProcessors: number; totalMemory: number; freeMemory: number };
  load: number[];
  heapUsed: number;
  heapMax: number;
  rss: number;
  cpuPercent: number;
  uptimeMs: number;
  workers: number;
}

let lastCpu = process.cpuUsage();
let lastAt = Date.now();

function cpuPercent(): number {
  const now = Date.now();
  const used = process.cpuUsage(lastCpu);
  const elapsed = Math.max(now - lastAt, 1);
  lastCpu = process.cpuUsage();
  lastAt = now;
  return Math.min(
    100,
    Math.round(((used.user + used.system) / 1000 / elapsed / Math.max(cpus().length, 1)) * 100),
  );
}

export function localNodeInfo(s: NodeServices): LocalNodeInfo {
  const mem = process.memoryUsage();
  return {
    pid: process.pid,
    hostname: hostname(),
    os: {
      name: process.platform === 'linux' ? 'Linux' : process.platform,
      arch: process.arch,
      availableProcessors: cpus().length,
      totalMemory: totalmem(),
      freeMemory: freemem(),
    },
    load: loadavg(),
    heapUsed: mem.heapUsed,
    heapMax: mem.heapTotal,
    rss: mem.rss,
    cpuPercent: cpuPercent(),
    uptimeMs: Date.now() - s.node.startedAt,
    workers: s.workers.length,
  };
}

/** One node's entry in `GET /_nodes`, its sections filtered by `metrics` (all when null). */
export function nodeInfoJson(
  n: DiscoveryNode,
  info: LocalNodeInfo,
  clusterName: string,
  metrics: ReadonlySet<string> | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: n.name,
    transport_address: `${n.host}:${n.transportPort}`,
    host: n.host,
    ip: n.host,
    version: COMPATIBLE_ES_VERSION,
    build_flavor: 'default',
    build_type: 'shoal',
    build_hash: `shoal-${SHOAL_VERSION}`,
    total_indexing_buffer: Math.floor(info.heapMax * 0.1),
    roles: [...n.roles].sort(),
    attributes: {},
  };
  const want = (m: string) => metrics === null || metrics.has(m);
  if (want('settings')) {
    out.settings = {
      cluster: { name: clusterName },
      node: { name: n.name, roles: [...n.roles].sort() },
      http: { port: String(n.httpPort) },
      transport: { port: String(n.transportPort) },
    };
  }
  if (want('os')) {
    out.os = {
      refresh_interval_in_millis: 1000,
      name: info.os.name,
      arch: info.os.arch,
      available_processors: info.os.availableProcessors,
      allocated_processors: info.os.availableProcessors,
      mem: { total_in_bytes: info.os.totalMemory },
    };
  }
  if (want('process')) out.process = { refresh_interval_in_millis: 1000, id: info.pid, mlockall: false };
  if (want('jvm')) {
    out.jvm = {
      pid: info.pid,
      version: process.versions.node,
      vm_name: 'Node.js',
      vm_vendor: 'OpenJS Foundation',
      start_time_in_millis: Date.now() - info.uptimeMs,
      mem: { heap_max_in_bytes: info.heapMax },
    };
  }
  if (want('thread_pool')) out.thread_pool = { shard_worker: { type: 'fixed', size: info.workers } };
  if (want('transport')) {
    const a = `${n.host}:${n.transportPort}`;
    out.transport = { bound_address: [a], publish_address: a, profiles: {} };
  }
  if (want('http')) {
    const a = `${n.host}:${n.httpPort}`;
    out.http = { bound_address: [a], publish_address: a, max_content_length_in_bytes: 104857600 };
  }
  if (want('plugins')) out.plugins = [];
  if (want('modules')) out.modules = [];
  if (want('ingest')) out.ingest = { processors: [] };
  return out;
}
