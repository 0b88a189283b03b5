import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/df', {
    settings: { number_of_shards: 2, 'index.query.default_field': ['title', 'tags^2'] },
    mappings: { properties: { title: { type: 'text' }, body: { type: 'text' }, tags: { type: 'keyword' } } },
  });
  const docs = [
    { title: 'quick fox', body: 'lazy dog', tags: 'animal' },
    { title: 'slow dog', body: 'quick fox', tags: 'pet' },
    { title: 'other', body: 'nothing', tags: 'fox' },
  ];
  const bulk = await http(
    node.url,
    'POST',
    '/df/_bulk?refresh=true',
    ndjson(docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d])),
  );
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const ids = async (query: unknown, path = '/df/_search') => {
  const r = await http(node.url, 'POST', path, { query });
  expect(r.status).toBe(200);
  return r.json.hits.hits.map((h: { _id: string }) => h._id).sort();
};

describe('index.query.default_field', () => {
  it('is what query_string, multi_match and simple_query_string search when they name no field', async () => {
    expect(await ids({ query_string: { query: 'fox' } })).toEqual(['1', '3']);
    expect(await ids({ multi_match: { query: 'fox' } })).toEqual(['1', '3']);
    expect(await ids({ simple_query_string: { query: 'fox' } })).toEqual(['1', '3']);
    expect((await http(node.url, 'GET', '/df/_search?q=fox')).json.hits.total.value).toBe(2);
    const count = await http(node.url, 'POST', '/df/_count', { query: { query_string: { query: 'fox' } } });
    expect(count.json.count).toBe(2);
  });

  it('weighs each default field by its boost', async () => {
    const r = await http(node.url, 'POST', '/df/_search', { query: { query_string: { query: 'fox' } } });
    // `tags^2`: the keyword match on tags outscores the text match on title.
    expect(r.json.hits.hits[0]._id).toBe('3');
  });

  it('leaves explicit fields, `*` included, alone', async () => {
    expect(await ids({ query_string: { query: 'fox', fields: ['*'] } })).toEqual(['1', '2', '3']);
    expect(await ids({ query_string: { query: 'fox', default_field: 'body' } })).toEqual(['2']);
    expect(await ids({ multi_match: { query: 'fox', fields: ['body'] } })).toEqual(['2']);
  });

  it('follows a settings update', async () => {
    await http(node.url, 'PUT', '/df/_settings', { 'index.query.default_field': ['body'] });
    expect(await ids({ query_string: { query: 'fox' } })).toEqual(['2']);
    await http(node.url, 'PUT', '/df/_settings', { 'index.query.default_field': null });
    expect(await ids({ query_string: { query: 'fox' } })).toEqual(['1', '2', '3']);
  });
});
