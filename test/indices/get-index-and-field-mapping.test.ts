import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/books', {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: {
      properties: {
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        year: { type: 'integer' },
        author: { properties: { name: { type: 'keyword' } } },
      },
    },
  });
  await http(node.url, 'PUT', '/films', { settings: { number_of_replicas: 0 } });
});
afterAll(async () => {
  await node?.stop();
});

describe('get index', () => {
  it('answers {} for a wildcard that matches nothing, and 404 when allow_no_indices=false', async () => {
    const r = await http(node.url, 'GET', '/nothing*');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});
    const strict = await http(node.url, 'GET', '/nothing*?allow_no_indices=false');
    expect(strict.status).toBe(404);
    expect(strict.json.error.type).toBe('index_not_found_exception');
    expect((await http(node.url, 'GET', '/nothing')).status).toBe(404);
  });

  it('keeps HEAD strict: a wildcard that matches nothing does not exist', async () => {
    expect((await http(node.url, 'HEAD', '/nothing*')).status).toBe(404);
    expect((await http(node.url, 'HEAD', '/boo*')).status).toBe(200);
    expect((await http(node.url, 'HEAD', '/books')).status).toBe(200);
  });

  it('shows only the requested features', async () => {
    const r = await http(node.url, 'GET', '/books?features=aliases,settings');
    expect(Object.keys(r.json.books)).toEqual(['aliases', 'settings']);
  });

  it('adds readable creation date and version with human=true', async () => {
    const plain = await http(node.url, 'GET', '/books');
    expect(plain.json.books.settings.index.creation_date_string).toBeUndefined();
    const r = await http(node.url, 'GET', '/books?human=true&flat_settings=true');
    const s = r.json.books.settings;
    expect(s['index.version.created_string']).toMatch(/^8\.\d+\.\d+$/);
    expect(Date.parse(s['index.creation_date_string'])).toBe(Number(s['index.creation_date']));
    const settings = await http(node.url, 'GET', '/books/_settings?human=true');
    expect(settings.json.books.settings.index.version.created_string).toMatch(/^8\.\d+\.\d+$/);
  });
});

describe('get field mapping', () => {
  it('answers an exact field under its name, with the mapping under the leaf name', async () => {
    const r = await http(node.url, 'GET', '/books/_mapping/field/title');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      books: {
        mappings: {
          title: {
            full_name: 'title',
            mapping: { title: { type: 'text', fields: { raw: { type: 'keyword' } } } },
          },
        },
      },
    });
    const nested = await http(node.url, 'GET', '/books/_mapping/field/author.name,title.raw');
    expect(nested.json.books.mappings).toEqual({
      'author.name': { full_name: 'author.name', mapping: { name: { type: 'keyword' } } },
      'title.raw': { full_name: 'title.raw', mapping: { raw: { type: 'keyword' } } },
    });
  });

  it('leaves out missing and object fields but keeps the index', async () => {
    const r = await http(node.url, 'GET', '/books/_mapping/field/nope,author');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ books: { mappings: {} } });
  });

  it('expands field patterns to full names across indices', async () => {
    const r = await http(node.url, 'GET', '/_mapping/field/t*');
    expect(r.json).toEqual({
      books: {
        mappings: {
          title: {
            full_name: 'title',
            mapping: { title: { type: 'text', fields: { raw: { type: 'keyword' } } } },
          },
          'title.raw': { full_name: 'title.raw', mapping: { raw: { type: 'keyword' } } },
        },
      },
      films: { mappings: {} },
    });
  });

  it('answers 404 for a missing index and warns about local', async () => {
    const missing = await http(node.url, 'GET', '/nothing/_mapping/field/title');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    const none = await http(node.url, 'GET', '/nothing*/_mapping/field/title');
    expect(none.status).toBe(404);
    expect(none.json).toEqual({});
    const local = await http(node.url, 'GET', '/books/_mapping/field/year?local=true');
    expect(local.status).toBe(200);
    expect(String(local.headers.warning)).toContain(
      'Use [local] in get field mapping requests is deprecated. The parameter will be removed in the next major version',
    );
  });
});

describe('get settings', () => {
  it('filters the defaults by the requested names as well', async () => {
    const r = await http(
      node.url,
      'GET',
      '/books/_settings/index.max_result*,index.number_of_shards?include_defaults=true&flat_settings=true',
    );
    expect(r.json.books).toEqual({
      settings: { 'index.number_of_shards': '1' },
      defaults: { 'index.max_result_window': '10000' },
    });
    const none = await http(node.url, 'GET', '/books/_settings/nothing.here?include_defaults=true');
    expect(none.json.books).toEqual({ settings: {}, defaults: {} });
  });
});
