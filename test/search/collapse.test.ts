import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/cl', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        g: { type: 'keyword' },
        n: { type: 'long' },
        t: { type: 'text' },
        nodv: { type: 'keyword', doc_values: false },
        d: { type: 'double' },
      },
    },
  });
  expect(created.status).toBe(200);
  const docs: Record<string, unknown>[] = [
    { g: 'x', n: 5 },
    { g: 'x', n: 9 },
    { g: 'y', n: 7 },
    { g: 'y', n: 1 },
    { n: 3 },
    { n: 8 },
    { g: 'z', n: 2 },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, { ...d, t: 'hello' }]);
  const bulk = await http(node.url, 'POST', '/cl/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown, path = '/cl/_search') => http(node.url, 'POST', path, body);
type Hit = { _id: string; _score: number | null; fields?: Record<string, unknown[]> };
const ids = (r: { json: { hits: { hits: Hit[] } } }) => r.json.hits.hits.map((h) => h._id);

describe('collapse', () => {
  it('keeps the best hit of each value across shards, docs without a value as one group', async () => {
    const r = await search({ collapse: { field: 'g' }, sort: [{ n: 'desc' }], _source: false });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(['2', '6', '3', '7']);
    expect(r.json.hits.total).toEqual({ value: 7, relation: 'eq' });
    expect(r.json.hits.max_score).toBe(null);
    const hits = r.json.hits.hits as Hit[];
    expect(hits[0]!.fields).toEqual({ g: ['x'] });
    expect(hits[1]!.fields).toBeUndefined();
    expect(hits[2]!.fields).toEqual({ g: ['y'] });
  });

  it('pages over the groups with from and size', async () => {
    const r = await search({ collapse: { field: 'g' }, sort: [{ n: 'desc' }], from: 1, size: 2 });
    expect(ids(r)).toEqual(['6', '3']);
  });

  it('collapses on a numeric field and keeps max_score when sorting by score', async () => {
    const r = await search({ collapse: { field: 'n' }, query: { match: { t: 'hello' } }, size: 3 });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits).toHaveLength(3);
    expect(r.json.hits.max_score).toBeGreaterThan(0);
    for (const h of r.json.hits.hits as Hit[]) expect(h.fields?.n).toHaveLength(1);
  });

  it('merges the collapse value with the fields option', async () => {
    const r = await search({ collapse: { field: 'g' }, sort: [{ n: 'desc' }], size: 1, fields: ['n'] });
    expect((r.json.hits.hits as Hit[])[0]!.fields).toEqual({ g: ['x'], n: [9] });
  });

  it('refuses fields it cannot collapse on with Elasticsearch texts', async () => {
    const text = await search({ collapse: { field: 't' } });
    expect(text.status).toBe(400);
    expect(JSON.stringify(text.json)).toContain(
      'collapse is not supported for the field [t] of the type [text]',
    );
    const unmapped = await search({ collapse: { field: 'nope' } });
    expect(JSON.stringify(unmapped.json)).toContain('no mapping found for `nope` in order to collapse on');
    const nodv = await search({ collapse: { field: 'nodv' } });
    expect(JSON.stringify(nodv.json)).toContain('cannot collapse on field `nodv` without `doc_values`');
  });

  it('is refused in a scroll and answers 501 for what Shoal does not do', async () => {
    const scroll = await search({ collapse: { field: 'g' } }, '/cl/_search?scroll=1m');
    expect(scroll.status).toBe(400);
    expect(JSON.stringify(scroll.json)).toContain('cannot use `collapse` in a scroll context');
    const inner = await search({
      collapse: { field: 'g', inner_hits: { name: 'i', collapse: { field: 'd' } } },
    });
    expect(inner.status).toBe(501);
    const dbl = await search({ collapse: { field: 'd' } });
    expect(dbl.status).toBe(501);
    const bad = await search({ collapse: { field: 'g', max_concurrent_group_searches: 0 } });
    expect(bad.status).toBe(400);
  });
});
