import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const reasonOf = (r: { json: { error: { reason: string } } }) => r.json.error.reason;

describe('index.mapping.* limits', () => {
  it('bound explicit mappings at creation and on PUT _mapping', async () => {
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}`, { type: 'keyword' }]));
    const tooMany = await http(node.url, 'PUT', '/lim1', {
      settings: { 'index.mapping.total_fields.limit': 3 },
      mappings: { properties: many },
    });
    expect(tooMany.status).toBe(400);
    expect(reasonOf(tooMany)).toBe('Limit of total fields [3] has been exceeded');

    const created = await http(node.url, 'PUT', '/lim1', {
      settings: { 'index.mapping.depth.limit': 2, 'index.mapping.field_name_length.limit': 8 },
      mappings: { properties: { a: { properties: { b: { type: 'keyword' } } } } },
    });
    expect(created.status).toBe(200);
    const deep = await http(node.url, 'PUT', '/lim1/_mapping', {
      properties: { a: { properties: { b2: { properties: { c: { type: 'keyword' } } } } } },
    });
    expect(reasonOf(deep)).toBe('Limit of mapping depth [2] has been exceeded due to object field [a.b2]');
    const long = await http(node.url, 'PUT', '/lim1/_mapping', {
      properties: { much_too_long: { type: 'keyword' } },
    });
    expect(reasonOf(long)).toBe('Field name [much_too_long] is longer than the limit of [8] characters');
  });

  it('bound dynamic mappings on the shards, with the index setting and its updates', async () => {
    await http(node.url, 'PUT', '/dyn', {
      settings: { number_of_shards: 2, 'index.mapping.total_fields.limit': 2 },
    });
    expect((await http(node.url, 'PUT', '/dyn/_doc/1', { a: 1, b: 2 })).status).toBe(201);
    const third = await http(node.url, 'PUT', '/dyn/_doc/2', { c: 3 });
    expect(third.status).toBe(400);
    expect(reasonOf(third)).toMatch(
      /Limit of total fields \[2\] has been exceeded while adding new fields \[1\]/,
    );
    // Above Elasticsearch's default of 1000 once the setting says so, on every shard.
    await http(node.url, 'PUT', '/dyn/_settings', { 'index.mapping.total_fields.limit': 1200 });
    const wide = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`w${i}`, i]));
    const lines = ['1', '2', '3', '4'].flatMap((id) => [{ index: { _index: 'dyn', _id: `w${id}` } }, wide]);
    const bulk = await http(node.url, 'POST', '/_bulk', ndjson(lines));
    expect(bulk.json.errors).toBe(false);
    // Lowering the limit below the mapping's size is allowed; the next new field is not.
    expect(
      (await http(node.url, 'PUT', '/dyn/_settings', { 'index.mapping.total_fields.limit': 10 })).status,
    ).toBe(200);
    const more = await http(node.url, 'PUT', '/dyn/_doc/9', { fresh: 1 });
    expect(more.status).toBe(400);
  });

  it('bound the nested objects of a document', async () => {
    await http(node.url, 'PUT', '/nest', {
      settings: { 'index.mapping.nested_objects.limit': 2 },
      mappings: { properties: { n: { type: 'nested' } } },
    });
    expect((await http(node.url, 'PUT', '/nest/_doc/1', { n: [{ x: 1 }, { x: 2 }] })).status).toBe(201);
    const over = await http(node.url, 'PUT', '/nest/_doc/2', { n: [{ x: 1 }, { x: 2 }, { x: 3 }] });
    expect(over.status).toBe(400);
    expect(over.json.error.type).toBe('document_parsing_exception');
    expect(reasonOf(over)).toMatch(/The number of nested documents has exceeded the allowed limit of \[2\]/);
    await http(node.url, 'PUT', '/nest/_settings', { 'index.mapping.nested_objects.limit': 5 });
    expect((await http(node.url, 'PUT', '/nest/_doc/2', { n: [{ x: 1 }, { x: 2 }, { x: 3 }] })).status).toBe(
      201,
    );
  });

  it('index.mapping.coerce and ignore_malformed change how values are parsed', async () => {
    await http(node.url, 'PUT', '/strict-values', {
      settings: { 'index.mapping.coerce': false, 'index.mapping.ignore_malformed': true },
      mappings: { properties: { n: { type: 'integer' }, d: { type: 'date' } } },
    });
    const r = await http(node.url, 'PUT', '/strict-values/_doc/1?refresh=true', { n: '5', d: 'not a date' });
    expect(r.status).toBe(201);
    const ignored = await http(node.url, 'POST', '/strict-values/_search', {
      query: { exists: { field: 'n' } },
    });
    expect(ignored.json.hits.total.value).toBe(0);
  });

  it('keep the limits across a restart, on the shards too', async () => {
    await http(node.url, 'PUT', '/kept', { settings: { 'index.mapping.total_fields.limit': 1 } });
    expect((await http(node.url, 'PUT', '/kept/_doc/1', { a: 1 })).status).toBe(201);
    node = await node.restart();
    const after = await http(node.url, 'PUT', '/kept/_doc/2', { b: 1 });
    expect(after.status).toBe(400);
    expect(reasonOf(after)).toMatch(/Limit of total fields \[1\] has been exceeded/);
  });
});

describe('index.hidden', () => {
  it('keeps a hidden index out of wildcards unless expand_wildcards names hidden', async () => {
    await http(node.url, 'PUT', '/visible-1/_doc/1?refresh=true', { a: 1 });
    await http(node.url, 'PUT', '/secret-1', { settings: { 'index.hidden': true } });
    await http(node.url, 'PUT', '/secret-1/_doc/1?refresh=true', { a: 1 });
    const star = await http(node.url, 'POST', '/*-1/_search', {});
    expect(star.json.hits.hits.map((h: { _index: string }) => h._index)).toEqual(['visible-1']);
    const all = await http(node.url, 'POST', '/*-1/_search?expand_wildcards=all', {});
    expect(all.json.hits.total.value).toBe(2);
    const named = await http(node.url, 'POST', '/secret-1/_search', {});
    expect(named.json.hits.total.value).toBe(1);
    await http(node.url, 'PUT', '/secret-1/_settings', { 'index.hidden': false });
    expect((await http(node.url, 'POST', '/*-1/_search', {})).json.hits.total.value).toBe(2);
  });
});
