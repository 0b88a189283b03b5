/**
 * What the ceiling servers share with a Shoal node: one server process, Hono over
 * @hono/node-server on a free 127.0.0.1 port, and N shard worker threads (`ShardWorker`, the
 * node's own single-thread Piscina pools). Prints the node's "started" log line (JSON with
 * `url`) when ready and stops on SIGTERM/SIGINT.
 */
import type { IncomingMessage, Server } from 'node:http';
import { parseArgs } from 'node:util';
import { type HttpBindings, serve } from '@hono/node-server';
import { ShardWorker } from '@shoal/shard';
import type { Hono } from 'hono';

export type Env = { Bindings: HttpBindings };

export interface CeilingArgs {
  workers: ShardWorker[];
  shards: number;
}

export function parseCeilingArgs(): { workers: number; shards: number } {
  const { values } = parseArgs({
    options: { workers: { type: 'string', default: '2' }, shards: { type: 'string', default: '2' } },
  });
  const workers = Number(values.workers);
  const shards = Number(values.shards);
  if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be a positive integer');
  if (!Number.isInteger(shards) || shards < 1) throw new Error('--shards must be a positive integer');
  return { workers, shards };
}

/** Reads the whole request body the way the node does (chunks from Node's request, concatenated). */
export async function readRawBody(incoming: IncomingMessage | undefined): Promise<Buffer | undefined> {
  if (!incoming || incoming.readableEnded) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size === 0) return undefined;
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

/** Starts the workers (and waits until each thread answers a noop), then serves the app. */
export async function runCeilingServer(kind: string, build: (args: CeilingArgs) => Hono<Env>): Promise<void> {
  const opts = parseCeilingArgs();
  // As a node: SHOAL_SHARD_WORKER_SCHEDULING=normal keeps the threads' default kernel policy.
  const scheduling = process.env.SHOAL_SHARD_WORKER_SCHEDULING === 'normal' ? 'normal' : 'batch';
  const workers = Array.from({ length: opts.workers }, (_, i) => new ShardWorker(i, { scheduling }));
  await Promise.all(workers.map((w) => w.run({ t: 'noop' })));
  const app = build({ workers, shards: opts.shards });
  const server = await new Promise<Server>((resolveServer, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolveServer(s as Server));
    (s as Server).once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  console.log(
    JSON.stringify({
      url,
      workers: opts.workers,
      shards: opts.shards,
      msg: `${kind} server started on ${url}`,
    }),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    Promise.all(workers.map((w) => w.close())).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
