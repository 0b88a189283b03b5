import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

const SETTING = (key: string) =>
  `[${key}] setting was deprecated and will be removed in a future release! See the breaking changes documentation for the next major version.`;

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({
    args: [
      '-E',
      'ext.ilm.enabled=false',
      '-E',
      'node.local_storage=true',
      '-E',
      'ext.watcher.use_ilm_index_management=false',
    ],
  });
});
afterAll(async () => {
  await node?.stop();
});

function warnings(h: string | string[] | undefined): string[] {
  const all = h === undefined ? [] : Array.isArray(h) ? h : h.split(/,(?=299 )/);
  return all.map((w) => {
    expect(w).toMatch(/^299 shoal-\d+\.\d+\.\d+-(unknown|[0-9a-f]{7}|[0-9a-f]{40}) "/);
    return w.slice(w.indexOf('"') + 1, -1);
  });
}

describe('node settings at start', () => {
  it('logs the deprecated node settings to the deprecation log', () => {
    const logged = node.logs.filter((l) => l.name === 'deprecation').map((l) => l.msg);
    expect(logged).toEqual([SETTING('ext.ilm.enabled'), SETTING('node.local_storage')]);
  });

  it.each([
    [
      'ext.ilm.enable=true',
      'unknown setting [ext.ilm.enable] did you mean any of [ext.ilm.enabled, ext.slm.enabled, ext.sql.enabled]?',
    ],
    ['node.local_storag=true', 'unknown setting [node.local_storag] did you mean [node.local_storage]?'],
    [
      'no.such.thing=1',
      'unknown setting [no.such.thing] please check that any required plugins are installed, or check the breaking changes documentation for removed settings',
    ],
    ['node.local_storage=false', '[node.local_storage] may not be false'],
    ['ext.sql.enabled=maybe', 'Failed to parse value [maybe] as only [true] or [false] are allowed.'],
  ])('refuses to start with -E %s', async (setting, message) => {
    await expect(startTestNode({ args: ['-E', setting] })).rejects.toThrow(message);
  });

  it('keeps node settings out of PUT /_cluster/settings', async () => {
    const r = await http(node.url, 'PUT', '/_cluster/settings', { persistent: { 'ext.sql.enabled': false } });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('persistent setting [ext.sql.enabled], not dynamically updateable');
    const unknown = await http(node.url, 'PUT', '/_cluster/settings', { transient: { 'search.nope': 1 } });
    expect(unknown.json.error.reason).toBe('transient setting [search.nope], not recognized');
  });
});

describe('GET /_migration/deprecations', () => {
  it('lists the deprecated node settings in use, with the official client too', async () => {
    await http(node.url, 'PUT', '/plain');
    const r = await http(node.url, 'GET', '/_migration/deprecations');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      cluster_settings: [],
      node_settings: [
        {
          level: 'critical',
          message: 'setting [ext.ilm.enabled] is deprecated and will be removed in the next major version',
          url: 'https://www.elastic.co/guide/en/elasticsearch/reference/7.8/breaking-changes-7.8.html#deprecate-basic-license-feature-enabled',
          details: 'the setting [ext.ilm.enabled] is currently set to [false], remove this setting',
          resolve_during_rolling_upgrade: false,
        },
        {
          level: 'critical',
          message: 'setting [node.local_storage] is deprecated and will be removed in the next major version',
          url: 'https://www.elastic.co/guide/en/elasticsearch/reference/7.8/breaking-changes-7.8.html#deprecate-node-local-storage',
          details: 'the setting [node.local_storage] is currently set to [true], remove this setting',
          resolve_during_rolling_upgrade: false,
        },
      ],
      index_settings: {},
      ml_settings: [],
    });
    expect((await http(node.url, 'GET', '/plain/_migration/deprecations')).json.index_settings).toEqual({});
    const old = await http(node.url, 'GET', '/_ext/migration/deprecations');
    expect(warnings(old.headers.warning)).toEqual([
      '[GET /_ext/migration/deprecations] is deprecated! Use [GET /_migration/deprecations] instead.',
    ]);
    const client = new Client({ node: node.url, auth: node.auth });
    try {
      const got = await client.migration.deprecations();
      expect(got.body.node_settings).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe('Warning headers', () => {
  it('sends one header per distinct message and logs it once per X-Opaque-Id', async () => {
    await http(node.url, 'PUT', '/events', { mappings: { properties: { ts: { type: 'date' } } } });
    const body = {
      size: 0,
      aggs: {
        a: { date_histogram: { field: 'ts', interval: '1d' } },
        b: { date_histogram: { field: 'ts', interval: '1d' } },
      },
    };
    const r = await http(node.url, 'POST', '/events/_search', body, { 'x-opaque-id': 'op-1' });
    expect(r.status).toBe(200);
    const got = warnings(r.headers.warning);
    expect(got).toHaveLength(1);
    await http(node.url, 'POST', '/events/_search', body, { 'x-opaque-id': 'op-1' });
    await http(node.url, 'POST', '/events/_search', body, { 'x-opaque-id': 'op-2' });
    await new Promise((res) => setTimeout(res, 200));
    const logged = node.logs.filter((l) => l.name === 'deprecation' && l.msg === got[0]);
    expect(logged.map((l) => l['x-opaque-id'])).toEqual(['op-1', 'op-2']);
  });
});
