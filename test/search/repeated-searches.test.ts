/**
 * A search sent again — the same path, parameters and body — is answered from its kept parse
 * (parsed-search-cache.ts). What it finds must still be what the index holds at that moment,
 * what varies per search must still vary, and a bad request must be refused every time. The
 * same searches against a node that keeps no parse (`SHOAL_SEARCH_PARSE_CACHE=0`) give the
 * same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let kept: TestNode;
let plain: TestNode;

async function load(node: TestNode): Promise<void> {
  const created = await http(node.url, 'PUT', '/rep', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { n: { type: 'long' }, at: { type: 'date' }, tag: { type: 'keyword' } } },
  });
  expect(created.status).toBe(200);
  const now = Date.now();
  const lines = Array.from({ length: 30 }, (_, i) => [
    { index: { _id: String(i) } },
    // Every third document is two days old; the others are from the last hour.
    { n: i, at: i % 3 === 0 ? now - 2 * 86_400_000 : now - 60_000 * i, tag: i % 2 === 0 ? 'even' : 'odd' },
  ]).flat();
  const bulk = await http(node.url, 'POST', '/rep/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
}

beforeAll(async () => {
  [kept, plain] = await Promise.all([
    startTestNode({ workers: 1 }),
    startTestNode({ workers: 1, env: { SHOAL_SEARCH_PARSE_CACHE: '0' } }),
  ]);
  await Promise.all([load(kept), load(plain)]);
});
afterAll(async () => {
  await Promise.all([kept?.stop(), plain?.stop()]);
});

const sorted = { query: { term: { tag: 'even' } }, sort: [{ n: 'desc' }], size: 5 };

describe('a search sent again', () => {
  it('finds what the index holds now, not what it held the first time', async () => {
    for (const node of [kept, plain]) {
      const first = await http(node.url, 'POST', '/rep/_search', sorted);
      expect(first.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['28', '26', '24', '22', '20']);
      expect(first.json.hits.total).toEqual({ value: 15, relation: 'eq' });
      const put = await http(node.url, 'PUT', '/rep/_doc/100?refresh=true', { n: 100, tag: 'even' });
      expect(put.status).toBe(201);
      const again = await http(node.url, 'POST', '/rep/_search', sorted);
      expect(again.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual([
        '100',
        '28',
        '26',
        '24',
        '22',
      ]);
      expect(again.json.hits.total).toEqual({ value: 16, relation: 'eq' });
      await http(node.url, 'DELETE', '/rep/_doc/100?refresh=true');
    }
  });

  it('gives the same answers as a node that parses every search, request after request', async () => {
    const bodies = [
      sorted,
      { query: { match_all: {} }, size: 3 },
      { query: { range: { at: { gte: 'now-1d/d' } } }, sort: [{ n: 'asc' }], size: 4 },
      {
        query: { bool: { filter: [{ term: { tag: 'odd' } }], must_not: [{ range: { n: { lt: 10 } } }] } },
        size: 2,
        sort: ['n'],
      },
      { aggs: { tags: { terms: { field: 'tag' } } }, size: 0 },
    ];
    for (let round = 0; round < 3; round++) {
      for (const body of bodies) {
        const [a, b] = await Promise.all([
          http(kept.url, 'POST', '/rep/_search?filter_path=hits.hits._id,hits.total,aggregations', body),
          http(plain.url, 'POST', '/rep/_search?filter_path=hits.hits._id,hits.total,aggregations', body),
        ]);
        expect(a.status).toBe(200);
        expect(a.json).toEqual(b.json);
      }
    }
    // Parameters are part of the request: the same body with another `size` is another search.
    const three = await http(kept.url, 'POST', '/rep/_search?size=3', { sort: [{ n: 'asc' }] });
    const four = await http(kept.url, 'POST', '/rep/_search?size=4', { sort: [{ n: 'asc' }] });
    expect(three.json.hits.hits).toHaveLength(3);
    expect(four.json.hits.hits).toHaveLength(4);
  });

  it('resolves relative dates when it runs', async () => {
    // Ten of the thirty documents are two days old: `now-1d` leaves them out every time.
    const body = { query: { range: { at: { gte: 'now-1d' } } }, size: 0 };
    for (let i = 0; i < 3; i++) {
      const r = await http(kept.url, 'POST', '/rep/_search', body);
      expect(r.json.hits.total.value).toBe(20);
    }
  });

  it('is refused every time it is bad, with the same error', async () => {
    const bad = { query: { no_such_query: {} } };
    for (let i = 0; i < 3; i++) {
      const r = await http(kept.url, 'POST', '/rep/_search', bad);
      expect(r.status).toBe(400);
      expect(r.json.error.type).toBe('parsing_exception');
    }
    const missing = await http(kept.url, 'POST', '/nope/_search', sorted);
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });
});
