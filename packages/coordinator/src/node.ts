/**
 * One Shoal node process: its shard worker threads, its routing table and index metadata, and
 * its HTTP server.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { serve } from '@hono/node-server';
import { AUTO_SHRINK_SETTING, ClusterService, MAX_EXCLUSIONS_SETTING } from '@shoal/cluster';
import { clusterBlock, errorBody, type FlatSettings, getTimeMs } from '@shoal/protocol';
import { CancelSlots, ContextCounters, ShardWorker } from '@shoal/shard';
import type { Logger } from 'pino';
import { recoverInterruptedTasks } from './bulk-by-scroll/interrupted-tasks.ts';
import type { NodeConfig } from './config.ts';
import { LeaseRegistry } from './contexts/lease-registry.ts';
import { DeprecationLog } from './deprecation-log.ts';
import { createApp } from './http/app.ts';
import { CapturedBodyMessage } from './http/captured-body.ts';
import { LicenseService } from './license/license-service.ts';
import { configDir, readVerificationKey } from './license/license-signature.ts';
import { FileLicenseStore } from './license/license-store.ts';
import { checkNodeSettings } from './node-settings.ts';
import { localNodeStats, NODE_STATS_ACTION } from './rest/cluster.ts';
import { localNodeInfo, NODE_INFO_ACTION } from './rest/node-info.ts';
import { allRoutes } from './routes.ts';
import { CompilationLimit } from './scripts/compilation-limit.ts';
import { StoredScripts } from './scripts/stored-scripts.ts';
import { ParsedSearchCache } from './search/parsed-search-cache.ts';
import { InternalClient } from './security/internal-client.ts';
import { nodeHttpTls, startSecurity } from './security/mount.ts';
import type { NodeServices } from './services.ts';
import { ShardTable } from './shards/shard-table.ts';
import { ClusterSettings } from './state/cluster-settings.ts';
import { IndicesService } from './state/indices-service.ts';
import { MetadataStore } from './state/metadata-store.ts';
import { indicesToAllocate } from './state/published-indices.ts';
import { TaskRegistry } from './tasks/task-registry.ts';
import { TransformService } from './transforms/transform-service.ts';

export interface StartedNode {
  url: string;
  services: NodeServices;
  stop(): Promise<void>;
}

/** Says once which kernel policy the shard worker threads run under, and why if not the one asked for. */
async function logScheduling(workers: ShardWorker[], logger: Logger): Promise<void> {
  try {
    const outcomes = await Promise.all(workers.map((w) => w.run({ t: 'scheduling' })));
    const missed = outcomes.find((o) => o.notApplied !== undefined);
    if (missed) {
      logger.info({ reason: missed.notApplied }, 'shard worker threads keep the normal scheduling policy');
    } else {
      logger.debug({ policy: outcomes[0]?.policy }, 'shard worker threads scheduled');
    }
  } catch (err) {
    logger.debug({ err }, 'shard worker scheduling unknown');
  }
}

/** Elasticsearch's answer before a node has recovered its state (STATE_NOT_RECOVERED_BLOCK). */
function notReady(): Response {
  const e = errorBody(
    clusterBlock('blocked by: [SERVICE_UNAVAILABLE/1/state not recovered / initialized];', 503),
  );
  return new Response(JSON.stringify(e.body), {
    status: e.status,
    headers: { 'content-type': 'application/json' },
  });
}

const id = () => randomBytes(16).toString('base64url').slice(0, 22);

/** The cluster settings the master's coordination reads, carried into the cluster state when they change here. */
const COORDINATION_SETTINGS = [AUTO_SHRINK_SETTING, MAX_EXCLUSIONS_SETTING];

/**
 * `sent` holds what this node last sent: the applied state may not show it yet, and a value
 * set back to what that older state shows must still be sent.
 */
