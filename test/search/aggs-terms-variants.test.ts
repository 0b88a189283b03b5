/**
 * Terms variants end to end (multi_terms, rare_terms): one node, two single-shard indices and a
 * two-shard one, the answers of Elasticsearch's own multi_terms and rare_terms tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const PRODUCTS: [string, Record<string, unknown>][] = [
  ['products-1', { genre: 'rock', product: 'Product A', quantity: 4 }],
  ['products-1', { genre: 'rock', product: 'Product A', quantity: 5 }],
  ['products-1', { genre: 'rock', product: 'Product B', quantity: 1 }],
  ['products-1', { genre: 'jazz', product: 'Product B', quantity: 10 }],
  ['products-1', { genre: 'electronic', product: 'Product B', quantity: 3 }],
  ['products-1', { genre: 'electronic' }],
  ['products-1', { genre: 'pop', product: 'Product C', quantity: 12 }],
  ['products-1', { genre: 'pop', product: 'Product C', quantity: 100 }],
  ['products-2', { genre: 'soul', product: 'Product E', quantity: 133 }],
  ['products-2', { genre: 'soul', product: 'Product E', quantity: 104 }],
  ['products-2', { genre: 'dance', product: 'Product D', quantity: 21 }],
  ['products-2', { genre: 'dance', product: 'Product D', quantity: 110 }],
  ['products-2', { genre: 'trance', product: 'Product G', quantity: 19 }],
  ['products-2', { genre: 'trance', product: 'Product G', quantity: 213 }],
  ['products-2', { genre: 'rock', product: 'Product A', quantity: 34 }],
];

const HOSTS = [
  { val: 3, addr: '192.168.0.13', on: '2024-01-01', up: true },
  { val: 4, addr: '192.168.0.4', on: '2024-01-02', up: false },
  { val: 4, addr: '192.168.0.4', on: '2024-01-02', up: false },
  { val: 4, addr: '192.168.0.5', on: '2024-01-02', up: true },
  { val: 5, addr: '192.168.0.5', on: '2024-01-03', up: true, price: 1.5 },
];

beforeAll(async () => {
  node = await startTestNode();
  const products = {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: { genre: { type: 'keyword' }, product: { type: 'keyword' }, quantity: { type: 'integer' } },
    },
  };
  for (const index of ['products-1', 'products-2']) {
    expect((await http(node.url, 'PUT', `/${index}`, products)).status).toBe(200);
  }
  const hosts = {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        val: { type: 'long' },
        addr: { type: 'ip' },
        on: { type: 'date', format: 'yyyy-MM-dd' },
        up: { type: 'boolean' },
        price: { type: 'double' },
      },
    },
  };
  expect((await http(node.url, 'PUT', '/hosts', hosts)).status).toBe(200);
  const lines = [
    ...PRODUCTS.flatMap(([index, doc]) => [{ create: { _index: index } }, doc]),
    ...HOSTS.flatMap((doc, i) => [{ index: { _index: 'hosts', _id: String(i) } }, doc]),
  ];
  const bulk = await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (index: string, aggs: unknown, query = '') =>
  http(node.url, 'POST', `/${index}/_search${query}`, { size: 0, aggs });

const GENRE_PRODUCT = [{ field: 'genre' }, { field: 'product' }];
type Bucket = { key: unknown[]; key_as_string: string; doc_count: number; [k: string]: unknown };
const keysOf = (buckets: Bucket[]) => buckets.map((b) => `${b.key_as_string}:${b.doc_count}`);

describe('multi_terms', () => {
  it('counts each combination across indices, by count then key, and keys print as arrays', async () => {
    const r = await search('products-*', { gp: { multi_terms: { terms: GENRE_PRODUCT } } });
    expect(r.status).toBe(200);
    const agg = r.json.aggregations.gp;
    expect(agg.doc_count_error_upper_bound).toBe(0);
    expect(agg.sum_other_doc_count).toBe(0);
    expect(keysOf(agg.buckets)).toEqual([
      'rock|Product A:3',
      'dance|Product D:2',
      'pop|Product C:2',
      'soul|Product E:2',
      'trance|Product G:2',
      'electronic|Product B:1',
      'jazz|Product B:1',
      'rock|Product B:1',
    ]);
    expect(agg.buckets[0]).toEqual({
      key: ['rock', 'Product A'],
      key_as_string: 'rock|Product A',
      doc_count: 3,
    });
  });

  it('cuts to size with sum_other_doc_count, and shows per-bucket errors when asked', async () => {
    const r = await search('products-*', {
      gp: { multi_terms: { terms: GENRE_PRODUCT, size: 1, show_term_doc_count_error: true } },
    });
    const agg = r.json.aggregations.gp;
    expect(agg.sum_other_doc_count).toBe(11);
    expect(agg.buckets).toEqual([
      {
        key: ['rock', 'Product A'],
        key_as_string: 'rock|Product A',
        doc_count: 3,
        doc_count_error_upper_bound: 0,
      },
    ]);
    const small = await search('products-*', {
      gp: { multi_terms: { terms: GENRE_PRODUCT, size: 1, shard_size: 1 } },
    });
    expect(keysOf(small.json.aggregations.gp.buckets)).toEqual(['dance|Product D:2']);
    expect(small.json.aggregations.gp.sum_other_doc_count).toBe(12);
    expect(small.json.aggregations.gp.doc_count_error_upper_bound).toBe(0);
    const byCountAsc = await search('products-*', {
      gp: { multi_terms: { terms: GENRE_PRODUCT, size: 1, shard_size: 1, order: { _count: 'asc' } } },
    });
    expect(byCountAsc.json.aggregations.gp.doc_count_error_upper_bound).toBe(-1);
  });

  it('orders by key, count and a sub-aggregation; min_doc_count drops the rare', async () => {
    const first = async (order: unknown, extra: Record<string, unknown> = {}) => {
      const r = await search('products-*', {
        gp: {
          multi_terms: { terms: GENRE_PRODUCT, order, ...extra },
          aggs: { q: { sum: { field: 'quantity' } } },
        },
      });
      expect(r.status).toBe(200);
      return r.json.aggregations.gp.buckets as Bucket[];
    };
    expect((await first({ _key: 'asc' }))[0]!.key_as_string).toBe('dance|Product D');
    expect((await first({ _key: 'desc' }))[0]!.key_as_string).toBe('trance|Product G');
    expect((await first({ _count: 'asc' }))[0]!.key_as_string).toBe('electronic|Product B');
    const bySum = await first({ q: 'desc' });
    expect(bySum.map((b) => [b.key_as_string, (b.q as { value: number }).value]).slice(0, 3)).toEqual([
      ['soul|Product E', 237],
      ['trance|Product G', 232],
      ['dance|Product D', 131],
    ]);
    expect(keysOf(await first({ _count: 'desc' }, { min_doc_count: 3 }))).toEqual(['rock|Product A:3']);
  });

  // Ties go by key, ips by their bytes: 192.168.0.5 before 192.168.0.13.
  it('keys ips, longs, dates and booleans as Elasticsearch prints them; missing fills a gap', async () => {
    const r = await search(
      'hosts',
      {
        av: { multi_terms: { terms: [{ field: 'addr' }, { field: 'val' }] } },
        du: { multi_terms: { terms: [{ field: 'on' }, { field: 'up' }], order: { _key: 'asc' } } },
        pm: {
          multi_terms: { terms: [{ field: 'val' }, { field: 'price', missing: 0 }], order: { _key: 'asc' } },
        },
      },
      '?typed_keys=true',
    );
    expect(r.status).toBe(200);
    const aggs = r.json.aggregations;
    expect(aggs['multi_terms#av'].buckets).toEqual([
      { key: ['192.168.0.4', 4], key_as_string: '192.168.0.4|4', doc_count: 2 },
      { key: ['192.168.0.5', 4], key_as_string: '192.168.0.5|4', doc_count: 1 },
      { key: ['192.168.0.5', 5], key_as_string: '192.168.0.5|5', doc_count: 1 },
      { key: ['192.168.0.13', 3], key_as_string: '192.168.0.13|3', doc_count: 1 },
    ]);
    expect(aggs['multi_terms#du'].buckets.map((b: Bucket) => [b.key, b.key_as_string, b.doc_count])).toEqual([
      [['2024-01-01', true], '2024-01-01|true', 1],
      [['2024-01-02', false], '2024-01-02|false', 2],
      [['2024-01-02', true], '2024-01-02|true', 1],
      [['2024-01-03', true], '2024-01-03|true', 1],
    ]);
    expect(r.text).toContain('"key":[3,0.0],"key_as_string":"3|0.0"');
    expect(aggs['multi_terms#pm'].buckets.map((b: Bucket) => b.key_as_string)).toEqual([
      '3|0.0',
      '4|0.0',
      '5|1.5',
    ]);
  });

  it("answers Elasticsearch's 400s for bad input", async () => {
    const one = await search('hosts', { m: { multi_terms: { terms: [{ field: 'val' }] } } });
    expect(one.status).toBe(400);
    expect(one.json.error.root_cause[0].reason).toBe(
      'The [terms] parameter in the aggregation [m] must be present and have at least 2 fields or scripts.',
    );
    const size = await search('hosts', {
      m: { multi_terms: { terms: [{ field: 'val' }, { field: 'addr' }], size: 0 } },
    });
    expect(size.status).toBe(400);
    const unknown = await search('hosts', {
      m: { multi_terms: { terms: [{ field: 'val' }, { fild: 'addr' }] } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('x_content_parse_exception');
    const text = await search('hosts', { m: { multi_terms: { terms: 'val' } } });
    expect(text.status).toBe(400);
  });
});

describe('rare_terms', () => {
  const rare = (index: string, body: Record<string, unknown>, query = '') =>
    search(index, { r: { rare_terms: body } }, query);
  const rows = (r: { json: { aggregations: Record<string, { buckets: Bucket[] }> } }, name = 'r') =>
    r.json.aggregations[name]!.buckets.map((b) => `${b.key}:${b.doc_count}`);

  it('answers the terms no more than max_doc_count docs hold, by count then key, across shards', async () => {
    // rock: once in products-2 but three times in products-1, so never rare.
    const one = await rare('products-*', { field: 'genre' });
    expect(one.status).toBe(200);
    expect(one.json.aggregations.r).toEqual({ buckets: [{ key: 'jazz', doc_count: 1 }] });
    const two = await rare('products-*', { field: 'genre', max_doc_count: 2 });
    expect(rows(two)).toEqual(['jazz:1', 'dance:2', 'electronic:2', 'pop:2', 'soul:2', 'trance:2']);
    // Product A: twice in products-1 and once in products-2, three in all.
    const products = await rare('products-*', { field: 'product', max_doc_count: 2 });
    expect(rows(products)).toEqual(['Product C:2', 'Product D:2', 'Product E:2', 'Product G:2']);
  });

  it('runs sub-aggregations and sibling pipelines over its buckets', async () => {
    const r = await search('products-*', {
      r: { rare_terms: { field: 'genre', max_doc_count: 2 }, aggs: { q: { sum: { field: 'quantity' } } } },
      most: { max_bucket: { buckets_path: 'r>q' } },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.r.buckets[0]).toEqual({ key: 'jazz', doc_count: 1, q: { value: 10 } });
    expect(r.json.aggregations.most).toEqual({ value: 237, keys: ['soul'] });
  });

  it('keys longs, ips, dates and booleans as terms does; include and exclude filter them', async () => {
    const r = await search(
      'hosts',
      {
        v: { rare_terms: { field: 'val' } },
        a: { rare_terms: { field: 'addr' } },
        d: { rare_terms: { field: 'on' } },
        u: { rare_terms: { field: 'up', max_doc_count: 2 } },
        i: { rare_terms: { field: 'addr', max_doc_count: 2, include: ['192.168.0.5', '192.168.0.13'] } },
        e: { rare_terms: { field: 'on', exclude: ['2024-01-01'] } },
        m: { rare_terms: { field: 'nothing' } },
      },
      '?typed_keys=true',
    );
    expect(r.status).toBe(200);
    const aggs = r.json.aggregations;
    expect(aggs['lrareterms#v'].buckets).toEqual([
      { key: 3, doc_count: 1 },
      { key: 5, doc_count: 1 },
    ]);
    expect(aggs['srareterms#a'].buckets).toEqual([{ key: '192.168.0.13', doc_count: 1 }]);
    expect(aggs['lrareterms#d'].buckets).toEqual([
      { key: Date.UTC(2024, 0, 1), key_as_string: '2024-01-01', doc_count: 1 },
      { key: Date.UTC(2024, 0, 3), key_as_string: '2024-01-03', doc_count: 1 },
    ]);
    expect(aggs['lrareterms#u'].buckets).toEqual([{ key: 0, key_as_string: 'false', doc_count: 2 }]);
    expect(aggs['srareterms#i'].buckets).toEqual([
      { key: '192.168.0.13', doc_count: 1 },
      { key: '192.168.0.5', doc_count: 2 },
    ]);
    expect(aggs['lrareterms#e'].buckets.map((b: Bucket) => b.key_as_string)).toEqual(['2024-01-03']);
    expect(aggs['umrareterms#m']).toEqual({ buckets: [] });
  });

  it("answers Elasticsearch's 400s for bad input", async () => {
    const over = await rare('hosts', { field: 'val', max_doc_count: 101 });
    expect(over.status).toBe(400);
    // As ObjectParser reports a setter's refusal: the parse failure, caused by the refusal.
    expect(over.json.error.type).toBe('x_content_parse_exception');
    expect(over.json.error.caused_by.reason).toBe('[max_doc_count] must be smallerthan 100in [r]');
    const zero = await rare('hosts', { field: 'val', max_doc_count: 0 });
    expect(zero.status).toBe(400);
    expect(zero.json.error.caused_by.reason).toBe('[max_doc_count] must be greater than 0. Found [0] in [r]');
    const double = await rare('hosts', { field: 'price' });
    expect(double.status).toBe(400);
    expect(JSON.stringify(double.json)).toContain(
      'RareTerms aggregation does not support floating point fields.',
    );
    const regex = await rare('hosts', { field: 'addr', exclude: '127.*' });
    expect(regex.status).toBe(400);
    expect(JSON.stringify(regex.json)).toContain(
      'Aggregation [r] cannot support regular expression style include/exclude settings as they can only be ' +
        'applied to string fields. Use an array of values for include/exclude clauses',
    );
    const unknown = await rare('hosts', { field: 'val', size: 3 });
    expect(unknown.status).toBe(400);
  });
});
