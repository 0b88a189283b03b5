/**
 * The benchmark's child processes (ceiling servers and Shoal nodes): each prints a JSON log line
 * with `url` and a msg containing "started" when it is ready, and is stopped with SIGTERM, then
 * SIGKILL. Every child still alive when the benchmark exits (normally, by an error or by a
 * signal) is killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { NODE_V8_FLAGS } from '../../packages/coordinator/src/node-flags.ts';
import { SCRIPT_PASSWORD } from '../credentials.ts';

const require = createRequire(import.meta.url);
export const repoRoot = resolve(import.meta.dirname, '../..');
const tsx = require.resolve('tsx');

export interface BenchChild {
  name: string;
  url: string;
  pid: number;
  /** The last lines the child printed (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

const KEEP_LINES = 200;

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function terminate(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (!exited(child)) child.kill('SIGKILL');
  }, graceMs);
  await gone;
  clearTimeout(timer);
}

/**
 * Starts `node <node flags> --import tsx <script> ...args` (a Shoal node's V8 flags for every
 * server, the ceilings and baselines as well) and waits for its "started" line.
 */
export async function startChild(
  name: string,
  script: string,
  args: string[],
  opts: { env?: Record<string, string>; execArgv?: string[]; timeoutMs?: number; onStop?: () => void } = {},
): Promise<BenchChild> {
  const argv = [...NODE_V8_FLAGS, ...(opts.execArgv ?? []), '--import', tsx, script, ...args];
  const child = spawn(process.execPath, argv, {
    cwd: repoRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > KEEP_LINES) lines.shift();
  };
  // Keep draining both pipes for the child's whole life, or it would block on a full pipe.
  createInterface({ input: child.stderr! }).on('line', keep);
  const stdout = createInterface({ input: child.stdout! });
  const output = () => lines.join('\n');
  const stop = async () => {
    try {
      await terminate(child);
    } finally {
      opts.onStop?.();
    }
  };
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`${name} did not start within ${(opts.timeoutMs ?? 30_000) / 1000} s\n${output()}`),
          ),
        opts.timeoutMs ?? 30_000,
      );
      stdout.on('line', (line) => {
        keep(line);
        let entry: { url?: unknown; msg?: unknown };
        try {
          entry = JSON.parse(line);
        } catch {
          return;
        }
        if (typeof entry.url === 'string' && String(entry.msg).includes('started')) {
          clearTimeout(timer);
          resolveUrl(entry.url);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before it started\n${output()}`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    const { hostname } = new URL(url);
    if (hostname !== '127.0.0.1') throw new Error(`${name} listens on ${url}, not on 127.0.0.1`);
    return { name, url, pid: child.pid!, output, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** A ceiling server (`servers/<kind>.ts`) with `workers` shard worker threads. */
export function startCeilingServer(
  kind: 'hello' | 'fanout',
  opts: { workers: number; shards: number },
): Promise<BenchChild> {
  return startChild(`ceiling server (${kind})`, join(repoRoot, `scripts/bench/servers/${kind}.ts`), [
    '--workers',
    String(opts.workers),
    '--shards',
    String(opts.shards),
  ]);
}

/**
 * A real Shoal node on a free loopback port, with a throw-away data path (from `root` when given).
 * `env` adds to the node's environment (`xpack.security.enabled=false` turns security off).
 */
export function startShoalNode(opts: {
  workers: number;
  env?: Record<string, string>;
  root?: string;
  /** More command-line arguments (`-E key=value` node settings). */
  args?: string[];
}): Promise<BenchChild> {
  const dataPath = mkdtempSync(join(tmpdir(), 'shoal-bench-'));
  // `root`: another checkout of Shoal (a baseline to compare with), with its own packages.
  const root = opts.root ?? repoRoot;
  return startChild(
    'Shoal node',
    join(root, 'packages/coordinator/src/main.ts'),
    [
      '--config',
      join(root, 'cluster.config.json'),
      '--http-port',
      '0',
      '--data-path',
      dataPath,
      '--workers',
      String(opts.workers),
      ...(opts.args ?? []),
    ],
    {
      env: {
        SHOAL_LOG_LEVEL: 'info',
        SHOAL_DISCOVERY_TYPE: 'single-node',
        ELASTIC_PASSWORD: SCRIPT_PASSWORD,
        ...opts.env,
      },
      timeoutMs: 60_000,
      onStop: () => rmSync(dataPath, { recursive: true, force: true }),
    },
  );
}

/** Stops every child still running (for signal handlers). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((c) => terminate(c)));
}
