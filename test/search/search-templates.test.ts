/**
 * Search templates end to end (Elasticsearch's lang_mustache/20_render_search_template and
 * 30_search_template): inline templates as objects and as escaped strings, rendering alone,
 * JSON escaping of parameters, toJson, join and url, a template that does not compile, a
 * stored template that does not exist, and the official client's searchTemplate.
 */
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulk } from '../paging/paging-support.ts';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  await http(url, 'PUT', '/tpl', {
    mappings: { properties: { text: { type: 'keyword' }, n: { type: 'integer' } } },
  });
  await bulk(url, 'tpl', [
    ['1', { text: 'value1', n: 1 }],
    ['2', { text: 'value2', n: 2 }],
    ['3', { text: 'va"lue', n: 3 }],
  ]);
});
afterAll(async () => {
  await node?.stop();
});

describe('_render/template', () => {
  it('renders an object template and an escaped string template', async () => {
    const obj = await http(url, 'POST', '/_render/template', {
      source: {
        query: { match: { text: '{{my_value}}' } },
        aggs: { my_terms: { terms: { field: '{{my_field}}' } } },
      },
      params: { my_value: 'foo', my_field: 'field1' },
    });
    expect(obj.status, obj.text).toBe(200);
    expect(obj.json.template_output).toEqual({
      query: { match: { text: 'foo' } },
      aggs: { my_terms: { terms: { field: 'field1' } } },
    });
    const str = await http(url, 'POST', '/_render/template', {
      source: '{ "query": { "match": { "text": "{{my_value}}" } }, "size": {{my_size}} }',
      params: { my_value: 'bar', my_size: 100 },
    });
    expect(str.json.template_output).toEqual({ query: { match: { text: 'bar' } }, size: 100 });
  });

  it('escapes parameters for JSON, and toJson, join and url work', async () => {
    const r = await http(url, 'POST', '/_render/template', {
      source:
        '{"a":"{{v}}","b":{{#toJson}}list{{/toJson}},"c":"{{#join}}list{{/join}}","d":"{{#join delimiter=\'||\'}}list{{/join delimiter=\'||\'}}","e":"{{#url}}{{q}}{{/url}}","f":{{#toJson}}obj{{/toJson}}}',
      params: { v: 'say "hi"\\', list: ['x', 'y'], q: 'a b&c', obj: { k: [1, 2] } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.template_output).toEqual({
      a: 'say "hi"\\',
      b: ['x', 'y'],
      c: 'x,y',
      d: 'x||y',
      e: 'a%20b%26c',
      f: { k: [1, 2] },
    });
  });

  it('an improperly closed variable fails to compile', async () => {
    const r = await http(url, 'POST', '/_render/template', {
      source: { query: { match: { text: '{{{my_value}}' } } },
      params: { my_value: 'bar' },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('general_script_exception');
    expect(r.text).toMatch(/Improperly.closed.variable.in.query-template/);
  });
});

describe('_search/template', () => {
  it('runs the rendered search, on all indices or on the path index', async () => {
    const r = await http(url, 'POST', '/_search/template?rest_total_hits_as_int=true', {
      source: { query: { term: { text: { value: '{{template}}' } } } },
      params: { template: 'value1' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.total).toBe(1);
    const all = await http(url, 'POST', '/tpl/_search/template', {
      source: { query: { 'match_{{template}}': {} }, size: '{{size}}' },
      params: { template: 'all', size: 2 },
    });
    expect(all.json.hits.total).toEqual({ value: 3, relation: 'eq' });
    expect(all.json.hits.hits).toHaveLength(2);
    const quoted = await http(url, 'POST', '/tpl/_search/template', {
      source: { query: { term: { text: '{{v}}' } } },
      params: { v: 'va"lue' },
    });
    expect(quoted.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['3']);
  });

  it('the template request is checked as the search is: a bad track_total_hits, an unknown field', async () => {
    const tth = await http(url, 'POST', '/_search/template?rest_total_hits_as_int=true', {
      source: { query: { 'match_{{template}}': {} }, track_total_hits: '{{trackTotalHits}}' },
      params: { template: 'all', trackTotalHits: 1 },
    });
    expect(tth.status).toBe(400);
    expect(tth.json.error.type).toBe('illegal_argument_exception');
    expect(tth.json.error.reason).toBe(
      '[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got 1',
    );
    const unknown = await http(url, 'POST', '/_search/template', { source: {}, junk: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toMatch(/\[search_template\] unknown field \[junk\]/);
  });

  it('a stored template (PUT /_scripts with lang mustache), rendered and searched by id', async () => {
    const put = await http(url, 'PUT', '/_scripts/tpl_by_id', {
      script: { lang: 'mustache', source: { query: { term: { text: '{{v}}' } }, size: '{{size}}' } },
    });
    expect(put.status, put.text).toBe(200);
    const rendered = await http(url, 'POST', '/_render/template/tpl_by_id', {
      params: { v: 'value2', size: 1 },
    });
    expect(rendered.json.template_output).toEqual({ query: { term: { text: 'value2' } }, size: '1' });
    const r = await http(url, 'POST', '/tpl/_search/template', {
      id: 'tpl_by_id',
      params: { v: 'value2', size: 5 },
    });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
    const stored = await http(url, 'GET', '/_scripts/tpl_by_id');
    expect(stored.json.script.lang).toBe('mustache');
    const broken = await http(url, 'PUT', '/_scripts/tpl_broken', {
      script: { lang: 'mustache', source: '{"a":"{{{x}}"}' },
    });
    expect(broken.status).toBe(400);
  });

  it('a stored template that does not exist is a 404', async () => {
    const r = await http(url, 'POST', '/_search/template', { id: 'unknown', params: { template: 'value1' } });
    expect(r.status).toBe(404);
    expect(r.json.error.type).toBe('resource_not_found_exception');
  });

  it('the official client', async () => {
    const client = new Client({ node: url, auth: node.auth });
    const { body } = await client.searchTemplate({
      index: 'tpl',
      body: { source: { query: { range: { n: { gte: '{{min}}' } } } }, params: { min: 2 } },
    });
    expect(body.hits.total.value).toBe(2);
    await client.close();
  });
});
