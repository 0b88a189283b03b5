import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('the HTTP surface', () => {
  it('answers GET / with the node and version', async () => {
    const r = await http(node.url, 'GET', '/');
    expect(r.status).toBe(200);
    expect(r.json.name).toBe('node-1');
    expect(r.json.cluster_name).toBe('shoal-local');
    expect(typeof r.json.cluster_uuid).toBe('string');
    expect(r.json.version.number).toMatch(/^8\./);
    expect(typeof r.json.tagline).toBe('string');
    expect(r.headers['content-type']).toContain('application/json');
  });

  it('answers HEAD / with no body', async () => {
    const r = await http(node.url, 'HEAD', '/');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });

  it('pretty-prints with ?pretty and filters with ?filter_path', async () => {
    const pretty = await http(node.url, 'GET', '/?pretty');
    expect(pretty.text).toContain('\n  "name" : "node-1"');
    const filtered = await http(node.url, 'GET', '/?filter_path=version.number,name');
    expect(Object.keys(filtered.json).sort()).toEqual(['name', 'version']);
    expect(Object.keys(filtered.json.version)).toEqual(['number']);
  });

  it('answers an unknown path with 400 and a known path with a wrong method with 405', async () => {
    const unknown = await http(node.url, 'GET', '/_nope/at/all');
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain(
      'no handler found for uri [/_nope/at/all] and method [GET]',
    );
    const wrong = await http(node.url, 'PATCH', '/_search');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('GET');
  });

  it('accepts a search body sent with GET, and the compatible-with media type', async () => {
    await http(node.url, 'PUT', '/surface');
    await http(node.url, 'PUT', '/surface/_doc/1?refresh=true', { a: 1 });
    const r = await http(node.url, 'GET', '/surface/_search', { query: { term: { a: 1 } } });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toEqual({ value: 1, relation: 'eq' });
    const compat = await http(node.url, 'GET', '/surface/_search', '{"query":{"match_all":{}}}', {
      'content-type': 'application/vnd.elasticsearch+json; compatible-with=8',
      accept: 'application/vnd.elasticsearch+json; compatible-with=8',
    });
    expect(compat.status).toBe(200);
    expect(compat.json.hits.hits).toHaveLength(1);
  });

  it('answers malformed JSON with a 400 in Elasticsearch error format', async () => {
    const r = await http(node.url, 'POST', '/_search', '{"query": {');
    expect(r.status).toBe(400);
    expect(r.json.status).toBe(400);
    expect(r.json.error.root_cause[0].type).toBeTypeOf('string');
    expect(r.json.error.type).toBeTypeOf('string');
    expect(r.json.error.reason).toBeTypeOf('string');
  });
});
