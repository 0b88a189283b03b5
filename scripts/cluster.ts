/**
 * `npm run cluster`: starts every node of cluster.config.json as its own process, prints each
 * node's URL, and stops them all on Ctrl-C (SIGINT) or SIGTERM. The nodes find each other on
 * their transport ports and elect a master.
 *   npm run cluster -- --config other.json
 *   npm run cluster -- --nodes 5     (the first N nodes of the config, more after its pattern; data in data/nodes-5/)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type ClusterConfig,
  ConfigError,
  loadClusterConfig,
  NODE_V8_FLAGS,
  programArgs,
} from '@shoal/coordinator';

function loadConfig(): { configPath: string; cluster: ClusterConfig } {
  try {
    const { values } = parseArgs({
      options: { config: { type: 'string', default: 'cluster.config.json' }, nodes: { type: 'string' } },
    });
    let configPath = resolve(values.config!);
    if (values.nodes !== undefined) configPath = withNodeCount(configPath, values.nodes);
    return { configPath, cluster: loadClusterConfig(configPath) };
  } catch (e) {
    const usage =
      e instanceof ConfigError
        ? ''
        : '\nusage: npm run cluster [-- --config cluster.config.json] [--nodes N]';
    console.error(`shoal: ${e instanceof Error ? e.message : String(e)}${usage}`);
    process.exit(2);
  }
}

/**
 * A config of exactly `count` nodes, written beside the data: the first nodes of the given
 * config, and further ones named, numbered and placed after the pattern of the config's first
 * node (node-4 on the next HTTP and transport ports), each with its data under data/nodes-N/. Every one of them is in
 * `cluster.initial_master_nodes` and the seed hosts, as the config's own nodes are.
 */
function withNodeCount(configPath: string, nodes: string): string {
  const count = Number(nodes);
  if (!Number.isInteger(count) || count < 1 || count > 50) {
    throw new ConfigError(`--nodes must be a whole number from 1 to 50, got [${nodes}]`);
  }
  const raw = JSON.parse(readFileSync(configPath, 'utf8')) as { nodes?: Record<string, unknown>[] };
  const given = raw.nodes ?? [{}];
  const first = given[0] ?? {};
  const base = dirname(configPath);
  const list = Array.from({ length: count }, (_, i) => {
    const n = { ...(given[i] ?? {}) };
    n.name ??= `node-${i + 1}`;
    n.http_port ??= Number(first.http_port ?? 9200) + i;
    n.transport_port ??= Number(first.transport_port ?? 9300) + i;
    // A cluster of another size is another cluster: its own data, so that nodes that once
    // voted in a three-node configuration do not wait for a quorum that will never come.
    n.path_data = resolve(base, `data/nodes-${count}/${n.name}`);
    return n;
  });
  const out = join(base, 'data', `cluster.${count}-nodes.config.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ ...raw, nodes: list }, null, 2)}\n`);
  return out;
}

const { configPath, cluster } = loadConfig();
// One bundle of the node program for all the nodes (program-bundle.ts): each starts in a
// fraction of the time tsx would take to compile and load its source.
const program = programArgs();

const children = new Map<string, ChildProcess>();
let stopping = false;

for (const node of cluster.nodes) {
  const child = spawn(
    process.execPath,
    [...NODE_V8_FLAGS, ...program, '--config', configPath, '--node', node.name],
    {
      stdio: 'inherit',
      // glibc keeps memory freed after a bulk load or a merge unless told to return it; these
      // bring a node's RSS close to its live data (see `npm run bench -- memory`).
      env: {
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '65536',
        MALLOC_TRIM_THRESHOLD_: '65536',
        ...process.env,
      },
    },
  );
  children.set(node.name, child);
  child.on('exit', (code, signal) => {
    children.delete(node.name);
    if (!stopping) console.error(`node [${node.name}] exited (${signal ?? `code ${code}`})`);
    if (children.size === 0) process.exit(stopping ? 0 : 1);
  });
}

console.log(`Shoal cluster [${cluster.clusterName}] starting ${cluster.nodes.length} node(s):`);
for (const node of cluster.nodes) console.log(`  ${node.name}  http://${node.host}:${node.httpPort}`);
if (
  cluster.settings['xpack.security.enabled'] !== 'false' &&
  process.env['xpack.security.enabled'] !== 'false'
) {
  const first = cluster.nodes[0]!;
  console.log(
    [
      'Security is on: sign in as the built-in [elastic] user, with the password in ELASTIC_PASSWORD or the one',
      'a node printed when it first started (it is shown only once):',
      `  curl -u elastic:$ELASTIC_PASSWORD http://${first.host}:${first.httpPort}/`,
      'A lost password: npm run reset-password -- --user elastic (with the cluster running).',
    ].join('\n'),
  );
}

function stopAll(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 10_000).unref();
}
process.on('SIGINT', () => stopAll('SIGTERM'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
