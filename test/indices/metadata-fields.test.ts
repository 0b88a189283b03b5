/**
 * Metadata fields: `_ignored` (values left out by ignore_malformed or ignore_above) is
 * searchable, aggregatable and returned in hits; `_routing` comes back from GET and search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/ign', {
    mappings: {
      properties: {
        n: { type: 'integer', ignore_malformed: true },
        d: { type: 'date', ignore_malformed: true },
        k: { type: 'keyword', ignore_above: 3 },
      },
    },
  });
  expect(created.status).toBe(200);
  await http(node.url, 'PUT', '/ign/_doc/1', { n: 'not a number', d: 'nope', k: 'ok' });
  await http(node.url, 'PUT', '/ign/_doc/2', { n: 5, k: 'too long' });
  await http(node.url, 'PUT', '/ign/_doc/3?routing=r1&refresh=true', { n: 6, k: 'abc' });
});
afterAll(async () => {
  await node?.stop();
});

describe('_ignored', () => {
  it('is returned in hits', async () => {
    const res = await http(node.url, 'POST', '/ign/_search', { sort: ['_doc'] });
    const byId = Object.fromEntries(
      res.json.hits.hits.map((h: { _id: string; _ignored?: string[] }) => [h._id, h._ignored]),
    );
    expect(byId).toEqual({ 1: ['d', 'n'], 2: ['k'], 3: undefined });
  });

  it('is returned by GET, from a segment and from the unrefreshed buffer', async () => {
    const got = await http(node.url, 'GET', '/ign/_doc/1');
    expect(got.json._ignored).toEqual(['d', 'n']);
    await http(node.url, 'PUT', '/ign/_doc/9', { k: 'long value' });
    const fresh = await http(node.url, 'GET', '/ign/_doc/9');
    expect(fresh.json._ignored).toEqual(['k']);
    const none = await http(node.url, 'GET', '/ign/_doc/3?routing=r1');
    expect(none.json).not.toHaveProperty('_ignored');
    await http(node.url, 'DELETE', '/ign/_doc/9?refresh=true');
  });

  it('is searchable and aggregatable', async () => {
    const term = await http(node.url, 'POST', '/ign/_search', { query: { term: { _ignored: 'n' } } });
    expect(term.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1']);
    const exists = await http(node.url, 'POST', '/ign/_search', { query: { exists: { field: '_ignored' } } });
    expect(exists.json.hits.total.value).toBe(2);
    const agg = await http(node.url, 'POST', '/ign/_search', {
      size: 0,
      aggs: { ignored: { terms: { field: '_ignored' } } },
    });
    expect(agg.json.aggregations.ignored.buckets).toEqual([
      { key: 'd', doc_count: 1 },
      { key: 'k', doc_count: 1 },
      { key: 'n', doc_count: 1 },
    ]);
  });
});

describe('_routing', () => {
  it('round trips through GET and search', async () => {
    const got = await http(node.url, 'GET', '/ign/_doc/3?routing=r1');
    expect(got.json._routing).toBe('r1');
    const res = await http(node.url, 'POST', '/ign/_search', { query: { ids: { values: ['3'] } } });
    expect(res.json.hits.hits[0]._routing).toBe('r1');
    const byRouting = await http(node.url, 'POST', '/ign/_search', { query: { term: { _routing: 'r1' } } });
    expect(byRouting.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['3']);
  });
});

describe('stored_fields', () => {
  it('returns fields mapped with store: true from GET and search', async () => {
    await http(node.url, 'PUT', '/stored', {
      mappings: {
        properties: {
          foo: { type: 'keyword', store: true },
          count: { type: 'integer', store: true },
          when: { type: 'date', store: true, format: 'yyyy-MM-dd' },
          plain: { type: 'keyword' },
        },
      },
    });
    await http(node.url, 'PUT', '/stored/_doc/1?refresh=true', {
      foo: 'bar',
      count: 1,
      when: '2024-05-06',
      plain: 'x',
    });
    const one = await http(node.url, 'GET', '/stored/_doc/1?stored_fields=foo');
    expect(one.json.fields).toEqual({ foo: ['bar'] });
    expect(one.json).not.toHaveProperty('_source');
    const two = await http(node.url, 'GET', '/stored/_doc/1?stored_fields=foo,count,plain,_source');
    expect(two.json.fields).toEqual({ foo: ['bar'], count: [1] });
    expect(two.json._source.foo).toBe('bar');
    const res = await http(node.url, 'POST', '/stored/_search', { stored_fields: ['foo', 'when', 'plain'] });
    const hit = res.json.hits.hits[0];
    expect(hit.fields).toEqual({ foo: ['bar'], when: ['2024-05-06'] });
    expect(hit).not.toHaveProperty('_source');
  });

  it('answers 501 for stored fields of an index that keeps no _source', async () => {
    await http(node.url, 'PUT', '/stored-nosource', {
      mappings: { _source: { enabled: false }, properties: { foo: { type: 'keyword', store: true } } },
    });
    const res = await http(node.url, 'POST', '/stored-nosource/_search', { stored_fields: ['foo'] });
    expect(res.status).toBe(501);
  });
});

describe('matched_queries', () => {
  it('names the named queries each hit matches, with scores when asked', async () => {
    await http(node.url, 'PUT', '/named/_doc/1', { title: 'quick fox', n: 1 });
    await http(node.url, 'PUT', '/named/_doc/2?refresh=true', { title: 'lazy dog', n: 2 });
    const query = {
      bool: {
        should: [
          { match: { title: { query: 'fox', _name: 'fox' } } },
          { term: { n: { value: 2, _name: 'two' } } },
          { range: { n: { gte: 1, _name: 'any' } } },
        ],
      },
    };
    const res = await http(node.url, 'POST', '/named/_search', { query, sort: ['n'] });
    expect(res.json.hits.hits.map((h: { matched_queries: string[] }) => h.matched_queries)).toEqual([
      ['fox', 'any'],
      ['two', 'any'],
    ]);
    const scored = await http(node.url, 'POST', '/named/_search?include_named_queries_score=true', {
      query,
      sort: ['n'],
    });
    const first = scored.json.hits.hits[0].matched_queries;
    expect(Object.keys(first)).toEqual(['fox', 'any']);
    expect(first.any).toBe(1);
    expect(first.fox).toBeGreaterThan(0);
    const plain = await http(node.url, 'POST', '/named/_search', { query: { match_all: {} } });
    expect(plain.json.hits.hits[0]).not.toHaveProperty('matched_queries');
  });
});
