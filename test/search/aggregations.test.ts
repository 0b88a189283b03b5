/**
 * Aggregations end to end: a real node, an index of several shards, raw HTTP and the official
 * client. Every expected figure is computed here, in plain JS, from the documents indexed.
 */
// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let client: Client;

interface Doc {
  id: number;
  carrier: string;
  delay: number;
  distance: number;
  day: string;
  summary: string;
}

const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);
const CARRIERS = ['AA', 'BA', 'CX', 'DL', 'EK'];

const docs: Doc[] = Array.from({ length: 600 }, (_, id) => ({
  id,
  carrier: CARRIERS[(id * 7) % 5 === 4 ? 0 : id % 5]!,
  delay: ((id * 37) % 150) - 20,
  distance: 100 + ((id * 53) % 2900),
  day: new Date(START + (id % 40) * DAY).toISOString(),
  summary: id % 3 === 0 ? 'late evening flight' : 'on time morning flight',
}));

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
  await client.indices.create({
    index: 'flights',
    body: {
      settings: { number_of_shards: 3 },
      mappings: {
        properties: {
          id: { type: 'integer' },
          carrier: { type: 'keyword' },
          delay: { type: 'integer' },
          distance: { type: 'integer' },
          day: { type: 'date' },
          summary: { type: 'text' },
        },
      },
    },
  });
  const stats = await client.helpers.bulk({
    datasource: docs,
    onDocument: (doc: Doc) => ({ index: { _index: 'flights', _id: String(doc.id) } }),
    refreshOnCompletion: 'flights',
  });
  expect(stats.successful).toBe(docs.length);
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
});

