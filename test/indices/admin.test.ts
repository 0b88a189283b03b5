import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('index administration', () => {
  it('creates an index with settings and mappings and shows them back', async () => {
    const r = await http(node.url, 'PUT', '/movies', {
      settings: { number_of_shards: 3, number_of_replicas: 0, 'index.max_result_window': 500 },
      mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'movies' });
    const got = await http(node.url, 'GET', '/movies');
    expect(got.json.movies.mappings).toEqual({
      properties: { title: { type: 'text' }, year: { type: 'integer' } },
    });
    expect(got.json.movies.settings.index.number_of_shards).toBe('3');
    expect(got.json.movies.settings.index.max_result_window).toBe('500');
    expect(got.json.movies.aliases).toEqual({});
    expect((await http(node.url, 'HEAD', '/movies')).status).toBe(200);
    expect((await http(node.url, 'HEAD', '/nothing-here')).status).toBe(404);
  });

  it('refuses a second index of the same name and invalid names', async () => {
    const again = await http(node.url, 'PUT', '/movies');
    expect(again.status).toBe(400);
    expect(again.json.error.type).toBe('resource_already_exists_exception');
    const upper = await http(node.url, 'PUT', '/Movies');
    expect(upper.status).toBe(400);
    expect(upper.json.error.type).toBe('invalid_index_name_exception');
    expect(upper.json.error.reason).toBe('Invalid index name [Movies], must be lowercase');
  });

  it('updates dynamic settings live and refuses static ones', async () => {
    const ok = await http(node.url, 'PUT', '/movies/_settings', { index: { max_result_window: 800 } });
    expect(ok.json).toEqual({ acknowledged: true });
    const s = await http(node.url, 'GET', '/movies/_settings?flat_settings=true');
    expect(s.json.movies.settings['index.max_result_window']).toBe('800');
    const bad = await http(node.url, 'PUT', '/movies/_settings', { index: { number_of_shards: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toMatch(
      /^Can't update non dynamic settings \[\[index.number_of_shards\]\] for open indices \[\[movies\//,
    );
  });

  it('adds fields with PUT _mapping and refuses a type change', async () => {
    const add = await http(node.url, 'PUT', '/movies/_mapping', {
      properties: { genre: { type: 'keyword' } },
    });
    expect(add.json).toEqual({ acknowledged: true });
    const conflict = await http(node.url, 'PUT', '/movies/_mapping', {
      properties: { year: { type: 'text' } },
    });
    expect(conflict.status).toBe(400);
    expect(conflict.json.error.type).toBe('illegal_argument_exception');
    expect(conflict.json.error.reason).toBe('mapper [year] cannot be changed from type [integer] to [text]');
    const m = await http(node.url, 'GET', '/movies/_mapping');
    expect(m.json.movies.mappings.properties.year).toEqual({ type: 'integer' });
  });

  it('manages aliases and searches through them', async () => {
    await http(node.url, 'PUT', '/logs-1/_doc/1?refresh=true', { msg: 'one' });
    await http(node.url, 'PUT', '/logs-2/_doc/1?refresh=true', { msg: 'two' });
    const r = await http(node.url, 'POST', '/_aliases', {
      actions: [
        { add: { index: 'logs-1', alias: 'logs' } },
        { add: { index: 'logs-2', alias: 'logs', is_write_index: true } },
      ],
    });
    expect(r.json).toEqual({ acknowledged: true, errors: false });
    const search = await http(node.url, 'GET', '/logs/_search');
    expect(search.json.hits.total.value).toBe(2);
    const write = await http(node.url, 'PUT', '/logs/_doc/2', { msg: 'via alias' });
    expect(write.json._index).toBe('logs-2');
    const aliases = await http(node.url, 'GET', '/_alias/logs');
    expect(aliases.json).toEqual({
      'logs-1': { aliases: { logs: {} } },
      'logs-2': { aliases: { logs: { is_write_index: true } } },
    });
    const del = await http(node.url, 'DELETE', '/logs-1/_alias/logs');
    expect(del.status).toBe(200);
    expect((await http(node.url, 'GET', '/logs/_search')).json.hits.total.value).toBe(1);
  });

  it('lists indices with _cat/indices as text and JSON', async () => {
    await http(node.url, 'PUT', '/cats', { settings: { number_of_shards: 2 } });
    await http(node.url, 'PUT', '/cats/_doc/1?refresh=true', { a: 1 });
    const text = await http(node.url, 'GET', '/_cat/indices/cats?v');
    const [header, row] = text.text.trim().split('\n');
    expect(header!.split(/\s+/).slice(0, 7)).toEqual([
      'health',
      'status',
      'index',
      'uuid',
      'pri',
      'rep',
      'docs.count',
    ]);
    expect(row!.split(/\s+/).slice(0, 3)).toEqual(['yellow', 'open', 'cats']);
    const json = await http(node.url, 'GET', '/_cat/indices/cats?format=json');
    expect(json.json[0]).toMatchObject({
      health: 'yellow',
      status: 'open',
      index: 'cats',
      pri: '2',
      rep: '1',
      'docs.count': '1',
    });
  });

  it('filters _cat/indices by health, expands h wildcards and honours Accept', async () => {
    await http(node.url, 'PUT', '/cats-green', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const green = await http(node.url, 'GET', '/_cat/indices/cats*?health=green&h=index');
    expect(green.text).toBe('cats-green\n');
    const yellow = await http(node.url, 'GET', '/_cat/indices/cats*?health=YELLOW&h=i');
    expect(yellow.text).toBe('cats\n');
    const bad = await http(node.url, 'GET', '/_cat/indices?health=foo');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'unknown cluster health status [foo]',
    });
    const wild = await http(node.url, 'GET', '/_cat/indices/cats?h=i,st*,nope&format=json');
    expect(wild.status).toBe(200);
    expect(Object.keys(wild.json[0])).toEqual(['i', 'status', 'store.size']);
    const res = await fetch(`${node.url}/_cat/indices/cats?h=index,pri`, {
      headers: {
        accept: 'application/json',
        authorization: basicAuth(node.auth.username, node.auth.password),
      },
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual([{ index: 'cats', pri: '2' }]);
    await http(node.url, 'DELETE', '/cats-green');
  });

  it('deletes indices and answers 404 for unknown ones', async () => {
    expect((await http(node.url, 'DELETE', '/cats')).json).toEqual({ acknowledged: true });
    const missing = await http(node.url, 'DELETE', '/cats');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({
      type: 'index_not_found_exception',
      reason: 'no such index [cats]',
      'resource.type': 'index_or_alias',
      'resource.id': 'cats',
      index: 'cats',
    });
  });

  it('honours action.auto_create_index', async () => {
    await http(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'action.auto_create_index': 'false' },
    });
    const r = await http(node.url, 'PUT', '/not-auto/_doc/1', { a: 1 });
    expect(r.status).toBe(404);
    expect(r.json.error.type).toBe('index_not_found_exception');
    await http(node.url, 'PUT', '/_cluster/settings', { persistent: { 'action.auto_create_index': null } });
    expect((await http(node.url, 'PUT', '/not-auto/_doc/1', { a: 1 })).status).toBe(201);
  });
});
