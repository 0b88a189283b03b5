/**
 * Starts a real cluster of node processes for end-to-end tests: a config of its own (free
 * transport ports on loopback, every node master-eligible and in `cluster.initial_master_nodes`),
 * one process per node started together, and a helper that waits for the cluster to agree.
 * Stopping the cluster stops every process started on its nodes' data paths — restarts too,
 * and those still starting when a test gave up — then deletes the data paths.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './http.ts';
import { startTestNode, stopTestNodes, type TestNode } from './node-process.ts';

export interface TestCluster {
  nodes: TestNode[];
  names: string[];
  /** Stops every node process started on the cluster's data paths, and deletes them and the config. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

type ClusterOptions = { nodes?: number; workers?: number; security?: boolean };

/**
 * Starts the cluster; when a transport port picked free was taken meanwhile (by a test file
 * running beside this one) before its node could bind it, starts it again on other ports.
 */
export async function startTestCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts(opts);
    } catch (e) {
      if (attempt >= 3 || !String((e as Error)?.message).includes('EADDRINUSE')) throw e;
    }
  }
}

async function startOnFreePorts(opts: ClusterOptions): Promise<TestCluster> {
  const count = opts.nodes ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'shoal-cluster-config-'));
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const names = ports.map((_, i) => `node-${i + 1}`);
  const config = join(dir, 'cluster.config.json');
  const dataPaths = names.map(() => mkdtempSync(join(tmpdir(), 'shoal-test-')));
  const stop = async () => {
    await stopTestNodes(dataPaths);
    for (const p of [...dataPaths, dir]) rmSync(p, { recursive: true, force: true });
  };
  writeFileSync(
    config,
    JSON.stringify({
      cluster_name: 'shoal-test',
      defaults: { roles: ['data', 'ingest', 'master'], host: '127.0.0.1' },
      nodes: names.map((name, i) => ({ name, http_port: 0, transport_port: ports[i] })),
    }),
  );
  const started = await Promise.allSettled(
    names.map((name) =>
      startTestNode({
        name,
        config,
        dataPath: dataPaths[names.indexOf(name)],
        workers: opts.workers ?? 1,
        env: { SHOAL_DISCOVERY_TYPE: 'multi-node' },
        ...(opts.security === false ? { security: false } : {}),
      }),
    ),
  );
  const nodes = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // No node is left running behind a cluster that did not start.
    await stop();
    throw failed.reason;
  }
  return { nodes, names, stop };
}

/** Polls until `test` returns a value (not undefined), or fails after `ms`. */
export async function eventually<T>(
  what: string,
  test: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await test();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The master's node id once every given node names the same one and has `size` nodes in its state. */
export function agreedMaster(nodes: TestNode[], size: number): Promise<string> {
  return eventually(`one master known to ${nodes.length} node(s) with ${size} nodes`, async () => {
    const states = await Promise.all(
      nodes.map((n) => http(n.url, 'GET', '/_cluster/state/master_node,nodes')),
    );
    const masters = new Set(states.map((r) => r.json?.master_node));
    if (masters.size !== 1) return undefined;
    const m = [...masters][0];
    if (typeof m !== 'string') return undefined;
    if (!states.every((r) => Object.keys(r.json.nodes).length === size)) return undefined;
    return m;
  });
}
