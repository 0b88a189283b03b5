/**
 * Scroll end to end: start, continue (body, query parameters, path),
 * clear in every form, expiry, the open-context limit through the cluster setting, and the
 * errors of paging.md §2.2 and §3 (YAML scroll/10_basic, 11_clear, 20_keep_alive).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import {
  bulk,
  clearScroll,
  createIndex,
  errorOf,
  type Hit,
  ids,
  search,
  searchStats,
  walkScroll,
} from './paging-support.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  await createIndex(url, 'sc', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { foo: { type: 'integer' } } },
  });
  await bulk(url, 'sc', [
    ['42', { foo: 1 }],
    ['43', { foo: 2 }],
  ]);
  await createIndex(url, 'many', { settings: { number_of_shards: 3 } });
  await bulk(
    url,
    'many',
    Array.from({ length: 95 }, (_, i) => [`m${i}`, { n: i }] as [string, Record<string, unknown>]),
  );
});
afterAll(async () => {
  await node?.stop();
});

describe('scroll (YAML scroll/10_basic)', () => {
  it('basic scroll: a snapshot, continued by body, by query parameters and by path', async () => {
    const first = await search(url, '/sc/_search?scroll=1m&size=1&rest_total_hits_as_int=true', {
      sort: 'foo',
    });
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.json)[0]).toBe('_scroll_id');
    expect(first.json.hits.total).toBe(2);
    expect(ids(first.json.hits.hits)).toEqual(['42']);
    expect(first.json.hits.max_score).toBeNull();

    await bulk(url, 'sc', [['44', { foo: 3 }]]);
    const second = await http(url, 'POST', '/_search/scroll?rest_total_hits_as_int=true', {
      scroll_id: first.json._scroll_id,
      scroll: '1m',
    });
    expect(second.status, second.text).toBe(200);
    expect(second.json.hits.total).toBe(2);
    expect(ids(second.json.hits.hits)).toEqual(['43']);
    expect(second.json.hits.max_score).toBeNull();

    const third = await http(
      url,
      'GET',
      `/_search/scroll?scroll_id=${encodeURIComponent(second.json._scroll_id)}&scroll=1m`,
    );
    expect(third.status, third.text).toBe(200);
    expect(third.json.hits).toMatchObject({ total: { value: 2, relation: 'eq' }, hits: [] });
    const byPath = await http(url, 'GET', `/_search/scroll/${third.json._scroll_id}?scroll=1m`);
    expect(byPath.status, byPath.text).toBe(200);
    expect(byPath.json.hits.hits).toEqual([]);

    const cleared = await clearScroll(url, byPath.json._scroll_id);
    expect(cleared.status).toBe(200);
    expect(cleared.json).toEqual({ succeeded: true, num_freed: 2 });
    await http(url, 'DELETE', '/sc/_doc/44?refresh=true');
  });

  it('body parameters override the query string', async () => {
    const first = await search(url, '/sc/_search?scroll=1m&size=1', { sort: 'foo' });
    const r = await http(url, 'POST', '/_search/scroll?scroll_id=invalid_scroll_id', {
      scroll_id: first.json._scroll_id,
      scroll: '1m',
    });
    expect(r.status, r.text).toBe(200);
    expect(ids(r.json.hits.hits)).toEqual(['43']);
    const c = await http(url, 'DELETE', '/_search/scroll?scroll_id=invalid_scroll_id', {
      scroll_id: [first.json._scroll_id],
    });
    expect(c.json).toEqual({ succeeded: true, num_freed: 2 });
    // Cleared: scrolling and clearing again are 404s.
    const gone = await http(url, 'POST', '/_search/scroll', { scroll_id: first.json._scroll_id });
    expect(errorOf(gone)).toMatchObject({ status: 404, root: 'search_context_missing_exception' });
    expect(errorOf(gone).reason).toMatch(/closed/);
    expect(gone.json.error.failed_shards[0]).toMatchObject({ shard: -1, index: null });
    const again = await clearScroll(url, first.json._scroll_id);
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ succeeded: true, num_freed: 0 });
  });

  it('every page has the exact, constant total, the last one is empty', async () => {
    const { hits, totals, scrollId } = await walkScroll(url, '/many/_search', { size: 10, sort: ['_doc'] });
    expect(new Set(ids(hits)).size).toBe(95);
    expect(hits).toHaveLength(95);
    expect(totals).toHaveLength(11);
    for (const t of totals) expect(t).toEqual({ value: 95, relation: 'eq' });
    await clearScroll(url, scrollId);
  });

  it('a scroll sorted by score, or by a field, walks everything once', async () => {
    const byScore = await walkScroll(url, '/many/_search', { size: 7 });
    expect(new Set(ids(byScore.hits)).size).toBe(95);
    const byField = await walkScroll(url, '/many/_search', { size: 9, sort: [{ n: 'desc' }] });
    expect(byField.hits.map((h: Hit) => (h._source as { n: number }).n)).toEqual(
      Array.from({ length: 95 }, (_, i) => 94 - i),
    );
    await clearScroll(url, byScore.scrollId);
    await clearScroll(url, byField.scrollId);
  });

  it('a page that takes more hits from one shard than it prefetched still gets every document', async () => {
    await createIndex(url, 'skewed', { settings: { number_of_shards: 3 } });
    const lines: string[] = [];
    for (let i = 0; i < 330; i++) {
      const routing = i < 300 ? ',"routing":"a"' : '';
      lines.push(`{"index":{"_index":"skewed","_id":"s${i}"${routing}}}`, JSON.stringify({ n: i }));
    }
    const put = await http(url, 'POST', '/_bulk?refresh=true', `${lines.join('\n')}\n`, {
      'content-type': 'application/x-ndjson',
    });
    expect(put.json.errors).toBe(false);
    const { hits, scrollId } = await walkScroll(url, '/skewed/_search', { size: 100, sort: [{ n: 'asc' }] });
    expect(hits.map((h: Hit) => (h._source as { n: number }).n)).toEqual(
      Array.from({ length: 330 }, (_, i) => i),
    );
    expect(hits.every((h: Hit) => h._id === `s${(h._source as { n: number }).n}`)).toBe(true);
    await clearScroll(url, scrollId);
  });

  it('a call without scroll returns its batch and frees the context', async () => {
    const before = await searchStats(url);
    const first = await search(url, '/many/_search?scroll=1m', { size: 10, sort: ['_doc'] });
    const last = await http(url, 'POST', '/_search/scroll', { scroll_id: first.json._scroll_id });
    expect(last.status, last.text).toBe(200);
    expect(last.json.hits.hits).toHaveLength(10);
    expect(last.json._scroll_id).toEqual(expect.any(String));
    const after = await searchStats(url);
    expect(after.scroll_current).toBe(before.scroll_current);
    expect(after.scroll_total).toBe((before.scroll_total as number) + 3);
    const gone = await http(url, 'POST', '/_search/scroll', {
      scroll_id: last.json._scroll_id,
      scroll: '1m',
    });
    expect(gone.status).toBe(404);
  });
});

describe('scroll errors', () => {
  it('refuses what Elasticsearch refuses', async () => {
    const from = await search(url, '/sc/_search?scroll=1m', { from: 1 });
    expect(from.json.error.reason).toBe(
      'Validation Failed: 1: using [from] is not allowed in a scroll context;',
    );
    const size0 = await search(url, '/sc/_search?scroll=1m&request_cache=true', { size: 0 });
    expect(size0.json.error.reason).toBe(
      'Validation Failed: 1: [size] cannot be [0] in a scroll context;2: [request_cache] cannot be used in a scroll context;',
    );
    const batch = await search(url, '/sc/_search?scroll=1m', { size: 10_001 });
    expect(errorOf(batch)).toMatchObject({ status: 400, type: 'search_phase_execution_exception' });
    expect(errorOf(batch).reason).toMatch(
      /^Batch size is too large, size must be less than or equal to: \[10000\]/,
    );
    const noId = await http(url, 'POST', '/_search/scroll', { scroll: '1m' });
    expect(noId.json.error.reason).toBe('Validation Failed: 1: scrollId is missing;');
    const badId = await http(url, 'POST', '/_search/scroll', { scroll_id: 'c29tZXRoaW5n' });
    expect(errorOf(badId)).toMatchObject({
      status: 400,
      type: 'illegal_argument_exception',
      reason: 'Cannot parse scroll id',
    });
    const unknownKey = await http(url, 'POST', '/_search/scroll', { scroll_id: 'x', foo: 1 });
    expect(unknownKey.json.error.reason).toBe(
      'Unknown parameter [foo] in request body or parameter is of the wrong type[VALUE_NUMBER] ',
    );
    const notObject = await http(url, 'POST', '/_search/scroll', '[1]');
    expect(notObject.json.error.reason).toBe('Malformed content, must start with an object');
    const noIds = await http(url, 'DELETE', '/_search/scroll');
    expect(noIds.json.error.reason).toBe('Validation Failed: 1: no scroll ids specified;');
    const badClear = await http(url, 'DELETE', '/_search/scroll/c29tZXRoaW5n');
    expect(errorOf(badClear)).toMatchObject({ status: 400, reason: 'Cannot parse scroll id' });
  });

  it('keep-alive is bounded by search.max_keep_alive (YAML scroll/20_keep_alive)', async () => {
    const set = await http(url, 'PUT', '/_cluster/settings', {
      transient: { 'search.default_keep_alive': '1m', 'search.max_keep_alive': '1m' },
    });
    expect(set.status, set.text).toBe(200);
    try {
      const tooLong = await search(url, '/sc/_search?scroll=2m', { size: 1 });
      expect(tooLong.status).toBe(400);
      expect(tooLong.json.error.root_cause[0].reason).toBe(
        'Keep alive for request (2m) is too large. It must be less than (1m). This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
      );
      const ok = await search(url, '/sc/_search?scroll=1m', { size: 1 });
      expect(ok.status, ok.text).toBe(200);
      const cont = await http(url, 'POST', '/_search/scroll', {
        scroll_id: ok.json._scroll_id,
        scroll: '3m',
      });
      expect(cont.status).toBe(400);
      expect(cont.json.error.root_cause[0].reason).toMatch(/Keep alive for request \(3m\) is too large/);
      // The failed continuation released the scroll.
      const gone = await http(url, 'POST', '/_search/scroll', {
        scroll_id: ok.json._scroll_id,
        scroll: '1m',
      });
      expect(gone.status).toBe(404);
    } finally {
      await http(url, 'PUT', '/_cluster/settings', {
        transient: { 'search.default_keep_alive': null, 'search.max_keep_alive': null },
      });
    }
  });
});

describe('clearing scrolls', () => {
  it('by a list in the path, by _all, and with a body list', async () => {
    const a = await search(url, '/sc/_search?scroll=1m', { size: 1 });
    const b = await search(url, '/sc/_search?scroll=1m', { size: 1 });
    const both = await http(url, 'DELETE', `/_search/scroll/${a.json._scroll_id},${b.json._scroll_id}`);
    expect(both.json).toEqual({ succeeded: true, num_freed: 4 });
    const c = await search(url, '/sc/_search?scroll=1m', { size: 1 });
    const d = await search(url, '/sc/_search?scroll=1m', { size: 1 });
    const body = await http(url, 'DELETE', '/_search/scroll', {
      scroll_id: [c.json._scroll_id, d.json._scroll_id],
    });
    expect(body.json).toEqual({ succeeded: true, num_freed: 4 });
    const e = await search(url, '/sc/_search?scroll=1m', { size: 1 });
    const all = await http(url, 'DELETE', '/_search/scroll/_all');
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ succeeded: true, num_freed: 1 });
    expect((await http(url, 'POST', '/_search/scroll', { scroll_id: e.json._scroll_id })).status).toBe(404);
    expect((await searchStats(url)).scroll_current).toBe(0);
    const allAgain = await http(url, 'DELETE', '/_search/scroll', { scroll_id: '_all' });
    expect(allAgain.json).toEqual({ succeeded: true, num_freed: 1 });
  });
});

describe('scroll lifetime and limits', () => {
  it('a scroll past its keep-alive is a 404 that says it expired', async () => {
    const s = await search(url, '/sc/_search?scroll=1s', { size: 1 });
    await new Promise((r) => setTimeout(r, 1600));
    const r = await http(url, 'POST', '/_search/scroll', { scroll_id: s.json._scroll_id, scroll: '1s' });
    const e = errorOf(r);
    expect(e).toMatchObject({
      status: 404,
      type: 'search_phase_execution_exception',
      root: 'search_context_missing_exception',
    });
    expect(e.reason).toMatch(/expired/);
    expect((await searchStats(url)).scroll_current).toBe(0);
  });

  it('search.max_open_scroll_context refuses the next scroll with a 429', async () => {
    await createIndex(url, 'one', { settings: { number_of_shards: 1 } });
    await bulk(url, 'one', [['x', { a: 1 }]]);
    const set = await http(url, 'PUT', '/_cluster/settings', {
      persistent: { 'search.max_open_scroll_context': 2 },
    });
    expect(set.status, set.text).toBe(200);
    try {
      const opened: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await search(url, '/one/_search?scroll=1m', { size: 1 });
        expect(r.status, r.text).toBe(200);
        opened.push(r.json._scroll_id);
      }
      const third = await search(url, '/one/_search?scroll=1m', { size: 1 });
      expect(third.status).toBe(429);
      expect(third.json.error.root_cause[0]).toEqual({
        type: 'too_many_scroll_contexts_exception',
        reason:
          'Trying to create too many scroll contexts. Must be less than or equal to: [2]. This limit can be set by changing the [search.max_open_scroll_context] setting.',
      });
      // A PIT does not count against the scroll limit.
      const pit = await http(url, 'POST', '/one/_pit?keep_alive=1m');
      expect(pit.status).toBe(200);
      await http(url, 'DELETE', '/_pit', { id: pit.json.id });
      await clearScroll(url, opened[0]!);
      const fourth = await search(url, '/one/_search?scroll=1m', { size: 1 });
      expect(fourth.status, fourth.text).toBe(200);
      await http(url, 'DELETE', '/_search/scroll/_all');
    } finally {
      await http(url, 'PUT', '/_cluster/settings', {
        persistent: { 'search.max_open_scroll_context': null },
      });
    }
  });
});

describe('search stats', () => {
  it('_nodes/stats shows open contexts and scroll counters in Elasticsearch order', async () => {
    const r = await http(url, 'GET', '/_nodes/stats');
    const nodeStats = Object.values(r.json.nodes as Record<string, { indices: { search: object } }>)[0]!;
    expect(Object.keys(nodeStats.indices.search)).toEqual([
      'open_contexts',
      'query_total',
      'query_time_in_millis',
      'query_current',
      'query_failure',
      'fetch_total',
      'fetch_time_in_millis',
      'fetch_current',
      'fetch_failure',
      'scroll_total',
      'scroll_time_in_millis',
      'scroll_current',
      'suggest_total',
      'suggest_time_in_millis',
      'suggest_current',
    ]);
    const before = await searchStats(url);
    const s = await search(url, '/many/_search?scroll=1m', { size: 5 });
    const during = await searchStats(url);
    expect(during.scroll_current).toBe((before.scroll_current as number) + 3);
    expect(during.open_contexts).toBe((before.open_contexts as number) + 3);
    expect(during.query_total as number).toBeGreaterThanOrEqual((before.query_total as number) + 3);
    await new Promise((res) => setTimeout(res, 20));
    await clearScroll(url, s.json._scroll_id);
    const after = await searchStats(url);
    expect(after.scroll_current).toBe(before.scroll_current);
    expect(after.scroll_total).toBe((before.scroll_total as number) + 3);
    expect(after.scroll_time_in_millis as number).toBeGreaterThanOrEqual(
      before.scroll_time_in_millis as number,
    );
    expect(after.open_contexts).toBe(before.open_contexts);
  });
});
