import type { ClusterService } from '@shoal/cluster';
import type { CancelSlots, ShardWorker } from '@shoal/shard';
import type { Logger } from 'pino';
import type { LeaseRegistry } from './contexts/lease-registry.ts';
import type { DeprecationLog } from './deprecation-log.ts';
import type { LicenseService } from './license/license-service.ts';
import type { CompilationLimit } from './scripts/compilation-limit.ts';
import type { StoredScripts } from './scripts/stored-scripts.ts';
import type { ParsedSearchCache } from './search/parsed-search-cache.ts';
import type { TemplateLookup } from './search/search-template.ts';
import type { ShardTable } from './shards/shard-table.ts';
import type { ClusterSettings } from './state/cluster-settings.ts';
import type { IndicesService } from './state/indices-service.ts';
import type { TaskRegistry } from './tasks/task-registry.ts';
import type { PrivilegeCheck } from './transforms/transform-privileges.ts';
import type { TransformService } from './transforms/transform-service.ts';

export interface NodeIdentity {
  name: string;
  id: string;
  clusterName: string;
  clusterUuid: string;
  host: string;
  httpPort: number;
  transportPort: number;
  roles: string[];
  startedAt: number;
}

/** Counters behind `_nodes/stats` (indices.search and indexing). */
export interface NodeCounters {
  queryTotal: number;
  queryTimeMs: number;
  queryCurrent: number;
  queryFailure: number;
  fetchTotal: number;
  fetchTimeMs: number;
  fetchCurrent: number;
  fetchFailure: number;
  indexTotal: number;
  indexTimeMs: number;
}

/** Everything a REST handler may use; built once per node. */
export interface NodeServices {
  node: NodeIdentity;
  indices: IndicesService;
  shards: ShardTable;
  workers: readonly ShardWorker[];
  clusterSettings: ClusterSettings;
  logger: Logger;
  counters: NodeCounters;
  /** Open PITs and scrolls, and the node's search-context counters. */
  leases: LeaseRegistry;
  /** Cancellation of the shard tasks of searches whose client went away. */
  cancelSlots: CancelSlots;
  /** The searches sent last, parsed (a search sent again is not parsed again). */
  parsedSearches: ParsedSearchCache;
  /** The node's running tasks (`_tasks`). */
  tasks: TaskRegistry;
  /** Stored mustache templates by id (`PUT /_scripts/{id}` with `lang: mustache`), when kept. */
  storedTemplates?: TemplateLookup;
  /** The cluster's license. */
  license: LicenseService;
  /** The node's settings as started (config file and `-E` flags). */
  nodeSettings: Readonly<Record<string, string>>;
  deprecationLog: DeprecationLog;
  storedScripts: StoredScripts;
  /** `script.max_compilations_rate`. */
  compilations: CompilationLimit;
  /** Coordination: the cluster state this node applied, the master, voting-config changes. */
  cluster: ClusterService;
  /** The transforms (`/_transform`); set once the node's routes exist. */
  transforms?: TransformService;
  /** Whether a given user holds index privileges (security's `_has_privileges`); unset with security off. */
  privilegeCheck?: PrivilegeCheck;
}
