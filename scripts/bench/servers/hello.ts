/**
 * Ceiling (a): the bare endpoint. `GET /` answers `{"hello":"world"}`; `POST /_bulk` reads the
 * whole body (as the node does) and discards it. The shard worker threads are started but idle,
 * so the process looks like a node.
 */
import { Hono } from 'hono';
import { type Env, readRawBody, runCeilingServer } from './common.ts';

runCeilingServer('hello', () => {
  const app = new Hono<Env>();
  app.get('/', (c) => c.json({ hello: 'world' }));
  app.post('/_bulk', async (c) => {
    const body = await readRawBody(c.env.incoming);
    return c.json({ hello: 'world', bytes: body?.length ?? 0 });
  });
  return app;
}).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
