/**
 * Many small pages at once on one shard worker thread: each shard's reply is handed over in
 * one of the thread's reply slots (reply-slots.ts) while the thread writes the next ones into
 * others. Each page must be exactly the one asked for, with its own documents; a first page's
 * rendered hits are read in their slots, which must all be free again once the pages are answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const DOCS = 400;
/** About a kilobyte of `_source` each: ten of them fill most of a slot. */
const text = (i: number) => `doc ${i} `.repeat(120);

beforeAll(async () => {
  // The memory report tells how many reply slots are still taken.
  node = await startTestNode({ workers: 1, env: { SHOAL_MEMORY_REPORT: '1' } });
  const created = await http(node.url, 'PUT', '/pages', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { n: { type: 'long' }, body: { type: 'text' } } },
  });
  expect(created.status).toBe(200);
  const lines = Array.from({ length: DOCS }, (_, i) => [
    { index: { _id: String(i) } },
    { n: i, body: text(i) },
  ]).flat();
  const bulk = await http(node.url, 'POST', '/pages/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

describe('small pages searched all at once', () => {
  it('each answer is its own page, with its own documents', async () => {
    const requests = Array.from({ length: 200 }, (_, q) => {
      const from = (q * 7) % (DOCS - 10);
      return { from, body: { query: { range: { n: { gte: from } } }, sort: [{ n: 'asc' }], size: 10 } };
    });
    const answers = await Promise.all(requests.map((r) => http(node.url, 'POST', '/pages/_search', r.body)));
    answers.forEach((a, q) => {
      const from = requests[q]!.from;
      expect(a.status).toBe(200);
      const hits = a.json.hits.hits as {
        _id: string;
        _source: { n: number; body: string };
        sort: number[];
      }[];
      expect(hits.map((h) => h._id)).toEqual(Array.from({ length: 10 }, (_, i) => String(from + i)));
      for (const h of hits) {
        expect(h._source.n).toBe(Number(h._id));
        expect(h._source.body).toBe(text(h._source.n));
        expect(h.sort).toEqual([h._source.n]);
      }
    });
  });

  it('leaves no reply slot taken once every page is answered', async () => {
    const pages = Array.from({ length: 150 }, (_, q) =>
      http(node.url, 'POST', '/pages/_search', { query: { match: { body: `${q}` } }, size: 5 }),
    );
    for (const a of await Promise.all(pages)) expect(a.status).toBe(200);
    const memory = await http(node.url, 'GET', '/_internal/memory');
    expect(memory.status).toBe(200);
    expect(memory.json.reply_slots_in_use).toBe(0);
  });
});
