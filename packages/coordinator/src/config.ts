/**
 * `cluster.config.json`: the cluster name, the nodes (name, roles, host, HTTP and transport
 * ports, data path) and node defaults. Command-line flags and environment variables override
 * one node's entry (tests start nodes on free ports this way).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { THREAD_SCHEDULING_VALUES, type ThreadScheduling } from '@shoal/shard';
import { z } from 'zod';
import { DEFAULT_PARSED_SEARCHES } from './search/parsed-search-cache.ts';

export interface NodeConfig {
  name: string;
  roles: string[];
  host: string;
  httpPort: number;
  transportPort: number;
  dataPath: string;
  shardWorkers: number;
  /** The kernel scheduling policy of the shard worker threads (`batch` or `normal`). */
  shardWorkerScheduling: ThreadScheduling;
  /** How many parsed searches the node keeps for requests sent again (0: none). */
  searchParseCache: number;
  /** `discovery.type`: `multi-node` (find the others and elect) or `single-node` (a cluster of one). */
  discoveryType: DiscoveryType;
  /** `discovery.seed_hosts`: transport addresses (`host:port`); by default every node of the config. */
  seedHosts: string[];
  /** `cluster.initial_master_nodes`; by default the master-eligible nodes of the config. */
  initialMasterNodes: string[];
}

export const DISCOVERY_TYPES = ['multi-node', 'single-node'] as const;
export type DiscoveryType = (typeof DISCOVERY_TYPES)[number];

export interface ClusterConfig {
  clusterName: string;
  nodes: NodeConfig[];
  /** Cluster settings applied at start (`action.auto_create_index`, …). */
  settings: Record<string, string>;
}

const port = z.number().int().min(0).max(65535);
const MAX_SEARCH_PARSE_CACHE = 100_000;

const rawNode = z.strictObject({
  name: z.string().min(1).optional(),
  roles: z.array(z.string()).optional(),
  host: z.string().min(1).optional(),
  http_port: port.optional(),
  transport_port: port.optional(),
  path_data: z.string().min(1).optional(),
  shard_workers: z.number().int().min(1).optional(),
  shard_worker_scheduling: z.enum(THREAD_SCHEDULING_VALUES).optional(),
  search_parse_cache: z.number().int().min(0).max(MAX_SEARCH_PARSE_CACHE).optional(),
  discovery_type: z.enum(DISCOVERY_TYPES).optional(),
  seed_hosts: z.array(z.string().regex(/^[^\s:]+:\d+$/, 'a seed host is host:port')).optional(),
  initial_master_nodes: z.array(z.string().min(1)).optional(),
});

const rawConfig = z.strictObject({
  cluster_name: z.string().min(1).optional(),
  defaults: rawNode.optional(),
  nodes: z.array(rawNode).min(1).optional(),
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

/** A config file or a command-line override that cannot be used; the message says why. */
export class ConfigError extends Error {}

function readConfig(path: string): z.infer<typeof rawConfig> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the cluster config [${path}]: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`the cluster config [${path}] is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = rawConfig.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new ConfigError(`the cluster config [${path}] is invalid: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export function loadClusterConfig(path: string): ClusterConfig {
  const raw = readConfig(path);
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
      shardWorkerScheduling: merged.shard_worker_scheduling ?? 'batch',
      searchParseCache: merged.search_parse_cache ?? DEFAULT_PARSED_SEARCHES,
      discoveryType: merged.discovery_type ?? 'multi-node',
      seedHosts: merged.seed_hosts ?? [],
      initialMasterNodes: merged.initial_master_nodes ?? [],
    };
  });
  // Unless told otherwise, a node finds every node of the config, and the master-eligible ones
  // of the config bootstrap the cluster the first time.
  const allSeeds = nodes.map((n) => `${n.host}:${n.transportPort}`);
  const allMasters = nodes.filter((n) => n.roles.includes('master')).map((n) => n.name);
  for (const n of nodes) {
    if (n.seedHosts.length === 0) n.seedHosts = allSeeds;
    if (n.initialMasterNodes.length === 0) n.initialMasterNodes = allMasters;
  }
  const names = new Set<string>();
  for (const n of nodes) {
    if (names.has(n.name)) throw new ConfigError(`the cluster config [${path}] names node [${n.name}] twice`);
    names.add(n.name);
  }
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw.settings ?? {})) settings[k] = String(v);
  return { clusterName: raw.cluster_name ?? 'shoal', nodes, settings };
}

