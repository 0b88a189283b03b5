/**
 * `fields`, `docvalue_fields` and `stored_fields` as Elasticsearch 8 returns them: values from
 * `_source` parsed and formatted by each field's type, values from doc values, and what
 * `stored_fields` does to `_id` and `_source`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/ff', {
    mappings: {
      properties: {
        title: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 8 } } },
        n: { type: 'long' },
        f: { type: 'float' },
        d: { type: 'double' },
        at: { type: 'date' },
        ok: { type: 'boolean' },
        addr: { type: 'ip' },
        tag: { type: 'keyword', null_value: 'none' },
        loc: { type: 'geo_point' },
      },
    },
  });
  expect(created.status).toBe(200);
  const lines = [
    { index: { _index: 'ff', _id: '1' } },
    {
      title: 'short',
      n: '7',
      f: 1.1,
      d: 2,
      at: '2024-01-02T03:04:05Z',
      ok: 'true',
      addr: '::ffff:10.0.0.1',
      tag: null,
      loc: { lat: 41.12, lon: -71 },
      extra: { a: 1 },
    },
    { index: { _index: 'ff', _id: '2' } },
    { title: 'a much longer title', n: [3, 1, 3], tag: ['b', 'a', 'b'], ok: false },
  ];
  const bulk = await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

async function hit(body: Record<string, unknown>, id: string, query = ''): Promise<Record<string, unknown>> {
  const r = await http(node.url, 'POST', `/ff/_search${query}`, {
    query: { ids: { values: [id] } },
    ...body,
  });
  expect(r.status).toBe(200);
  return r.json.hits.hits[0];
}

describe('fields', () => {
  it('parses and formats source values by field type', async () => {
    const h = await hit({ fields: ['n', 'f', 'd', 'at', 'ok', 'addr', 'tag', 'loc', 'title*'] }, '1');
    expect(h.fields).toEqual({
      n: [7],
      f: [1.1],
      d: [2],
      at: ['2024-01-02T03:04:05.000Z'],
      ok: [true],
      addr: ['10.0.0.1'],
      tag: ['none'],
      loc: [{ type: 'Point', coordinates: [-71, 41.12] }],
      title: ['short'],
      'title.raw': ['short'],
    });
    expect(h._source).toBeDefined();
  });
  it('puts ignore_above values in ignored_field_values and formats dates on request', async () => {
    const h = await hit({ fields: ['title.raw', { field: 'n' }], _source: false }, '2');
    expect(h.fields).toEqual({ n: [3, 1, 3] });
    expect(h.ignored_field_values).toEqual({ 'title.raw': ['a much longer title'] });
    const d = await hit({ fields: [{ field: 'at', format: 'epoch_millis' }] }, '1');
    expect(d.fields).toEqual({ at: ['1704164645000'] });
  });
  it('returns unmapped values with include_unmapped', async () => {
    const h = await hit({ fields: [{ field: 'extra.*', include_unmapped: true }] }, '1');
    expect(h.fields).toEqual({ 'extra.a': [1] });
  });
});

describe('docvalue_fields', () => {
  it('reads doc values, sorted and deduplicated as doc values are', async () => {
    const h = await hit({ docvalue_fields: ['n', 'tag', 'ok'] }, '2');
    expect(h.fields).toEqual({ n: [1, 3, 3], tag: ['a', 'b'], ok: [false] });
    const d = await hit({ docvalue_fields: ['at', { field: 'at', format: 'epoch_millis' }, 'f'] }, '1');
    expect((d.fields as Record<string, unknown>).f).toEqual([1.100000023841858]);
    const u = await hit({}, '1', '?docvalue_fields=addr');
    expect(u.fields).toEqual({ addr: ['10.0.0.1'] });
  });
  it('refuses text fields and too many fields', async () => {
    const r = await http(node.url, 'POST', '/ff/_search', { docvalue_fields: ['title'] });
    expect(JSON.stringify(r.json)).toContain('Fielddata is disabled on [title] in [ff]');
    await http(node.url, 'PUT', '/ff/_settings', { index: { max_docvalue_fields_search: 1 } });
    const m = await http(node.url, 'POST', '/ff/_search', { docvalue_fields: ['n', 'd'] });
    expect(m.status).toBe(400);
    expect(JSON.stringify(m.json)).toContain(
      'Trying to retrieve too many docvalue_fields. Must be less than or equal to: [1] but was [2].',
    );
    await http(node.url, 'PUT', '/ff/_settings', { index: { max_docvalue_fields_search: 100 } });
  });
});

describe('stored_fields', () => {
  it('_none_ leaves out _id and _source; a list leaves out _source', async () => {
    const none = await hit({ stored_fields: '_none_' }, '1');
    expect(Object.keys(none)).toEqual(['_index', '_score']);
    const empty = await hit({ stored_fields: [] }, '1');
    expect(Object.keys(empty)).toEqual(['_index', '_id', '_score']);
    const src = await hit({}, '1', '?stored_fields=_source,n');
    expect(src._source).toBeDefined();
    expect(src.fields).toBeUndefined();
  });
  it('rejects _none_ with _source or fields', async () => {
    const r = await http(node.url, 'POST', '/ff/_search', { stored_fields: '_none_', _source: true });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('action_request_validation_exception');
    const c = await http(node.url, 'POST', '/ff/_search', { stored_fields: ['_none_', 'n'] });
    expect(c.json.error.reason).toBe('cannot combine _none_ with other fields');
  });
});
