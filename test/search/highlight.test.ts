/**
 * Search `highlight` as Elasticsearch 8's unified highlighter answers it, through every fetch
 * path: the first page fetched with the query, a later page fetched on its own, a scroll, a
 * point in time; and the requests Shoal refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/books', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { title: { type: 'text' }, body: { type: 'text' }, tag: { type: 'keyword' } } },
  });
  expect(created.status).toBe(200);
  const lines: unknown[] = [];
  for (let i = 0; i < 30; i++) {
    lines.push({ index: { _index: 'books', _id: String(i) } });
    lines.push({
      title: `Book ${i} about the quick brown fox`,
      body: `Chapter one is quiet. The quick brown fox jumps over the lazy dog ${i}. The end.`,
      tag: i % 2 === 0 ? 'even' : 'odd',
    });
  }
  const bulk = await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines));
  expect(bulk.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

interface Hit {
  _id: string;
  highlight?: Record<string, string[]>;
}

async function search(body: unknown, path = '/books/_search') {
  const res = await http(node.url, 'POST', path, body);
  return { status: res.status, json: res.json };
}

describe('highlight', () => {
  it('highlights the terms of a match query, first page with the query', async () => {
    const { status, json } = await search({
      query: { match: { body: 'fox' } },
      size: 2,
      sort: [{ _doc: 'asc' }],
      highlight: { fields: { body: {} } },
    });
    expect(status).toBe(200);
    for (const hit of json.hits.hits as Hit[]) {
      expect(hit.highlight).toEqual({
        body: [`The quick brown <em>fox</em> jumps over the lazy dog ${hit._id}. The end.`],
      });
    }
  });

  it('highlights a phrase as one span on a page fetched after the query', async () => {
    const { json } = await search({
      query: { match_phrase: { title: 'brown fox' } },
      from: 5,
      size: 3,
      highlight: { fields: [{ title: {} }], pre_tags: ['<b>'], post_tags: ['</b>'] },
    });
    expect(json.hits.hits).toHaveLength(3);
    for (const hit of json.hits.hits as Hit[]) {
      expect(hit.highlight).toEqual({ title: [`Book ${hit._id} about the quick <b>brown fox</b>`] });
    }
  });

  it('writes highlight after _source and before sort, even with _source off', async () => {
    const res = await http(node.url, 'POST', '/books/_search', {
      query: { term: { tag: 'even' } },
      size: 1,
      sort: [{ _doc: 'asc' }],
      _source: false,
      highlight: { fields: { tag: {} } },
    });
    const text = res.text;
    expect(text).toContain('"highlight":{"tag":["<em>even</em>"]},"sort":[');
  });

  it('cuts fragments by fragment_size and keeps number_of_fragments', async () => {
    const { json } = await search({
      query: { match: { body: 'quiet end' } },
      size: 1,
      highlight: { fields: { body: { fragment_size: 20, number_of_fragments: 1 } }, order: 'score' },
    });
    expect(json.hits.hits[0].highlight.body).toHaveLength(1);
  });

  it('highlights scroll pages and point-in-time pages', async () => {
    const first = await search(
      {
        query: { match: { body: 'dog' } },
        size: 4,
        sort: ['_doc'],
        highlight: { fields: { body: { number_of_fragments: 0 } } },
      },
      '/books/_search?scroll=1m',
    );
    expect(first.status).toBe(200);
    const next = await search({ scroll: '1m', scroll_id: first.json._scroll_id }, '/_search/scroll');
    for (const hit of [...first.json.hits.hits, ...next.json.hits.hits] as Hit[]) {
      expect(hit.highlight?.body?.[0]).toContain('lazy <em>dog</em>');
    }
    const pit = await http(node.url, 'POST', '/books/_pit?keep_alive=1m');
    const paged = await search(
      {
        query: { match: { body: 'lazy' } },
        size: 2,
        pit: { id: pit.json.id, keep_alive: '1m' },
        highlight: { fields: { 'bo*': {} } },
      },
      '/_search',
    );
    expect(paged.status).toBe(200);
    for (const hit of paged.json.hits.hits as Hit[])
      expect(hit.highlight?.body?.[0]).toContain('<em>lazy</em>');
  });

  it('refuses the fvh highlighter with a 501 and checks the tags', async () => {
    const fvh = await search({
      query: { match: { body: 'fox' } },
      highlight: { type: 'fvh', fields: { body: {} } },
    });
    expect(fvh.status).toBe(501);
    const tags = await search({
      query: { match: { body: 'fox' } },
      highlight: { pre_tags: ['<b>'], fields: { body: {} } },
    });
    expect(tags.status).toBe(400);
    expect(tags.json.error.root_cause[0].reason).toBe('pre_tags are set but post_tags are not set');
  });
});
