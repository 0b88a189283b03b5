/**
 * `cluster.config.json`: the cluster name, the nodes (name, roles, host, HTTP and transport
 * ports, data path) and node defaults. Command-line flags and environment variables override
 * one node's entry (tests start nodes on free ports this way).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

export interface NodeConfig {
  name: string;
  roles: string[];
  host: string;
  httpPort: number;
  transportPort: number;
  dataPath: string;
  shardWorkers: number;
}

export interface ClusterConfig {
  clusterName: string;
  nodes: NodeConfig[];
  /** Cluster settings applied at start (`action.auto_create_index`, …). */
  settings: Record<string, string>;
}

interface RawNode {
  name?: string;
  roles?: string[];
  host?: string;
  http_port?: number;
  transport_port?: number;
  path_data?: string;
  shard_workers?: number;
}

interface RawConfig {
  cluster_name?: string;
  defaults?: RawNode;
  nodes?: RawNode[];
  settings?: Record<string, unknown>;
}

export function loadClusterConfig(path: string): ClusterConfig {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as RawConfig;
  const base = resolve(path, '..');
  const defaults = raw.defaults ?? {};
  const nodes = (raw.nodes ?? [{}]).map((n, i): NodeConfig => {
    const merged = { ...defaults, ...n };
    const name = merged.name ?? `node-${i + 1}`;
    return {
      name,
      roles: merged.roles ?? ['data', 'ingest', 'master'],
      host: merged.host ?? '127.0.0.1',
      httpPort: merged.http_port ?? 9200 + i,
      transportPort: merged.transport_port ?? 9300 + i,
      dataPath: resolve(base, merged.path_data ?? `data/${name}`),
      shardWorkers: merged.shard_workers ?? availableParallelism(),
    };
  });
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw.settings ?? {})) settings[k] = String(v);
  return { clusterName: raw.cluster_name ?? 'shoal', nodes, settings };
}

export interface NodeOverrides {
  name?: string;
  httpPort?: number;
  dataPath?: string;
  shardWorkers?: number;
}

/** Picks one node of the config and applies overrides (flags, then `SHOAL_*` variables). */
export function nodeConfig(cluster: ClusterConfig, overrides: NodeOverrides): NodeConfig {
  const env = process.env;
  const name = overrides.name ?? env.SHOAL_NODE_NAME ?? cluster.nodes[0]?.name;
  const found = cluster.nodes.find((n) => n.name === name) ?? cluster.nodes[0];
  if (!found) throw new Error('cluster config lists no nodes');
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  return {
    ...found,
    name: name ?? found.name,
    httpPort: overrides.httpPort ?? num(env.SHOAL_HTTP_PORT) ?? found.httpPort,
    dataPath: overrides.dataPath ?? env.SHOAL_PATH_DATA ?? found.dataPath,
    shardWorkers: overrides.shardWorkers ?? num(env.SHOAL_SHARD_WORKERS) ?? found.shardWorkers,
  };
}
