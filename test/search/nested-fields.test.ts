import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/posts', {
    mappings: {
      properties: {
        title: { type: 'text' },
        comments: { type: 'nested', properties: { author: { type: 'keyword' }, text: { type: 'text' } } },
        meta: { properties: { lang: { type: 'keyword' } } },
      },
    },
  });
  await http(node.url, 'PUT', '/posts/_doc/1?refresh=true', {
    title: 'hello',
    comments: [{ author: 'ann', text: 'nice' }],
    meta: { lang: 'en' },
  });
});
afterAll(async () => {
  await node?.stop();
});

describe('fields inside nested objects', () => {
  it('are not matched by top-level queries, as in Elasticsearch', async () => {
    const nested = await http(node.url, 'POST', '/posts/_search', {
      query: { term: { 'comments.author': 'ann' } },
    });
    expect(nested.json.hits.total.value).toBe(0);
    const exists = await http(node.url, 'POST', '/posts/_search', {
      query: { exists: { field: 'comments' } },
    });
    expect(exists.json.hits.total.value).toBe(0);
    const plain = await http(node.url, 'POST', '/posts/_search', { query: { term: { 'meta.lang': 'en' } } });
    expect(plain.json.hits.total.value).toBe(1);
    const everywhere = await http(node.url, 'GET', '/posts/_search?q=nice');
    expect(everywhere.json.hits.total.value).toBe(0);
  });

  it('answers the nested query with 501 naming what is missing', async () => {
    const r = await http(node.url, 'POST', '/posts/_search', {
      query: { nested: { path: 'comments', query: { term: { 'comments.author': 'ann' } } } },
    });
    expect(r.status).toBe(501);
    expect(r.json.error.reason).toContain('nested');
  });
});
