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

const reasonOf = (r: { json: { error: { reason: string } } }) => r.json.error.reason;

/** The settings an index template of a real client carries (ILM, allocation, merges, slow logs…). */
const TEMPLATE_SETTINGS = {
  index: {
    number_of_shards: 2,
    number_of_replicas: 0,
    codec: 'best_compression',
    refresh_interval: '5s',
    lifecycle: { name: 'logs', rollover_alias: 'logs-alias', parse_origination_date: true },
    routing: {
      allocation: { include: { _tier_preference: 'data_hot,data_content' }, total_shards_per_node: 4 },
    },
    'unassigned.node_left.delayed_timeout': '5m',
    mapping: { total_fields: { limit: 5000 }, ignore_malformed: true },
    max_result_window: 50000,
    max_docvalue_fields_search: 200,
    'query.default_field': ['message', 'host.*'],
    translog: { durability: 'async', sync_interval: '10s', flush_threshold_age: '5m' },
    merge: {
      policy: { max_merged_segment: '2gb', segments_per_tier: 8 },
      scheduler: { max_thread_count: 1 },
    },
    'search.slowlog.threshold.query.warn': '10s',
    'indexing.slowlog.threshold.index.warn': '10s',
    'indexing.slowlog.source': '1000',
    'search.idle.after': '60s',
    'requests.cache.enable': true,
    'write.wait_for_active_shards': '1',
    hidden: false,
    priority: 100,
    'soft_deletes.retention_lease.period': '12h',
    'shard.check_on_startup': 'false',
    'store.preload': ['nvd', 'dvd'],
    max_ngram_diff: 2,
    max_shingle_diff: 4,
    max_script_fields: 64,
    max_inner_result_window: 200,
    'analyze.max_token_count': 20000,
    'highlight.max_analyzed_offset': 2000000,
    sort: { field: ['@timestamp', 'host'], order: ['desc', 'asc'] },
  },
};

