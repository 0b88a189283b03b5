/**
 * Index templates end to end (Elasticsearch's indices.put_index_template, get_index_template,
 * cluster.component_template and indices.put_template suites): composable templates with
 * component templates applied to explicit and automatic index creation, priorities, the
 * legacy API and its warnings, simulation, errors, and templates surviving a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
});
afterAll(async () => {
  await node?.stop();
});

describe('composable index templates', () => {
  it('put, get (settings nested as strings), and an index created from it', async () => {
    const put = await http(url, 'PUT', '/_index_template/test', {
      index_patterns: 'test-*',
      template: {
        settings: { number_of_shards: 1, number_of_replicas: 0 },
        mappings: { properties: { field: { type: 'keyword' } } },
        aliases: {
          test_alias: {},
          test_blias: { routing: 'b' },
          test_clias: { filter: { term: { user: 'kimchy' } } },
        },
      },
      priority: 10,
      version: 3,
      _meta: { owner: 'ops' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ acknowledged: true });
    const got = await http(url, 'GET', '/_index_template/test');
    expect(got.json.index_templates[0].name).toBe('test');
    const t = got.json.index_templates[0].index_template;
    expect(t.index_patterns).toEqual(['test-*']);
    expect(t.template.settings.index).toEqual({ number_of_shards: '1', number_of_replicas: '0' });
    expect(t.template.mappings).toEqual({ properties: { field: { type: 'keyword' } } });
    expect(t.template.aliases.test_blias).toEqual({ index_routing: 'b', search_routing: 'b' });
    expect(t).toMatchObject({ composed_of: [], priority: 10, version: 3, _meta: { owner: 'ops' } });

    const created = await http(url, 'PUT', '/test-1', {
      mappings: { properties: { other: { type: 'long' } } },
    });
    expect(created.status, created.text).toBe(200);
    const index = await http(url, 'GET', '/test-1');
    expect(index.json['test-1'].mappings.properties).toEqual({
      field: { type: 'keyword' },
      other: { type: 'long' },
    });
    expect(index.json['test-1'].settings.index.number_of_replicas).toBe('0');
    expect(Object.keys(index.json['test-1'].aliases).sort()).toEqual([
      'test_alias',
      'test_blias',
      'test_clias',
    ]);

    // A first write creates the index from the template too.
    const write = await http(url, 'PUT', '/test-auto/_doc/1?refresh=true', { field: 'x' });
    expect(write.status, write.text).toBe(201);
    const auto = await http(url, 'GET', '/test-auto/_mapping');
    expect(auto.json['test-auto'].mappings.properties.field).toEqual({ type: 'keyword' });
  });

  it('component templates compose in order, the template and then the request winning', async () => {
    await http(url, 'PUT', '/_component_template/ct_settings', {
      template: { settings: { number_of_shards: 2, 'index.refresh_interval': '5s' } },
    });
    await http(url, 'PUT', '/_component_template/ct_mappings', {
      template: {
        mappings: {
          properties: {
            a: { type: 'keyword' },
            b: { type: 'text' },
            o: { properties: { x: { type: 'long' } } },
          },
        },
      },
      version: 2,
    });
    const put = await http(url, 'PUT', '/_index_template/composed', {
      index_patterns: ['logs-app-*'],
      composed_of: ['ct_settings', 'ct_mappings'],
      template: {
        settings: { number_of_shards: 3 },
        mappings: { properties: { b: { type: 'keyword' }, o: { properties: { y: { type: 'integer' } } } } },
      },
    });
    expect(put.status, put.text).toBe(200);
    const created = await http(url, 'PUT', '/logs-app-1', { settings: { 'index.refresh_interval': '1s' } });
    expect(created.status, created.text).toBe(200);
    const index = (await http(url, 'GET', '/logs-app-1')).json['logs-app-1'];
    expect(index.settings.index.number_of_shards).toBe('3');
    expect(index.settings.index.refresh_interval).toBe('1s');
    expect(index.mappings.properties).toEqual({
      a: { type: 'keyword' },
      b: { type: 'keyword' },
      o: { properties: { x: { type: 'long' }, y: { type: 'integer' } } },
    });
    const comps = await http(url, 'GET', '/_component_template/ct_*');
    expect(comps.json.component_templates.map((c: { name: string }) => c.name).sort()).toEqual([
      'ct_mappings',
      'ct_settings',
    ]);
    expect(
      comps.json.component_templates.find((c: { name: string }) => c.name === 'ct_mappings')
        .component_template.version,
    ).toBe(2);

    const sim = await http(url, 'POST', '/_index_template/_simulate_index/logs-app-2');
    expect(sim.status, sim.text).toBe(200);
    expect(sim.json.template.settings.index).toMatchObject({ number_of_shards: '3', refresh_interval: '5s' });
    expect(sim.json.template.mappings.properties.b).toEqual({ type: 'keyword' });
    expect(sim.json.overlapping).toEqual([]);
  });

  it('the highest priority wins; the same priority on overlapping patterns is refused', async () => {
    await http(url, 'PUT', '/_index_template/low', {
      index_patterns: ['prio-*'],
      priority: 1,
      template: { settings: { number_of_shards: 1 } },
    });
    await http(url, 'PUT', '/_index_template/high', {
      index_patterns: ['prio-a*'],
      priority: 5,
      template: { settings: { number_of_shards: 2 } },
    });
    await http(url, 'PUT', '/prio-a1');
    await http(url, 'PUT', '/prio-b1');
    expect(
      (await http(url, 'GET', '/prio-a1/_settings')).json['prio-a1'].settings.index.number_of_shards,
    ).toBe('2');
    expect(
      (await http(url, 'GET', '/prio-b1/_settings')).json['prio-b1'].settings.index.number_of_shards,
    ).toBe('1');
    const clash = await http(url, 'PUT', '/_index_template/clash', {
      index_patterns: ['prio-*x'],
      priority: 1,
    });
    expect(clash.status).toBe(400);
    expect(clash.json.error.reason).toBe(
      'index template [clash] has index patterns [prio-*x] matching patterns from existing templates [low] with patterns (low => [prio-*]) that have the same priority [1], multiple index templates may not match during index creation, please use a different priority',
    );
  });

  it('errors: no patterns, create=true on an existing one, a missing component, bad settings or mappings, unknown names', async () => {
    const noPatterns = await http(url, 'PUT', '/_index_template/bad', {});
    expect(noPatterns.status).toBe(400);
    expect(noPatterns.json.error.reason).toMatch(/index patterns are missing/);
    await http(url, 'PUT', '/_index_template/once', { index_patterns: ['once-*'], priority: 77 });
    const again = await http(url, 'PUT', '/_index_template/once?create=true', {
      index_patterns: ['once-*'],
      priority: 77,
    });
    expect(again.status).toBe(400);
    expect(again.json.error.reason).toBe('index template [once] already exists');
    const missing = await http(url, 'PUT', '/_index_template/m', {
      index_patterns: ['m-*'],
      composed_of: ['nope'],
    });
    expect(missing.json.error.reason).toBe(
      'index template [m] specifies component templates [nope] that do not exist',
    );
    const badSettings = await http(url, 'PUT', '/_index_template/bs', {
      index_patterns: ['bs-*'],
      template: { settings: { 'index.no_such': 1 } },
    });
    expect(badSettings.status).toBe(400);
    const badMappings = await http(url, 'PUT', '/_index_template/bm', {
      index_patterns: ['bm-*'],
      template: { mappings: { properties: { f: { type: 'no_such_type' } } } },
    });
    expect(badMappings.status).toBe(400);
    expect(badMappings.json.error.reason).toBe(
      'composable template [bm] template after composition is invalid',
    );
    const unknownField = await http(url, 'PUT', '/_index_template/uf', { index_patterns: ['uf-*'], junk: 1 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.error.reason).toMatch(/\[index_template\] unknown field \[junk\]/);
    const get = await http(url, 'GET', '/_index_template/nothing_here');
    expect(get.status).toBe(404);
    expect(get.json.error.reason).toBe('index template matching [nothing_here] not found');
    const del = await http(url, 'DELETE', '/_index_template/nothing_here');
    expect(del.status).toBe(404);
    expect(del.json.error.type).toBe('index_template_missing_exception');
    expect((await http(url, 'HEAD', '/_index_template/once')).status).toBe(200);
    expect((await http(url, 'HEAD', '/_index_template/nothing_here')).status).toBe(404);
    const inUse = await http(url, 'DELETE', '/_component_template/ct_settings');
    expect(inUse.status).toBe(400);
    expect(inUse.json.error.reason).toBe(
      'component templates [ct_settings] cannot be removed as they are still in use by index templates [composed]',
    );
  });

  it('deletes several templates at once', async () => {
    for (const n of ['foo', 'bar', 'baz'])
      await http(url, 'PUT', `/_index_template/${n}`, { index_patterns: [`${n}-*`], priority: 200 });
    expect((await http(url, 'DELETE', '/_index_template/foo,bar')).status).toBe(200);
    expect((await http(url, 'GET', '/_index_template/foo')).status).toBe(404);
    expect((await http(url, 'GET', '/_index_template/baz')).json.index_templates[0].name).toBe('baz');
  });

  it('a data stream template refuses a plain index of its name', async () => {
    await http(url, 'PUT', '/_index_template/ds', {
      index_patterns: ['ds-*'],
      data_stream: {},
      priority: 300,
    });
    const r = await http(url, 'PUT', '/ds-1');
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      'cannot create index with name [ds-1], because it matches with template [ds] that creates data streams only, use create data stream api instead',
    );
  });
});

describe('legacy templates', () => {
  it('put with its deprecation warning, get, apply in order, and lose to a composable template', async () => {
    const put = await http(url, 'PUT', '/_template/legacy_low', {
      index_patterns: ['leg-*'],
      order: 0,
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { a: { type: 'keyword' } } },
    });
    expect(put.status, put.text).toBe(200);
    expect(String(put.headers.warning)).toContain(
      'Legacy index templates are deprecated in favor of composable templates.',
    );
    await http(url, 'PUT', '/_template/legacy_high', {
      index_patterns: ['leg-*'],
      order: 1,
      settings: { number_of_shards: 2 },
    });
    const got = await http(url, 'GET', '/_template/legacy_low');
    expect(got.json.legacy_low).toMatchObject({
      order: 0,
      index_patterns: ['leg-*'],
      mappings: { properties: { a: { type: 'keyword' } } },
    });
    expect(got.json.legacy_low.settings.index.number_of_shards).toBe('1');
    await http(url, 'PUT', '/leg-1');
    const s = (await http(url, 'GET', '/leg-1/_settings')).json['leg-1'].settings.index;
    expect(s.number_of_shards).toBe('2');
    expect(s.number_of_replicas).toBe('0');
    expect((await http(url, 'GET', '/_template/none_such')).status).toBe(404);

    const v2 = await http(url, 'PUT', '/_index_template/leg_v2', {
      index_patterns: ['leg-v2-*'],
      priority: 400,
    });
    expect(String(v2.headers.warning)).toContain(
      'matching patterns from existing older templates [legacy_low,legacy_high]',
    );
    await http(url, 'PUT', '/leg-v2-1');
    expect(
      (await http(url, 'GET', '/leg-v2-1/_settings')).json['leg-v2-1'].settings.index.number_of_shards,
    ).toBe('1');
  });
});

describe('durability', () => {
  it('templates survive a restart', async () => {
    node = await node.restart();
    url = node.url;
    expect((await http(url, 'GET', '/_index_template/composed')).status).toBe(200);
    expect((await http(url, 'GET', '/_component_template/ct_mappings')).status).toBe(200);
    expect((await http(url, 'GET', '/_template/legacy_low')).status).toBe(200);
  });
});