export interface NodeOverrides {
  name?: string;
  /** As given on the command line; checked here. */
  httpPort?: string | number;
  dataPath?: string;
  shardWorkers?: string | number;
  transportPort?: string | number;
  discoveryType?: string;
}

/** A whole number in [min, max] from a flag or variable, or a ConfigError naming it. */
function wholeNumber(
  what: string,
  v: string | number | undefined,
  min: number,
  max: number,
): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${what} must be a whole number from ${min} to ${max}, got [${v}]`);
  }
  return n;
}

function schedulingFrom(what: string, v: string | undefined): ThreadScheduling | undefined {
  if (v === undefined) return undefined;
  const found = THREAD_SCHEDULING_VALUES.find((x) => x === v);
  if (!found) {
    throw new ConfigError(`${what} must be one of [${THREAD_SCHEDULING_VALUES.join(', ')}], got [${v}]`);
  }
  return found;
}

function discoveryFrom(what: string, v: string | undefined): DiscoveryType | undefined {
  if (v === undefined) return undefined;
  const found = DISCOVERY_TYPES.find((x) => x === v);
  if (!found) throw new ConfigError(`${what} must be one of [${DISCOVERY_TYPES.join(', ')}], got [${v}]`);
  return found;
}

/** Picks one node of the config and applies overrides (flags, then `SHOAL_*` variables). */
export function nodeConfig(cluster: ClusterConfig, overrides: NodeOverrides): NodeConfig {
  const env = process.env;
  const name = overrides.name ?? env.SHOAL_NODE_NAME;
  const found = name === undefined ? cluster.nodes[0] : cluster.nodes.find((n) => n.name === name);
  if (!found) {
    throw new ConfigError(
      `the cluster config has no node named [${name}]; it has ${cluster.nodes.map((n) => `[${n.name}]`).join(', ')}`,
    );
  }
  return {
    ...found,
    httpPort:
      wholeNumber('--http-port', overrides.httpPort, 0, 65535) ??
      wholeNumber('SHOAL_HTTP_PORT', env.SHOAL_HTTP_PORT, 0, 65535) ??
      found.httpPort,
    transportPort:
      wholeNumber('--transport-port', overrides.transportPort, 0, 65535) ??
      wholeNumber('SHOAL_TRANSPORT_PORT', env.SHOAL_TRANSPORT_PORT, 0, 65535) ??
      found.transportPort,
    discoveryType:
      discoveryFrom('--discovery-type', overrides.discoveryType) ??
      discoveryFrom('SHOAL_DISCOVERY_TYPE', env.SHOAL_DISCOVERY_TYPE) ??
      found.discoveryType,
    dataPath: overrides.dataPath ?? env.SHOAL_PATH_DATA ?? found.dataPath,
    shardWorkers:
      wholeNumber('--workers', overrides.shardWorkers, 1, 1024) ??
      wholeNumber('SHOAL_SHARD_WORKERS', env.SHOAL_SHARD_WORKERS, 1, 1024) ??
      found.shardWorkers,
    shardWorkerScheduling:
      schedulingFrom('SHOAL_SHARD_WORKER_SCHEDULING', env.SHOAL_SHARD_WORKER_SCHEDULING) ??
      found.shardWorkerScheduling,
    searchParseCache:
      wholeNumber('SHOAL_SEARCH_PARSE_CACHE', env.SHOAL_SEARCH_PARSE_CACHE, 0, MAX_SEARCH_PARSE_CACHE) ??
      found.searchParseCache,
  };
}
