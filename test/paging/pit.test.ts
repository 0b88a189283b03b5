/**
 * Point in time end to end: open, search (with and without search_after), close, expiry, the
 * `_shard_doc` tiebreaker and the errors of paging.md §2.2, on a real node over HTTP.
 * The first cases follow Elasticsearch's YAML search/350_point_in_time.yml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import {
  bulk,
  closePit,
  createIndex,
  errorOf,
  type Hit,
  ids,
  openPit,
  search,
  searchStats,
  walkPit,
} from './paging-support.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  const mappings = {
    properties: { id: { type: 'integer' }, age: { type: 'integer' }, foo: { type: 'keyword' } },
  };
  await createIndex(url, 'test', { settings: { number_of_shards: 1 }, mappings });
  await createIndex(url, 'test2', { settings: { number_of_shards: 1 }, mappings });
  await bulk(url, 'test', [
    ['1', { id: 1, foo: 'bar', age: 18 }],
    ['42', { id: 42, foo: 'bar', age: 18 }],
    ['172', { id: 172, foo: 'bar', age: 24 }],
  ]);
  await bulk(url, 'test2', [['45', { id: 45, foo: 'bar', age: 19 }]]);
});
afterAll(async () => {
  await node?.stop();
});

const BY_AGE_ID = [{ age: { order: 'desc' } }, { id: { order: 'desc' } }];

describe('point in time (YAML 350_point_in_time)', () => {
  it('basic: pages a snapshot that later writes do not change, then closes', async () => {
    const open = await http(url, 'POST', '/test/_pit?keep_alive=5m');
    expect(open.status).toBe(200);
    expect(Object.keys(open.json)).toEqual(['id', '_shards']);
    expect(open.json._shards).toEqual({ total: 1, successful: 1, skipped: 0, failed: 0 });
    expect(open.json.id).toMatch(/^[A-Za-z0-9_-]+=*$/);
    const pit = open.json.id as string;

    const first = await search(url, '/_search', {
      size: 1,
      pit: { id: pit, keep_alive: '1m' },
      sort: BY_AGE_ID,
    });
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.json).slice(0, 2)).toEqual(['pit_id', 'took']);
    expect(first.json.hits.total).toEqual({ value: 3, relation: 'eq' });
    expect(first.json.hits.hits[0]._id).toBe('172');
    expect(first.json.hits.hits[0]._index).toBe('test');
    // The implicit `_shard_doc` tiebreaker is the third value.
    const sort = first.json.hits.hits[0].sort;
    expect(sort.slice(0, 2)).toEqual([24, 172]);
    expect(sort).toHaveLength(3);
    expect(Number.isInteger(sort[2])).toBe(true);

    await bulk(url, 'test', [['100', { id: 100, foo: 'bar', age: 23 }]]);
    const pages: string[] = [];
    let after: unknown[] = [24, 172];
    let id = first.json.pit_id;
    for (;;) {
      const r = await search(url, '/_search', {
        size: 1,
        pit: { id, keep_alive: '1m' },
        sort: BY_AGE_ID,
        search_after: after,
      });
      expect(r.status, r.text).toBe(200);
      expect(r.json.hits.total).toEqual({ value: 3, relation: 'eq' });
      id = r.json.pit_id;
      if (r.json.hits.hits.length === 0) break;
      pages.push(r.json.hits.hits[0]._id);
      after = r.json.hits.hits[0].sort.slice(0, 2);
    }
    expect(pages).toEqual(['42', '1']);

    const closed = await closePit(url, pit);
    expect(closed.status).toBe(200);
    expect(closed.json).toEqual({ succeeded: true, num_freed: 1 });
    const again = await closePit(url, pit);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ succeeded: true, num_freed: 0 });

    const gone = await search(url, '/_search', { pit: { id: pit } });
    const e = errorOf(gone);
    expect(e.status).toBe(404);
    expect(e.type).toBe('search_phase_execution_exception');
    expect(e.root).toBe('search_context_missing_exception');
    expect(e.reason).toMatch(/^No search context found for id \[\d+\]/);
    expect(e.reason).toMatch(/closed/);
    await http(url, 'DELETE', '/test/_doc/100?refresh=true');
  });

  it('wildcard: a PIT over t* covers both indices', async () => {
    const pit = await openPit(url, 't*');
    const r = await search(url, '/_search', { size: 2, pit: { id: pit }, sort: BY_AGE_ID });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.total.value).toBe(4);
    expect(r.json.hits.hits.map((h: Hit) => `${h._index}/${h._id}`)).toEqual(['test/172', 'test2/45']);
    expect((await closePit(url, pit)).json).toEqual({ succeeded: true, num_freed: 2 });
  });

  it('slicing: a PIT search with a slice succeeds', async () => {
    const pit = await openPit(url, 'test');
    const r = await search(url, '/_search', { pit: { id: pit }, slice: { id: 0, max: 2 } });
    expect(r.status, r.text).toBe(200);
    await closePit(url, pit);
  });

  it('without a sort, hits are by score and carry no sort values', async () => {
    const pit = await openPit(url, 'test');
    const r = await search(url, '/_search', { pit: { id: pit } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.hits).toHaveLength(3);
    expect(r.json.hits.hits.every((h: Hit) => h.sort === undefined)).toBe(true);
    await closePit(url, pit);
  });
});

describe('the _shard_doc sort', () => {
  it('is the implicit tiebreaker and can be named, asc or desc, as a unique long', async () => {
    await createIndex(url, 'sd', { settings: { number_of_shards: 3 } });
    await bulk(
      url,
      'sd',
      Array.from({ length: 40 }, (_, i) => [`d${i}`, { n: i % 4 }] as [string, Record<string, unknown>]),
    );
    const pit = await openPit(url, 'sd');
    const asc = await walkPit(url, pit, { size: 7, sort: [{ _shard_doc: 'asc' }], track_total_hits: false });
    const desc = await walkPit(url, pit, { size: 7, sort: [{ _shard_doc: { order: 'desc' } }] });
    expect(asc).toHaveLength(40);
    const values = asc.map((h) => BigInt(h.sort![0] as number));
    expect(new Set(values).size).toBe(40);
    for (let i = 1; i < values.length; i++) expect(values[i]! > values[i - 1]!).toBe(true);
    expect(ids(desc)).toEqual(ids(asc).reverse());
    // (shard index << 32) | doc: three shards give three high halves, in order.
    const shards = [...new Set(values.map((v) => Number(v >> 32n)))];
    expect(shards).toEqual([0, 1, 2]);

    const byN = await walkPit(url, pit, { size: 5, sort: [{ n: 'asc' }] });
    expect(byN).toHaveLength(40);
    expect(new Set(ids(byN)).size).toBe(40);
    expect(byN.every((h) => h.sort!.length === 2)).toBe(true);
    // search_after without the tiebreaker value is accepted (the tiebreaker is then skipped).
    const short = await search(url, '/_search', {
      pit: { id: pit },
      sort: [{ n: 'asc' }],
      search_after: [0],
    });
    expect(short.status, short.text).toBe(200);
    expect(short.json.hits.hits.every((h: Hit) => (h._source as { n: number }).n > 0)).toBe(true);
    await closePit(url, pit);
  });

  it('without a PIT is a 400', async () => {
    const r = await search(url, '/test/_search', { sort: ['_shard_doc'] });
    expect(errorOf(r)).toMatchObject({ status: 400, type: 'action_request_validation_exception' });
    expect(r.json.error.reason).toBe(
      'Validation Failed: 1: [_shard_doc] sort field cannot be used without [point in time];',
    );
  });
});

describe('PIT errors', () => {
  it('keep_alive is required and bounded by search.max_keep_alive', async () => {
    const missing = await http(url, 'POST', '/test/_pit');
    expect(errorOf(missing)).toMatchObject({ status: 400, type: 'action_request_validation_exception' });
    expect(missing.json.error.reason).toBe('Validation Failed: 1: [keep_alive] is not specified;');
    const noIndex = await http(url, 'POST', '/_pit?keep_alive=1m');
    expect(noIndex.json.error.reason).toBe('Validation Failed: 1: [index] is not specified;');
    const tooLong = await http(url, 'POST', '/test/_pit?keep_alive=25h');
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason:
        'Keep alive for request (1d) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
    });
    const badUnit = await http(url, 'POST', '/test/_pit?keep_alive=5');
    expect(errorOf(badUnit)).toMatchObject({ status: 400, type: 'illegal_argument_exception' });
    const unknown = await http(url, 'POST', '/nope/_pit?keep_alive=1m');
    expect(errorOf(unknown)).toMatchObject({ status: 404, type: 'index_not_found_exception' });
  });

  it('a PIT search names no index, routing or preference', async () => {
    const pit = await openPit(url, 'test');
    const r = await search(url, '/test/_search', { pit: { id: pit } });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      'Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;',
    );
    const routed = await search(url, '/_search?routing=x', { pit: { id: pit } });
    expect(routed.json.error.reason).toBe(
      'Validation Failed: 1: [routing] cannot be used with point in time;',
    );
    const scroll = await search(url, '/_search?scroll=1m', { pit: { id: pit } });
    expect(scroll.json.error.reason).toBe(
      'Validation Failed: 1: using [point in time] is not allowed in a scroll context;',
    );
    await closePit(url, pit);
  });

  it('a malformed id is a 400, a well-formed unknown one a 404', async () => {
    const bad = await search(url, '/_search', { pit: { id: 'not a pit id!' } });
    expect(errorOf(bad)).toMatchObject({ status: 400, type: 'illegal_argument_exception' });
    const garbage = await search(url, '/_search', { pit: { id: 'AAAA' } });
    expect(errorOf(garbage)).toMatchObject({ status: 400, type: 'illegal_argument_exception' });
    const close = await closePit(url, 'not a pit id!');
    expect(close.status).toBe(400);
  });

  it('search_after needs from 0 and one value per sort key', async () => {
    const pit = await openPit(url, 'test');
    const from = await search(url, '/_search', {
      pit: { id: pit },
      from: 1,
      sort: BY_AGE_ID,
      search_after: [1, 1],
    });
    expect(from.json.error.reason).toBe(
      'Validation Failed: 1: [from] parameter must be set to 0 when [search_after] is used;',
    );
    const len = await search(url, '/_search', { pit: { id: pit }, sort: BY_AGE_ID, search_after: [1] });
    expect(errorOf(len)).toMatchObject({
      status: 400,
      type: 'search_phase_execution_exception',
      root: 'illegal_argument_exception',
      reason: 'search_after has 1 value(s) but sort has 2.',
    });
    await closePit(url, pit);
  });
});

describe('PIT lifetime', () => {
  it('an expired PIT is a 404 that says it expired; contexts are counted while open', async () => {
    const before = await searchStats(url);
    const pit = await openPit(url, 't*', '1s');
    const open = await searchStats(url);
    expect(open.open_contexts).toBe((before.open_contexts as number) + 2);
    await new Promise((r) => setTimeout(r, 1600));
    const r = await search(url, '/_search', { pit: { id: pit } });
    const e = errorOf(r);
    expect(e).toMatchObject({ status: 404, root: 'search_context_missing_exception' });
    expect(e.reason).toMatch(/expired/);
    const after = await searchStats(url);
    expect(after.open_contexts).toBe(before.open_contexts);
  });

  it('a search with keep_alive extends the lease', async () => {
    const pit = await openPit(url, 'test', '1s');
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const r = await search(url, '/_search', { pit: { id: pit, keep_alive: '1s' } });
      expect(r.status, r.text).toBe(200);
    }
    await closePit(url, pit);
  });

  it('deleting the index frees its PIT contexts', async () => {
    await createIndex(url, 'doomed', { settings: { number_of_shards: 2 } });
    await bulk(url, 'doomed', [['a', { x: 1 }]]);
    const before = await searchStats(url);
    const pit = await openPit(url, 'doomed');
    expect((await searchStats(url)).open_contexts).toBe((before.open_contexts as number) + 2);
    expect((await http(url, 'DELETE', '/doomed')).status).toBe(200);
    expect((await searchStats(url)).open_contexts).toBe(before.open_contexts);
    const r = await search(url, '/_search', { pit: { id: pit } });
    expect(r.status).toBe(404);
  });
});
