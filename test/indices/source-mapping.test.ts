/**
 * The mapping's `_source` section: `enabled: false` keeps no `_source` (hits and GET come
 * without it, `_update` and reindex refuse such documents, the fields stay searchable), and
 * `includes`/`excludes` keep only part of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/nosource', {
    mappings: { _source: { enabled: false }, properties: { title: { type: 'text' }, n: { type: 'long' } } },
  });
  expect(created.status).toBe(200);
  await http(node.url, 'PUT', '/nosource/_doc/1?refresh=true', { title: 'hello world', n: 7 });
  await http(node.url, 'PUT', '/partial', {
    mappings: { _source: { includes: ['a', 'obj.*'], excludes: ['obj.secret'] } },
  });
  await http(node.url, 'PUT', '/partial/_doc/1?refresh=true', {
    a: 1,
    b: 'dropped',
    obj: { keep: 'yes', secret: 'no' },
  });
});
afterAll(async () => {
  await node?.stop();
});

describe('_source.enabled: false', () => {
  it('GET answers without _source and GET _source is a 404', async () => {
    const got = await http(node.url, 'GET', '/nosource/_doc/1');
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      _index: 'nosource',
      _id: '1',
      _version: 1,
      _seq_no: 0,
      _primary_term: 1,
      found: true,
    });
    const src = await http(node.url, 'GET', '/nosource/_source/1');
    expect(src.status).toBe(404);
    expect(src.json.error).toMatchObject({
      type: 'resource_not_found_exception',
      reason: 'Source not found [nosource]/[1]',
    });
    const mapping = await http(node.url, 'GET', '/nosource/_mapping');
    expect(mapping.json.nosource.mappings._source).toEqual({ enabled: false });
  });

  it('search finds the document by its fields and the hit has no _source', async () => {
    const res = await http(node.url, 'POST', '/nosource/_search', {
      query: { bool: { must: [{ match: { title: 'hello' } }, { term: { n: 7 } }] } },
    });
    expect(res.json.hits.total.value).toBe(1);
    const hit = res.json.hits.hits[0];
    expect(hit._id).toBe('1');
    expect(hit).not.toHaveProperty('_source');
  });

  it('_update refuses the document (document_source_missing_exception)', async () => {
    const res = await http(node.url, 'POST', '/nosource/_update/1', { doc: { n: 8 } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      type: 'document_source_missing_exception',
      reason: '[1]: document source missing',
      index: 'nosource',
      shard: '0',
    });
  });

  it('reindex refuses the document', async () => {
    const res = await http(node.url, 'POST', '/_reindex', {
      source: { index: 'nosource' },
      dest: { index: 'copy' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: "[nosource][_doc][1] didn't store _source",
    });
  });

  it('the fields survive a restart from the translog', async () => {
    await http(node.url, 'PUT', '/nosource/_doc/2', { title: 'after restart', n: 9 });
    // A crash: the document comes back from the translog, which keeps the source as sent.
    await node.kill();
    node = await node.restart();
    await http(node.url, 'GET', '/_cluster/health/nosource?wait_for_status=yellow');
    await http(node.url, 'POST', '/nosource/_refresh');
    const res = await http(node.url, 'POST', '/nosource/_search', { query: { term: { n: 9 } } });
    expect(res.json.hits.total.value).toBe(1);
    expect(res.json.hits.hits[0]).not.toHaveProperty('_source');
  });
});

describe('_source includes and excludes', () => {
  it('keeps only the included, not excluded, parts', async () => {
    const got = await http(node.url, 'GET', '/partial/_doc/1');
    expect(got.json._source).toEqual({ a: 1, obj: { keep: 'yes' } });
    const res = await http(node.url, 'POST', '/partial/_search', { query: { term: { b: 'dropped' } } });
    expect(res.json.hits.total.value).toBe(1);
    expect(res.json.hits.hits[0]._source).toEqual({ a: 1, obj: { keep: 'yes' } });
  });

  it('the section cannot change once set', async () => {
    const res = await http(node.url, 'PUT', '/partial/_mapping', { _source: { excludes: [] } });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('illegal_argument_exception');
  });
});
