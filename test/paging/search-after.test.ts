/**
 * search_after without a PIT (stateless, against the latest searcher), and sort values that
 * must round-trip exactly: longs beyond 2^53, date_nanos, and date / date_nanos indices made
 * comparable with `numeric_type` and `format` (YAML search/90_search_after.yml).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { bulk, createIndex, errorOf, type Hit, ids, search } from './paging-support.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
});
afterAll(async () => {
  await node?.stop();
});

/** Raw JSON text (bigints written exactly) and a parser that keeps big integers as text. */
function bodyText(parts: Record<string, unknown>): string {
  return JSON.stringify(parts, (_k, v) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(
    /"@@(-?\d+)@@"/g,
    '$1',
  );
}
function sortTexts(text: string): string[][] {
  return [...text.matchAll(/"sort":\[([^\]]*)\]/g)].map((m) => m[1]!.split(','));
}

describe('search_after without a PIT', () => {
  it('pages the YAML 90_search_after corpus and refuses bad requests', async () => {
    await createIndex(url, 'sa', {
      settings: { number_of_shards: 2 },
      mappings: { properties: { id: { type: 'integer' }, age: { type: 'integer' } } },
    });
    await bulk(url, 'sa', [
      ['1', { id: 1, age: 18 }],
      ['42', { id: 42, age: 18 }],
      ['172', { id: 172, age: 24 }],
    ]);
    const sort = [{ age: 'desc' }, { id: 'desc' }];
    const pages: unknown[][] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const r = await search(
        url,
        '/sa/_search',
        after ? { size: 1, sort, search_after: after } : { size: 1, sort },
      );
      expect(r.status, r.text).toBe(200);
      if (r.json.hits.hits.length === 0) break;
      after = r.json.hits.hits[0].sort;
      pages.push([r.json.hits.hits[0]._id, after]);
    }
    expect(pages).toEqual([
      ['172', [24, 172]],
      ['42', [18, 42]],
      ['1', [18, 1]],
    ]);
    const from = await search(url, '/sa/_search', { from: 2, sort, search_after: [18, 42] });
    expect(from.json.error.reason).toBe(
      'Validation Failed: 1: [from] parameter must be set to 0 when [search_after] is used;',
    );
    const zero = await search(url, '/sa/_search', { from: 0, sort, search_after: [18, 42] });
    expect(ids(zero.json.hits.hits)).toEqual(['1']);
    const len = await search(url, '/sa/_search', { sort, search_after: [18] });
    expect(errorOf(len)).toMatchObject({
      status: 400,
      type: 'search_phase_execution_exception',
      reason: 'search_after has 1 value(s) but sort has 2.',
    });
    const noSort = await search(url, '/sa/_search', { search_after: [1] });
    expect(errorOf(noSort)).toMatchObject({ status: 400, reason: 'Sort must contain at least one field.' });
  });

  it('sees writes made between pages (it is stateless)', async () => {
    await createIndex(url, 'live', { mappings: { properties: { n: { type: 'integer' } } } });
    await bulk(url, 'live', [
      ['a', { n: 1 }],
      ['b', { n: 2 }],
    ]);
    const first = await search(url, '/live/_search', { size: 1, sort: ['n'] });
    await bulk(url, 'live', [['c', { n: 3 }]]);
    const next = await search(url, '/live/_search', {
      size: 5,
      sort: ['n'],
      search_after: first.json.hits.hits[0].sort,
    });
    expect(ids(next.json.hits.hits)).toEqual(['b', 'c']);
  });
});

describe('sort values round-trip exactly', () => {
  it('longs beyond 2^53 are written and read without precision loss', async () => {
    await createIndex(url, 'big', {
      settings: { number_of_shards: 2 },
      mappings: { properties: { v: { type: 'long' } } },
    });
    const values = [
      9007199254740993n,
      9007199254740994n,
      9007199254740995n,
      9223372036854775000n,
      9223372036854775001n,
      -9223372036854775000n,
    ];
    const lines = values.flatMap((v, i) => [`{"index":{"_index":"big","_id":"${i}"}}`, `{"v":${v}}`]);
    const put = await http(url, 'POST', '/_bulk?refresh=true', `${lines.join('\n')}\n`, {
      'content-type': 'application/x-ndjson',
    });
    expect(put.json.errors).toBe(false);
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const seen: bigint[] = [];
    let after: string | undefined;
    for (;;) {
      const text = bodyText({ size: 2, sort: [{ v: 'asc' }] }).replace(
        /}$/,
        after === undefined ? '}' : `,"search_after":[${after}]}`,
      );
      const r = await http(url, 'POST', '/big/_search', text);
      expect(r.status, r.text).toBe(200);
      const sorts = sortTexts(r.text);
      if (sorts.length === 0) break;
      for (const s of sorts) seen.push(BigInt(s[0]!));
      after = sorts[sorts.length - 1]!.join(',');
    }
    expect(seen).toEqual(sorted);
  });

  it('date_nanos values and a date / date_nanos mix compare with numeric_type', async () => {
    await createIndex(url, 'millis', { mappings: { properties: { t: { type: 'date' } } } });
    await createIndex(url, 'nanos', { mappings: { properties: { t: { type: 'date_nanos' } } } });
    await bulk(url, 'millis', [
      ['m1', { t: '2019-10-21T08:30:04.828Z' }],
      ['m2', { t: '2019-10-21T08:30:04.830Z' }],
    ]);
    await bulk(url, 'nanos', [
      ['n1', { t: '2019-10-21T08:30:04.828733123Z' }],
      ['n2', { t: '2019-10-21T08:30:04.829000001Z' }],
    ]);
    const nanos = await http(url, 'POST', '/nanos/_search', { sort: [{ t: 'asc' }] });
    expect(sortTexts(nanos.text).map((s) => s[0])).toEqual(['1571646604828733123', '1571646604829000001']);

    const mixed: Hit[] = [];
    let after: string | undefined;
    for (;;) {
      const text = `{"size":1,"sort":[{"t":{"order":"asc","numeric_type":"date_nanos"}}]${after === undefined ? '' : `,"search_after":[${after}]`}}`;
      const r = await http(url, 'POST', '/millis,nanos/_search', text);
      expect(r.status, r.text).toBe(200);
      if (r.json.hits.hits.length === 0) break;
      mixed.push(r.json.hits.hits[0]);
      after = sortTexts(r.text)[0]!.join(',');
    }
    expect(ids(mixed)).toEqual(['m1', 'n1', 'n2', 'm2']);

    const formatted = await search(url, '/millis,nanos/_search', {
      size: 4,
      sort: [{ t: { order: 'asc', numeric_type: 'date_nanos', format: 'strict_date_optional_time_nanos' } }],
    });
    expect(formatted.json.hits.hits.map((h: Hit) => h.sort![0])).toEqual([
      '2019-10-21T08:30:04.828Z',
      '2019-10-21T08:30:04.828733123Z',
      '2019-10-21T08:30:04.829000001Z',
      '2019-10-21T08:30:04.830Z',
    ]);
    const afterFormatted = await search(url, '/millis,nanos/_search', {
      size: 4,
      sort: [{ t: { order: 'asc', numeric_type: 'date_nanos', format: 'strict_date_optional_time_nanos' } }],
      search_after: ['2019-10-21T08:30:04.828733123Z'],
    });
    expect(ids(afterFormatted.json.hits.hits)).toEqual(['n2', 'm2']);
  });
});