function shareCoordinationSettings(
  cluster: ClusterService,
  effective: FlatSettings,
  logger: Logger,
  sent: Map<string, string | null>,
): void {
  const state = cluster.state().settings;
  const settings: Record<string, string | null> = {};
  let changed = false;
  for (const key of COORDINATION_SETTINGS) {
    const raw = effective[key];
    const v = raw === undefined || raw === null ? null : String(raw);
    if ((state[key] ?? null) !== v || (sent.has(key) && sent.get(key) !== v)) {
      settings[key] = v;
      sent.set(key, v);
      changed = true;
    }
  }
  if (!changed) return;
  cluster
    .execute({ op: 'put_settings', settings })
    .catch((err) => logger.warn({ err, settings }, 'coordination settings not shared with the master'));
}

export async function startNode(
  config: NodeConfig,
  clusterInfo: { name: string; settings: Record<string, string> },
  logger: Logger,
): Promise<StartedNode> {
  // Refused before anything starts; the deprecated ones in use go to the deprecation log.
  const deprecationLog = new DeprecationLog(logger);
  deprecationLog.record(checkNodeSettings(clusterInfo.settings));
  // Each worker thread gets its row of the search-context counters when it starts.
  const counters = ContextCounters.create(Math.max(1, config.shardWorkers));
  const cancelSlots = new CancelSlots();
  const workers = Array.from(
    { length: counters.rows },
    (_, i) =>
      new ShardWorker(i, {
        counters: counters.ref(i),
        cancel: cancelSlots.sab,
        scheduling: config.shardWorkerScheduling,
      }),
  );
  void logScheduling(workers, logger);
  const shards = new ShardTable(workers);
  for (const w of workers) {
    w.onShardsFailed((keys, reason) =>
      logger.error({ worker: w.id, shards: keys, reason }, 'shard worker died; its shard copies are failed'),
    );
  }
  // The node's data path: its identity, persistent cluster settings, indices and shard files.
  const metadata = new MetadataStore(config.dataPath);
  const nodeState = metadata.loadNodeState() ?? { nodeId: id(), clusterUuid: id(), persistentSettings: {} };
  metadata.saveNodeState(nodeState);
  const cluster = new ClusterService({
    local: {
      id: nodeState.nodeId,
      name: config.name,
      ephemeralId: id(),
      host: config.host,
      transportPort: config.transportPort,
      httpPort: config.httpPort,
      roles: [...config.roles].sort(),
    },
    clusterName: clusterInfo.name,
    dataPath: config.dataPath,
    singleNode: config.discoveryType === 'single-node',
    seedHosts: config.seedHosts,
    initialMasterNodes: config.initialMasterNodes,
    log: logger,
    indicesToAllocate: config.discoveryType === 'single-node' ? undefined : indicesToAllocate,
  });
  const services: NodeServices = {
    node: {
      name: config.name,
      id: nodeState.nodeId,
      clusterName: clusterInfo.name,
      clusterUuid: nodeState.clusterUuid,
      host: config.host,
      httpPort: config.httpPort,
      transportPort: config.transportPort,
      roles: [...config.roles].sort(),
      startedAt: Date.now(),
    },
    indices: new IndicesService(shards, logger, metadata),
    shards,
    workers,
    clusterSettings: new ClusterSettings(clusterInfo.settings, nodeState.persistentSettings),
    logger,
    counters: {
      queryTotal: 0,
      queryTimeMs: 0,
      queryCurrent: 0,
      queryFailure: 0,
      fetchTotal: 0,
      fetchTimeMs: 0,
      fetchCurrent: 0,
      fetchFailure: 0,
      indexTotal: 0,
      indexTimeMs: 0,
    },
    leases: new LeaseRegistry(nodeState.nodeId, workers, Date.now, counters),
    cancelSlots,
    parsedSearches: new ParsedSearchCache(config.searchParseCache),
    tasks: new TaskRegistry(nodeState.nodeId),
    license: new LicenseService(new FileLicenseStore(metadata.stateDir), {
      clusterName: clusterInfo.name,
      verificationKey: () => readVerificationKey(configDir()),
    }),
    nodeSettings: clusterInfo.settings,
    deprecationLog,
    storedScripts: new StoredScripts(metadata.stateDir),
    compilations: new CompilationLimit(),
    cluster,
  };
  // A kept search parse holds the stored scripts it resolved: a change makes every parse stale.
  services.storedScripts.onChange(() => services.parsedSearches.clear());
  // Stored search templates are the stored scripts in the mustache language.
  services.storedTemplates = (id) => services.storedScripts.get(id);
  cluster.handle(NODE_INFO_ACTION, () => localNodeInfo(services));
  cluster.handle(NODE_STATS_ACTION, () => localNodeStats(services));
  const sentCoordinationSettings = new Map<string, string | null>();
  services.clusterSettings.onChange((effective) =>
    shareCoordinationSettings(cluster, effective, logger, sentCoordinationSettings),
  );
  services.leases.startReaper(getTimeMs(services.clusterSettings.effective(), 'search.keep_alive_interval'));
  services.clusterSettings.onChange(() => {
    metadata.saveNodeState({ ...nodeState, persistentSettings: services.clusterSettings.view().persistent });
  });
  // In a cluster of several nodes, the index metadata and the shard copies are the published state's.
  if (!cluster.singleNode) services.indices.followCluster(cluster);
  await services.indices.load();
  // The HTTP port is bound first, so that the node's address is known to the cluster it joins;
  // until the node is ready it answers as Elasticsearch does before its state is recovered.
  let handle: (req: Request, env?: object) => Response | Promise<Response> = () => notReady();
  const tls = nodeHttpTls(clusterInfo.settings);
  const server = await new Promise<Server>((resolveServer, reject) => {
    const common = {
      fetch: (req: Request, env: object) => handle(req, env),
      port: config.httpPort,
      hostname: config.host,
      autoCleanupIncoming: false,
    };
    // Request bodies are kept as they are parsed (captured-body.ts): every handler reads
    // its body whole, so none is left on the wire for the adapter to drain.
    const s = tls
      ? serve(
          {
            ...common,
            createServer: createHttpsServer,
            serverOptions: { IncomingMessage: CapturedBodyMessage, ...tls },
          },
          () => resolveServer(s as Server),
        )
      : serve({ ...common, serverOptions: { IncomingMessage: CapturedBodyMessage } }, () =>
          resolveServer(s as Server),
        );
    (s as Server).once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.httpPort;
  services.node.httpPort = port;
  cluster.local.httpPort = port;
  await cluster.start();
  services.node.transportPort = cluster.local.transportPort;
  const interrupted = await recoverInterruptedTasks(services).catch((err: unknown) => {
    logger.warn({ err }, 'could not read the tasks that were running when the node stopped');
    return 0;
  });
  if (interrupted > 0)
    logger.warn({ tasks: interrupted }, 'marked the tasks interrupted by the last stop as failed');
  const routes = allRoutes();
  const security = await startSecurity(services, config.dataPath, routes, clusterInfo.settings, logger);
  if (security) services.privilegeCheck = security.privilegeCheck;
  services.transforms = new TransformService(services, new InternalClient(routes, services));
  const app = security
    ? createApp({
        routes: [...routes, ...security.routes],
        services,
        logger,
        deprecationLog,
        guard: security.guard,
        answered: security.answered,
      })
    : createApp({ routes, services, logger, deprecationLog });
  handle = app.fetch;
  // The transforms started here before the node stopped run again.
  services.transforms
    .resume()
    .then((n) => {
      if (n > 0) logger.info({ transforms: n }, 'resumed the transforms started on this node');
    })
    .catch((err: unknown) => logger.warn({ err }, 'could not resume the transforms started on this node'));
  const url = `${tls ? 'https' : 'http'}://${config.host}:${port}`;
  return {
    url,
    services,
    async stop() {
      await services.transforms?.close().catch((err) => logger.warn({ err }, 'transforms not closed'));
      services.leases.stop();
      await cluster.stop();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      // A clean stop commits every shard, so the next start need not replay the translog.
      await services.indices.flushAll().catch((err) => logger.warn({ err }, 'flush at stop failed'));
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
