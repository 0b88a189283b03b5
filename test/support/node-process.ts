/**
 * Starts real Shoal node processes for end-to-end tests: each on a free loopback port, with
 * its own data path, and stopped (SIGTERM, then SIGKILL) when the test is done. Durability
 * tests `kill()` a node (SIGKILL: no flush, no clean close) and `restart()` it on the same
 * data path; the data path is deleted by the last `stop()`. Every process started is tracked
 * by PID until it exits: a test that fails midway (a start that timed out, a restart still
 * under way) leaves none behind, for `stopTestNodes` stops them and the test worker kills
 * what is left when it exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { NODE_V8_FLAGS } from '../../packages/coordinator/src/node-flags.ts';
import { TEST_AUTH, TEST_PASSWORD } from './http.ts';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '../..');

/** The node processes this test worker started that have not exited, by PID, with their data paths. */
const started = new Map<number, { child: ChildProcess; dataPath: string }>();

function killByPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

let exitHooked = false;
/** When the test worker exits (or is told to stop), the nodes it started go with it. */
function hookWorkerExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  const killAll = () => {
    for (const pid of started.keys()) killByPid(pid);
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      // Nobody else handles it: end as the signal would have.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

function track(child: ChildProcess, dataPath: string): void {
  const pid = child.pid;
  if (pid === undefined) return;
  hookWorkerExit();
  started.set(pid, { child, dataPath });
  child.once('exit', () => started.delete(pid));
}

/**
 * Stops every node process started on one of `dataPaths` (all of them without it) that is
 * still running or starting: SIGTERM, then SIGKILL after `graceMs`. Resolves once they exited.
 */
export async function stopTestNodes(dataPaths?: Iterable<string>, graceMs = 10_000): Promise<void> {
  const paths = dataPaths === undefined ? undefined : new Set(dataPaths);
  const victims = [...started.entries()].filter(([, e]) => paths === undefined || paths.has(e.dataPath));
  await Promise.all(
    victims.map(async ([pid, { child }]) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        return;
      }
      const t = setTimeout(() => killByPid(pid), graceMs);
      await exited;
      clearTimeout(t);
    }),
  );
}

export interface TestNode {
  url: string;
  pid: number;
  dataPath: string;
  /** The superuser credentials (`elastic`) the node was started with, for the official client's `auth`. */
  auth: { username: string; password: string };
  /** Log lines (JSON) the node printed so far. */
  logs: Record<string, unknown>[];
  /** What the node wrote to stderr so far (its console, outside the log). */
  stderr(): string;
  /** SIGTERM (then SIGKILL after 10 s), and delete the data path. */
  stop(): Promise<void>;
  /** SIGKILL now, as a crash would; the data path is kept for a restart. */
  kill(): Promise<void>;
  /** Stops the node if it runs (SIGTERM, data kept) and starts a new one on the same data path. */
  restart(opts?: Omit<StartOptions, 'dataPath'>): Promise<TestNode>;
}

export interface StartOptions {
  workers?: number;
  name?: string;
  env?: Record<string, string>;
  /** Reuse this data path (a restart) instead of a new temporary one. */
  dataPath?: string;
  /** More command-line arguments for the node (`-E key=value` settings). */
  args?: string[];
  /** Another cluster config than the repository's (cluster tests write their own). */
  config?: string;
  /** `false` starts the node with `xpack.security.enabled=false` (no credentials needed). */
  security?: boolean;
}

/**
 * The node program: the bundle the test run's global set-up built (program-setup.ts), or, for
 * a test started some other way, the TypeScript source through tsx.
 */
function nodeProgram(): string[] {
  const bundle = process.env.SHOAL_TEST_PROGRAM;
  if (bundle) return [bundle];
  return ['--import', require.resolve('tsx'), join(root, 'packages/coordinator/src/main.ts')];
}

export async function startTestNode(opts: StartOptions = {}): Promise<TestNode> {
  const dataPath = opts.dataPath ?? mkdtempSync(join(tmpdir(), 'shoal-test-'));
  const args = [
    ...NODE_V8_FLAGS,
    ...nodeProgram(),
    '--config',
    opts.config ?? join(root, 'cluster.config.json'),
    '--http-port',
    '0',
    '--data-path',
    dataPath,
    '--workers',
    String(opts.workers ?? 2),
  ];
  if (opts.name) args.push('--node', opts.name);
  if (opts.args) args.push(...opts.args);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    // A test node is a cluster of one unless the test asks for more (SHOAL_DISCOVERY_TYPE in env).
    env: {
      SHOAL_DISCOVERY_TYPE: 'single-node',
      ...process.env,
      ELASTIC_PASSWORD: TEST_PASSWORD,
      ...(opts.security === false ? { 'xpack.security.enabled': 'false' } : {}),
      ...opts.env,
      SHOAL_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child, dataPath);
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      const last = logs
        .slice(-5)
        .map((l) => JSON.stringify(l).slice(0, 1000))
        .join('\n');
      // Not left running behind the test that gave up on it.
      if (child.pid !== undefined) killByPid(child.pid);
      reject(new Error(`node did not start in time\n${last}\n${stderr}`));
    }, 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      logs.push(entry);
      if (typeof entry.url === 'string' && String(entry.msg).includes('started')) {
        clearTimeout(timer);
        resolveUrl(entry.url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // The node's own account of why (its warnings and errors go to stdout as JSON lines).
      const why = logs
        .filter((l) => typeof l.level === 'number' && l.level >= 40)
        .slice(-5)
        .map((l) => JSON.stringify(l).slice(0, 2000))
        .join('\n');
      reject(new Error(`node exited with ${code} before starting\n${why}\n${stderr}`));
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const terminate = async () => {
    if (!running()) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(t);
  };
  return {
    url,
    auth: { ...TEST_AUTH },
    pid: child.pid!,
    dataPath,
    logs,
    stderr: () => stderr,
    async stop() {
      await terminate();
      rmSync(dataPath, { recursive: true, force: true });
    },
    async kill() {
      if (!running()) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGKILL');
      await exited;
    },
    async restart(more = {}) {
      await terminate();
      return startTestNode({
        workers: opts.workers,
        name: opts.name,
        env: opts.env,
        args: opts.args,
        config: opts.config,
        security: opts.security,
        ...more,
        dataPath,
      });
    },
  };
}
