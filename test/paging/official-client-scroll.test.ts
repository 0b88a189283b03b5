/**
 * The official client's scroll helpers walk a loaded data set: `helpers.scrollSearch` page by
 * page, and `helpers.scrollDocuments` document by document (with its `filter_path`), then
 * clear their scroll.
 */
// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { searchStats } from './paging-support.ts';

let node: TestNode;
let client: Client;

const DOCS = 2_500;

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
  await client.indices.create({
    index: 'flights',
    body: {
      settings: { number_of_shards: 3 },
      mappings: {
        properties: { id: { type: 'integer' }, delay: { type: 'integer' }, summary: { type: 'text' } },
      },
    },
  });
  const docs = Array.from({ length: DOCS }, (_, id) => ({
    id,
    delay: (id * 37) % 120,
    summary: id % 3 === 0 ? 'late evening flight' : 'on time morning flight',
  }));
  const stats = await client.helpers.bulk({
    datasource: docs,
    onDocument: (doc: (typeof docs)[number]) => ({ index: { _index: 'flights', _id: String(doc.id) } }),
    refreshOnCompletion: 'flights',
  });
  expect(stats.successful).toBe(DOCS);
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
});

describe("the official client's scroll helpers", () => {
  it('scrollSearch walks every page and clears the scroll at the end', async () => {
    const seen = new Set<string>();
    let pages = 0;
    for await (const response of client.helpers.scrollSearch({
      index: 'flights',
      size: 300,
      body: { sort: ['_doc'], query: { match_all: {} } },
    })) {
      pages++;
      expect(response.body.hits.total).toEqual({ value: DOCS, relation: 'eq' });
      for (const hit of response.body.hits.hits) seen.add(hit._id);
    }
    expect(pages).toBe(Math.ceil(DOCS / 300));
    expect(seen.size).toBe(DOCS);
    expect((await searchStats(node.url)).scroll_current).toBe(0);
  });

  it('scrollDocuments yields each matching _source once', async () => {
    const ids: number[] = [];
    for await (const doc of client.helpers.scrollDocuments<{ id: number; summary: string }>({
      index: 'flights',
      size: 250,
      scroll: '30s',
      body: { query: { match: { summary: 'late' } }, sort: [{ delay: 'asc' }] },
    })) {
      expect(doc.summary).toBe('late evening flight');
      ids.push(doc.id);
    }
    expect(ids).toHaveLength(Math.ceil(DOCS / 3));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await searchStats(node.url)).scroll_current).toBe(0);
  });

  it('a PIT with search_after through the client', async () => {
    const { body: pit } = await client.transport.request({
      method: 'POST',
      path: '/flights/_pit',
      querystring: { keep_alive: '1m' },
    });
    let after: unknown[] | undefined;
    let count = 0;
    for (;;) {
      const { body } = await client.search({
        body: {
          size: 1000,
          pit: { id: pit.id, keep_alive: '1m' },
          sort: [{ delay: 'desc' }],
          ...(after ? { search_after: after } : {}),
        },
      });
      if (body.hits.hits.length === 0) break;
      count += body.hits.hits.length;
      after = body.hits.hits[body.hits.hits.length - 1].sort;
    }
    expect(count).toBe(DOCS);
    await client.transport.request({ method: 'DELETE', path: '/_pit', body: { id: pit.id } });
  });
});