describe('index settings of Elasticsearch 8', () => {
  it('accepts a real template and shows the settings back as given', async () => {
    const created = await http(node.url, 'PUT', '/tpl', {
      settings: TEMPLATE_SETTINGS,
      mappings: {
        properties: { '@timestamp': { type: 'date' }, host: { type: 'keyword' }, message: { type: 'text' } },
      },
    });
    expect(created.status).toBe(200);
    const got = await http(node.url, 'GET', '/tpl/_settings?flat_settings=true');
    const s = got.json.tpl.settings;
    expect(s['index.lifecycle.name']).toBe('logs');
    expect(s['index.routing.allocation.include._tier_preference']).toBe('data_hot,data_content');
    expect(s['index.merge.policy.segments_per_tier']).toBe('8');
    expect(s['index.sort.field']).toEqual(['@timestamp', 'host']);
    expect(s['index.store.preload']).toEqual(['nvd', 'dvd']);
    expect(s['index.max_ngram_diff']).toBe('2');
  });

  it('shows Elasticsearch defaults with include_defaults', async () => {
    await http(node.url, 'PUT', '/plain', {});
    const got = await http(node.url, 'GET', '/plain/_settings?include_defaults=true&flat_settings=true');
    expect(got.json.plain.settings['index.routing.allocation.include._tier_preference']).toBe('data_content');
    const d = got.json.plain.defaults;
    expect(d['index.max_script_fields']).toBe('32');
    expect(d['index.max_inner_result_window']).toBe('100');
    expect(d['index.max_ngram_diff']).toBe('1');
    expect(d['index.max_shingle_diff']).toBe('3');
    expect(d['index.mapping.depth.limit']).toBe('20');
    expect(d['index.mapping.nested_objects.limit']).toBe('10000');
    expect(d['index.mapping.field_name_length.limit']).toBe('9223372036854775807');
    expect(d['index.blocks.write']).toBe('false');
    expect(d['index.gc_deletes']).toBe('60s');
    expect(d['index.default_pipeline']).toBe('_none');
    expect(d['index.sort.field']).toEqual([]);
    expect(d['index.mode']).toBe('standard');
    expect(d['index.translog.flush_threshold_age']).toBe('1m');
    expect(d['index.lifecycle.origination_date']).toBe('-1');
    const one = await http(
      node.url,
      'GET',
      '/plain/_settings/index.max_script*?include_defaults=true&flat_settings=true',
    );
    expect(one.json.plain).toEqual({ settings: {}, defaults: { 'index.max_script_fields': '32' } });
  });

  it('refuses unknown settings and bad values with Elasticsearch errors', async () => {
    const unknown = await http(node.url, 'PUT', '/bad', { settings: { 'index.max_scrpt_fields': 1 } });
    expect(unknown.status).toBe(400);
    expect(reasonOf(unknown)).toBe(
      'unknown setting [index.max_scrpt_fields] did you mean [index.max_script_fields]?',
    );
    const depth = await http(node.url, 'PUT', '/bad', { settings: { 'index.mapping.depth.limit': 0 } });
    expect(reasonOf(depth)).toBe(
      'Failed to parse value [0] for setting [index.mapping.depth.limit] must be >= 1',
    );
    const sync = await http(node.url, 'PUT', '/bad', { settings: { 'index.translog.sync_interval': '1ms' } });
    expect(reasonOf(sync)).toBe(
      'failed to parse value [1ms] for setting [index.translog.sync_interval], must be >= [100ms]',
    );
    const soft = await http(node.url, 'PUT', '/bad', { settings: { 'index.soft_deletes.enabled': false } });
    expect(reasonOf(soft)).toBe(
      'Creating indices with soft-deletes disabled is no longer supported. Please do not specify a value for setting [index.soft_deletes.enabled].',
    );
    const mode = await http(node.url, 'PUT', '/bad', { settings: { 'index.mode': 'time_series' } });
    expect(mode.status).toBe(400);
    expect((await http(node.url, 'HEAD', '/bad')).status).toBe(404);
  });

  it('refuses static settings on an open index unless reopen is set, and never final ones', async () => {
    const refused = await http(node.url, 'PUT', '/plain/_settings', { index: { codec: 'best_compression' } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.type).toBe('illegal_argument_exception');
    expect(reasonOf(refused)).toMatch(
      /^Can't update non dynamic settings \[\[index.codec\]\] for open indices \[\[plain\/[^\]]+\]\]$/,
    );
    const reopened = await http(node.url, 'PUT', '/plain/_settings?reopen=true', {
      index: { codec: 'best_compression' },
    });
    expect(reopened.status).toBe(200);
    const got = await http(node.url, 'GET', '/plain/_settings/index.codec?flat_settings=true');
    expect(got.json.plain.settings).toEqual({ 'index.codec': 'best_compression' });
    const sort = await http(node.url, 'PUT', '/plain/_settings?reopen=true', {
      index: { 'sort.field': 'x' },
    });
    expect(reasonOf(sort)).toBe('final index setting [index.sort.field], not updateable');
  });

  it('keeps existing values with preserve_existing', async () => {
    await http(node.url, 'PUT', '/plain/_settings', { index: { max_result_window: 500 } });
    const r = await http(node.url, 'PUT', '/plain/_settings?preserve_existing=true', {
      index: { max_result_window: 900, max_terms_count: 10 },
    });
    expect(r.status).toBe(200);
    const got = await http(node.url, 'GET', '/plain/_settings?flat_settings=true');
    expect(got.json.plain.settings['index.max_result_window']).toBe('500');
    expect(got.json.plain.settings['index.max_terms_count']).toBe('10');
  });

  it('warns of deprecated settings', async () => {
    const r = await http(node.url, 'PUT', '/retained', {
      settings: { 'index.translog.retention.age': '1h' },
    });
    expect(r.status).toBe(200);
    expect(String(r.headers.warning)).toContain(
      'Translog retention settings [index.translog.retention.age] and [index.translog.retention.size] are deprecated and effectively ignored.',
    );
  });
});

describe('index sorting', () => {
  const mappings = {
    properties: {
      date: { type: 'date' },
      tag: { type: 'keyword' },
      title: { type: 'text' },
      stored_only: { type: 'keyword', doc_values: false },
    },
  };
  const create = (name: string, sort: Record<string, unknown>, m: unknown = mappings) =>
    http(node.url, 'PUT', `/${name}`, { settings: { index: { sort } }, mappings: m });

  it('checks the sort settings against the mappings at creation', async () => {
    expect(
      (
        await create('sorted', {
          field: ['date', 'tag'],
          order: ['desc', 'asc'],
          missing: ['_last', '_first'],
        })
      ).status,
    ).toBe(200);
    expect(reasonOf(await create('s1', { field: 'nope' }))).toBe('unknown index sort field:[nope]');
    expect(reasonOf(await create('s2', { field: 'title' }))).toBe(
      'docvalues not found for index sort field:[title]',
    );
    expect(reasonOf(await create('s3', { field: 'stored_only' }))).toBe(
      'docvalues not found for index sort field:[stored_only]',
    );
    expect(reasonOf(await create('s4', { field: ['date', 'tag'], order: ['desc'] }))).toBe(
      'index.sort.field:[date, tag] index.sort.order:[desc], size mismatch',
    );
    expect(reasonOf(await create('s5', { field: 'date', order: 'up' }))).toBe('Illegal sort order:up');
    expect(reasonOf(await create('s6', { field: 'date', mode: 'avg' }))).toBe(
      'Illegal index sort mode:[AVG], must be one of [MAX, MIN]',
    );
    const nested = await create(
      's7',
      { field: 'date' },
      { properties: { date: { type: 'date' }, n: { type: 'nested' } } },
    );
    expect(reasonOf(nested)).toBe('cannot have nested fields when index sort is activated');
    for (const name of ['s1', 's2', 's3', 's4', 's5', 's6', 's7'])
      expect((await http(node.url, 'HEAD', `/${name}`)).status).toBe(404);
  });
});

describe('index.auto_expand_replicas', () => {
  it('sets the replicas to the other data nodes, within its bounds, so one node is green', async () => {
    await http(node.url, 'PUT', '/expand', {
      settings: { number_of_replicas: 1, auto_expand_replicas: '0-1' },
    });
    const got = await http(node.url, 'GET', '/expand/_settings?flat_settings=true');
    expect(got.json.expand.settings['index.number_of_replicas']).toBe('0');
    const health = await http(node.url, 'GET', '/_cluster/health/expand');
    expect(health.json.status).toBe('green');
    await http(node.url, 'PUT', '/expand/_settings', {
      auto_expand_replicas: 'false',
      number_of_replicas: 1,
    });
    expect((await http(node.url, 'GET', '/_cluster/health/expand')).json.status).toBe('yellow');
    await http(node.url, 'PUT', '/expand/_settings', { auto_expand_replicas: '0-all' });
    expect((await http(node.url, 'GET', '/_cluster/health/expand')).json.status).toBe('green');
  });
});