function countBy<T>(xs: T[], key: (x: T) => string | number): Map<string | number, number> {
  const m = new Map<string | number, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

describe('aggregations', () => {
  it('metrics, terms with a sub-aggregation and a histogram over every shard (official client)', async () => {
    const late = docs.filter((d) => d.summary.includes('late'));
    const { body } = await client.search({
      index: 'flights',
      body: {
        size: 0,
        query: { match: { summary: 'late' } },
        aggs: {
          delay: { stats: { field: 'delay' } },
          carriers: { terms: { field: 'carrier' }, aggs: { worst: { max: { field: 'delay' } } } },
          distance: { histogram: { field: 'distance', interval: 1000 } },
          carrierCount: { cardinality: { field: 'carrier' } },
        },
      },
    });
    expect(body.hits.hits).toEqual([]);
    const delays = late.map((d) => d.delay);
    expect(body.aggregations.delay).toEqual({
      count: late.length,
      min: Math.min(...delays),
      max: Math.max(...delays),
      avg: delays.reduce((a, b) => a + b, 0) / late.length,
      sum: delays.reduce((a, b) => a + b, 0),
    });
    const byCarrier = [...countBy(late, (d) => d.carrier)].sort(
      (a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])),
    );
    expect(body.aggregations.carriers.buckets).toEqual(
      byCarrier.map(([key, n]) => ({
        key,
        doc_count: n,
        worst: { value: Math.max(...late.filter((d) => d.carrier === key).map((d) => d.delay)) },
      })),
    );
    expect(body.aggregations.carriers.sum_other_doc_count).toBe(0);
    const byThousand = countBy(late, (d) => Math.floor(d.distance / 1000) * 1000);
    expect(body.aggregations.distance.buckets).toEqual(
      [...byThousand].sort((a, b) => Number(a[0]) - Number(b[0])).map(([key, n]) => ({ key, doc_count: n })),
    );
    expect(body.aggregations.carrierCount).toEqual({ value: new Set(late.map((d) => d.carrier)).size });
  });

  it('date_histogram buckets by calendar day with key_as_string, gaps filled', async () => {
    const r = await http(node.url, 'POST', '/flights/_search', {
      size: 0,
      query: { range: { id: { lt: 100 } } },
      aggs: { days: { date_histogram: { field: 'day', calendar_interval: '1w', min_doc_count: 0 } } },
    });
    expect(r.status).toBe(200);
    const buckets = r.json.aggregations.days.buckets as {
      key: number;
      key_as_string: string;
      doc_count: number;
    }[];
    const weekStart = (t: number) => t - ((new Date(t).getUTCDay() + 6) % 7) * DAY;
    const expected = countBy(
      docs.filter((d) => d.id < 100),
      (d) => weekStart(Date.parse(d.day)),
    );
    expect(buckets.map((b) => [b.key, b.doc_count])).toEqual(
      [...expected].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect(buckets[0]!.key_as_string).toBe(new Date(buckets[0]!.key).toISOString());
  });

  it('post_filter narrows the hits but not the aggregations', async () => {
    const r = await http(node.url, 'POST', '/flights/_search', {
      size: 100,
      _source: false,
      post_filter: { term: { carrier: 'BA' } },
      aggs: { carriers: { terms: { field: 'carrier', size: 10 } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toEqual({
      value: docs.filter((d) => d.carrier === 'BA').length,
      relation: 'eq',
    });
    const total = r.json.aggregations.carriers.buckets.reduce(
      (a: number, b: { doc_count: number }) => a + b.doc_count,
      0,
    );
    expect(total).toBe(docs.length);
  });

  it('appear only in the first response of a scroll', async () => {
    const first = await http(node.url, 'POST', '/flights/_search?scroll=1m', {
      size: 250,
      sort: ['_doc'],
      aggs: { maxDelay: { max: { field: 'delay' } } },
    });
    expect(first.status).toBe(200);
    expect(first.json.aggregations).toEqual({ maxDelay: { value: Math.max(...docs.map((d) => d.delay)) } });
    let id = first.json._scroll_id as string;
    let seen = first.json.hits.hits.length as number;
    for (;;) {
      const next = await http(node.url, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: id });
      expect(next.status).toBe(200);
      expect(next.json.aggregations).toBeUndefined();
      if (next.json.hits.hits.length === 0) break;
      seen += next.json.hits.hits.length;
      id = next.json._scroll_id;
    }
    expect(seen).toBe(docs.length);
    await http(node.url, 'DELETE', '/_search/scroll', { scroll_id: id });
  });

  it('see a point in time as it was opened', async () => {
    const pit = (await http(node.url, 'POST', '/flights/_pit?keep_alive=1m')).json.id as string;
    await http(node.url, 'PUT', '/flights/_doc/extra?refresh=true', { id: 9999, carrier: 'ZZ', delay: 5000 });
    const r = await http(node.url, 'POST', '/_search', {
      size: 0,
      pit: { id: pit },
      aggs: { maxDelay: { max: { field: 'delay' } }, carriers: { terms: { field: 'carrier', size: 10 } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.maxDelay.value).toBe(Math.max(...docs.map((d) => d.delay)));
    expect(r.json.aggregations.carriers.buckets.map((b: { key: string }) => b.key)).not.toContain('ZZ');
    const latest = await http(node.url, 'POST', '/flights/_search', {
      size: 0,
      aggs: { maxDelay: { max: { field: 'delay' } } },
    });
    expect(latest.json.aggregations.maxDelay.value).toBe(5000);
    await http(node.url, 'DELETE', '/_pit', { id: pit });
    await http(node.url, 'DELETE', '/flights/_doc/extra?refresh=true');
  });

  it('typed_keys prefixes every name with its type', async () => {
    const r = await http(node.url, 'POST', '/flights/_search?typed_keys=true', {
      size: 0,
      aggs: { c: { terms: { field: 'carrier', size: 1 }, aggs: { a: { avg: { field: 'delay' } } } } },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.aggregations)).toEqual(['sterms#c']);
    expect(Object.keys(r.json.aggregations['sterms#c'].buckets[0])).toContain('avg#a');
  });

  it("answer bad requests with Elasticsearch's errors", async () => {
    const unknown = await http(node.url, 'POST', '/flights/_search', {
      aggs: { x: { bogus: { field: 'delay' } } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('parsing_exception');
    expect(unknown.json.error.reason).toContain('Unknown aggregation type [bogus]');

    const text = await http(node.url, 'POST', '/flights/_search', {
      aggs: { x: { terms: { field: 'summary' } } },
    });
    expect(text.status).toBe(400);
    expect(text.json.error.type).toBe('search_phase_execution_exception');
    expect(text.json.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(text.json.error.root_cause[0].reason).toContain('Fielddata is disabled on [summary]');

    const missing = await http(node.url, 'POST', '/flights/_search', {
      aggs: { x: { random_sampler: { probability: 0.5 } } },
    });
    expect(missing.status).toBe(501);
    expect(missing.json.error.reason).toContain('random_sampler');

    const set = await http(node.url, 'PUT', '/_cluster/settings', { transient: { 'search.max_buckets': 3 } });
    expect(set.status).toBe(200);
    try {
      const many = await http(node.url, 'POST', '/flights/_search', {
        size: 0,
        aggs: { c: { terms: { field: 'carrier', size: 10 } } },
      });
      // The limit is checked in the final reduce, which Elasticsearch runs in its fetch phase.
      expect(many.status).toBe(400);
      expect(many.json.error.type).toBe('search_phase_execution_exception');
      expect(many.json.error.phase).toBe('fetch');
      expect(many.json.error.root_cause).toEqual([]);
      expect(many.json.error.failed_shards).toEqual([]);
      expect(many.json.error.caused_by.type).toBe('too_many_buckets_exception');
      expect(many.json.error.caused_by.max_buckets).toBe(3);
    } finally {
      await http(node.url, 'PUT', '/_cluster/settings', { transient: { 'search.max_buckets': null } });
    }
  });
});
