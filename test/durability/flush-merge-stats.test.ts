import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ workers: 2 });
  await http(node.url, 'PUT', '/logs', {
    settings: { number_of_shards: 2, number_of_replicas: 0, refresh_interval: -1 },
  });
  for (let batch = 0; batch < 6; batch++) {
    const lines = Array.from({ length: 50 }, (_, i) => [
      { index: { _id: String(batch * 50 + i) } },
      { msg: `line ${batch * 50 + i}`, n: i },
    ]).flat();
    await http(node.url, 'POST', '/logs/_bulk?refresh=true', ndjson(lines));
  }
  await http(
    node.url,
    'POST',
    '/logs/_bulk?refresh=true',
    ndjson([{ delete: { _id: '3' } }, { delete: { _id: '4' } }]),
  );
});
afterAll(async () => {
  await node?.stop();
});

describe('_flush, _forcemerge and _stats', () => {
  it('_stats reports every section in Elasticsearch shape', async () => {
    const r = await http(node.url, 'GET', '/logs/_stats');
    expect(r.status).toBe(200);
    expect(r.json._shards).toEqual({ total: 2, successful: 2, failed: 0 });
    const p = r.json.indices.logs.primaries;
    expect(Object.keys(p).sort()).toEqual(
      [
        'docs',
        'flush',
        'indexing',
        'merges',
        'refresh',
        'request_cache',
        'search',
        'segments',
        'store',
        'translog',
      ].sort(),
    );
    expect(p.docs).toMatchObject({ count: 298, deleted: 2 });
    expect(p.indexing).toMatchObject({ index_total: 300, delete_total: 2 });
    expect(p.store.size_in_bytes).toBeGreaterThan(0);
    expect(p.translog.uncommitted_operations).toBe(302);
    expect(p.refresh.total).toBeGreaterThanOrEqual(7);
    expect(r.json._all.primaries.docs.count).toBe(298);
    const only = await http(node.url, 'GET', '/logs/_stats/docs,translog');
    expect(Object.keys(only.json.indices.logs.total).sort()).toEqual(['docs', 'translog']);
    expect((await http(node.url, 'GET', '/logs/_stats/bogus')).status).toBe(400);
  });

  it('_flush commits and trims the translog', async () => {
    const f = await http(node.url, 'POST', '/logs/_flush');
    expect(f.json._shards).toEqual({ total: 2, successful: 2, failed: 0 });
    const st = (await http(node.url, 'GET', '/logs/_stats/translog,flush')).json.indices.logs.primaries;
    expect(st.translog.uncommitted_operations).toBe(0);
    expect(st.flush.total).toBe(2);
  });

  it('_forcemerge merges to N segments and drops deleted docs; _cat/indices shows it', async () => {
    const cat0 = (await http(node.url, 'GET', '/_cat/indices/logs?format=json&bytes=b')).json[0];
    expect(cat0['docs.deleted']).toBe('2');
    expect(Number(cat0['store.size'])).toBeGreaterThan(0);
    const before = (await http(node.url, 'GET', '/logs/_stats/segments')).json.indices.logs.primaries;
    expect(before.segments.count).toBeGreaterThan(2);
    const m = await http(node.url, 'POST', '/logs/_forcemerge?max_num_segments=1');
    expect(m.json._shards).toMatchObject({ successful: 2, failed: 0 });
    const cat1 = (await http(node.url, 'GET', '/_cat/indices/logs?format=json&bytes=b')).json[0];
    expect(cat1['docs.count']).toBe('298');
    expect(cat1['docs.deleted']).toBe('0');
    const st = (await http(node.url, 'GET', '/logs/_stats/merges,segments')).json.indices.logs.primaries;
    // One segment per shard.
    expect(st.segments.count).toBe(2);
    expect(st.merges.total).toBeGreaterThanOrEqual(2);
    expect(st.merges.total_docs).toBe(298);
    expect(
      (await http(node.url, 'POST', '/logs/_forcemerge?max_num_segments=1&only_expunge_deletes=true')).status,
    ).toBe(400);
    const hits = await http(node.url, 'POST', '/logs/_search', { query: { match: { msg: '299' } } });
    expect(hits.json.hits.hits[0]._source).toEqual({ msg: 'line 299', n: 49 });
  });

  it('flushes by itself once the translog passes index.translog.flush_threshold_size', async () => {
    await http(node.url, 'PUT', '/busy', {
      settings: {
        number_of_shards: 1,
        number_of_replicas: 0,
        'translog.flush_threshold_size': '4kb',
        'translog.durability': 'async',
        'translog.sync_interval': '100ms',
      },
    });
    const doc = (i: number) => [{ index: { _id: String(i) } }, { pad: 'z'.repeat(500), i }];
    for (let b = 0; b < 4; b++) {
      const lines = Array.from({ length: 10 }, (_, i) => doc(b * 10 + i)).flat();
      expect((await http(node.url, 'POST', '/busy/_bulk', ndjson(lines))).json.errors).toBe(false);
    }
    let st = (await http(node.url, 'GET', '/busy/_stats/flush,translog,docs')).json.indices.busy.primaries;
    for (let i = 0; i < 50 && st.flush.total === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      st = (await http(node.url, 'GET', '/busy/_stats/flush,translog,docs')).json.indices.busy.primaries;
    }
    expect(st.flush.total).toBeGreaterThanOrEqual(1);
    expect(st.translog.uncommitted_size_in_bytes).toBeLessThan(4 * 1024 * 4);
    expect(st.docs.count).toBe(40);
  });
});
