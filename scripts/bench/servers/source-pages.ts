/**
 * The export baseline of `npm run bench -- paging`: "read every stored _source once". The
 * server holds flights-200k's `_source` bytes (exactly what a bulk load stores) and answers
 * `GET /page/:n?size=S` with hits n·S … n·S+S−1 in a search response's shape, the stored bytes
 * spliced in as a Shoal node does. No query, no merge, no thread hop: what an export costs
 * when every document is read once and sent, over the same HTTP stack.
 */

import { Hono } from 'hono';
import { flights } from '../../sample-data/index.ts';
import { type Env, runCeilingServer } from './common.ts';

runCeilingServer('source-pages', () => {
  const sources: Buffer[] = [];
  const ids: string[] = [];
  for (const { id, source } of flights.docs()) {
    ids.push(id);
    sources.push(Buffer.from(JSON.stringify(source)));
  }
  const app = new Hono<Env>();
  app.get('/page/:n', (c) => {
    const size = Number(c.req.query('size') ?? 1000);
    const start = Number(c.req.param('n')) * size;
    const end = Math.min(sources.length, start + size);
    const parts: Buffer[] = [Buffer.from('{"took":0,"timed_out":false,"hits":{"hits":[')];
    for (let i = start; i < end; i++) {
      parts.push(
        Buffer.from(`${i > start ? ',' : ''}{"_index":"flights","_id":"${ids[i]}","_score":null,"_source":`),
      );
      parts.push(sources[i]!);
      parts.push(Buffer.from(`,"sort":[${i}]}`));
    }
    parts.push(Buffer.from(']}}'));
    return c.body(Buffer.concat(parts), 200, { 'content-type': 'application/json' });
  });
  return app;
}).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
