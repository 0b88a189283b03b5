/**
 * Ceiling (b): the bare endpoint plus the fan-out of a search. `GET /` sends a `noop` task to
 * the worker of each of the index's `--shards` shards (shard i lives on worker i mod N, as a
 * node spreads shards over its workers), waits for every reply and merges them into one JSON
 * answer. It costs what a search costs before any engine work: the thread hops and the merge.
 */
import { Hono } from 'hono';
import { type Env, runCeilingServer } from './common.ts';

runCeilingServer('fanout', ({ workers, shards }) => {
  const owners = Array.from({ length: shards }, (_, i) => workers[i % workers.length]!);
  const app = new Hono<Env>();
  app.get('/', async (c) => {
    const replies = await Promise.allSettled(owners.map((w) => w.run({ t: 'noop' })));
    let successful = 0;
    const merged: Record<string, unknown> = {};
    for (const r of replies) {
      if (r.status === 'fulfilled') {
        successful++;
        Object.assign(merged, r.value);
      }
    }
    return c.json({
      hello: 'world',
      _shards: { total: shards, successful, failed: shards - successful },
      ...merged,
    });
  });
  return app;
}).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
