/**
 * `npm run cluster`: starts every node of cluster.config.json as its own process, prints each
 * node's URL, and stops them all on Ctrl-C (SIGINT) or SIGTERM.
 *   npm run cluster -- --config other.json
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ClusterConfig, ConfigError, loadClusterConfig, NODE_V8_FLAGS } from '@shoal/coordinator';

const require = createRequire(import.meta.url);
function loadConfig(): { configPath: string; cluster: ClusterConfig } {
  try {
    const { values } = parseArgs({ options: { config: { type: 'string', default: 'cluster.config.json' } } });
    const configPath = resolve(values.config!);
    return { configPath, cluster: loadClusterConfig(configPath) };
  } catch (e) {
    const usage =
      e instanceof ConfigError ? '' : '\nusage: npm run cluster [-- --config cluster.config.json]';
    console.error(`shoal: ${e instanceof Error ? e.message : String(e)}${usage}`);
    process.exit(2);
  }
}

const { configPath, cluster } = loadConfig();
const main = resolve(import.meta.dirname, '../packages/coordinator/src/main.ts');
const tsx = require.resolve('tsx');

const children = new Map<string, ChildProcess>();
let stopping = false;

for (const node of cluster.nodes) {
  const child = spawn(
    process.execPath,
    [...NODE_V8_FLAGS, '--import', tsx, main, '--config', configPath, '--node', node.name],
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
