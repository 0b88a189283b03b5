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

describe('cluster settings', () => {
  it('echoes the applied settings flat with flat_settings=true', async () => {
    const r = await http(node.url, 'PUT', '/_cluster/settings?flat_settings=true', {
      persistent: { 'search.max_buckets': 20000 },
      transient: { search: { default_keep_alive: '2m' } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      acknowledged: true,
      persistent: { 'search.max_buckets': '20000' },
      transient: { 'search.default_keep_alive': '2m' },
    });
    const nested = await http(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'search.max_buckets': 30000 },
    });
    expect(nested.json.persistent).toEqual({ search: { max_buckets: '30000' } });
  });

  it('resets every matching setting with a wildcard null, and ignores a wildcard that matches none', async () => {
    await http(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'search.max_buckets': 20000, 'search.max_keep_alive': '1h' },
    });
    const r = await http(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'search.*': null },
      transient: { 'nothing.here.*': null },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ acknowledged: true, persistent: {}, transient: {} });
    const got = await http(node.url, 'GET', '/_cluster/settings?flat_settings=true');
    expect(got.json.persistent).toEqual({});
    expect(got.json.transient).toEqual({ 'search.default_keep_alive': '2m' });
    await http(node.url, 'PUT', '/_cluster/settings', { transient: { 'search.*': null } });
    expect((await http(node.url, 'GET', '/_cluster/settings')).json).toEqual({
      persistent: {},
      transient: {},
    });
  });
  it('lets action.destructive_requires_name allow deleting indices by wildcard', async () => {
    await http(node.url, 'PUT', '/wild-1');
    const refused = await http(node.url, 'DELETE', '/wild-*');
    expect(refused.status).toBe(400);
    const set = await http(node.url, 'PUT', '/_cluster/settings', {
      transient: { 'action.destructive_requires_name': false },
    });
    expect(set.status).toBe(200);
    expect((await http(node.url, 'DELETE', '/wild-*')).json).toEqual({ acknowledged: true });
    expect((await http(node.url, 'HEAD', '/wild-1')).status).toBe(404);
    await http(node.url, 'PUT', '/_cluster/settings', {
      transient: { 'action.destructive_requires_name': null },
    });
  });
});
