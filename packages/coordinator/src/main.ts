/**
 * The node program: `node --import tsx packages/coordinator/src/main.ts --config
 * cluster.config.json --node node-1 [--http-port N] [--transport-port N] [--data-path P] [--workers N]
 * [--discovery-type multi-node|single-node]`.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadClusterConfig, nodeConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startNode } from './node.ts';
import { checkNodeSettings, NodeSettingsError } from './node-settings.ts';

const USAGE =
  'usage: node --import tsx packages/coordinator/src/main.ts [--config cluster.config.json] ' +
  '[--node NAME] [--http-port N] [--transport-port N] [--data-path PATH] [--workers N] ' +
  '[--discovery-type multi-node|single-node] [-E setting=value ...]';

/** `-E key=value` (Elasticsearch's flag): a node setting over the config file's `settings`. */
function settingFlags(flags: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of flags ?? []) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new ConfigError(`setting [${f}] must be in the form [key=value]`);
    out[f.slice(0, eq)] = f.slice(eq + 1);
  }
  return out;
}

function startupConfig() {
  try {
    const { values } = parseArgs({
      options: {
        config: { type: 'string', default: 'cluster.config.json' },
        node: { type: 'string' },
        'http-port': { type: 'string' },
        'data-path': { type: 'string' },
        workers: { type: 'string' },
        setting: { type: 'string', short: 'E', multiple: true },
        'transport-port': { type: 'string' },
        'discovery-type': { type: 'string' },
      },
    });
    const cluster = loadClusterConfig(resolve(values.config!));
    const config = nodeConfig(cluster, {
      name: values.node,
      httpPort: values['http-port'],
      dataPath: values['data-path'],
      shardWorkers: values.workers,
      transportPort: values['transport-port'],
      discoveryType: values['discovery-type'],
    });
    cluster.settings = { ...cluster.settings, ...settingFlags(values.setting) };
    checkNodeSettings(cluster.settings);
    return { cluster, config };
  } catch (e) {
    const usage = e instanceof ConfigError || e instanceof NodeSettingsError ? '' : `\n${USAGE}`;
    console.error(`shoal: ${e instanceof Error ? e.message : String(e)}${usage}`);
    process.exit(2);
  }
}

const { cluster, config } = startupConfig();
const logger = createLogger(config.name);

startNode(config, { name: cluster.clusterName, settings: cluster.settings }, logger).then(
  (node) => {
    logger.info(
      { url: node.url, workers: config.shardWorkers },
      `node [${config.name}] started on ${node.url}`,
    );
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `node [${config.name}] stopping`);
      node.stop().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'stop failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  },
  (err) => {
    logger.fatal({ err }, `node [${config.name}] failed to start`);
    process.exit(1);
  },
);
