import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const DOCS = [
  { id: '1', type: 'hat', price: 10, title: 'red hat', date: '2024-01-01' },
  { id: '2', type: 'hat', price: 30, title: 'big red hat', date: '2024-01-02' },
  { id: '3', type: 'bag', price: 50, title: 'blue bag', date: '2024-01-03' },
  { id: '4', type: 'bag', price: 20, title: 'red bag', date: '2024-01-04' },
  { id: '5', type: 'shoe', price: 25, title: 'shoe', date: '2024-01-05' },
];

beforeAll(async () => {
  node = await startTestNode();
  const mappings = {
    properties: {
      type: { type: 'keyword' },
      price: { type: 'double' },
      title: { type: 'text' },
      date: { type: 'date' },
    },
  };
  await http(node.url, 'PUT', '/shop', { settings: { number_of_shards: 2 }, mappings });
  const lines = DOCS.flatMap(({ id, ...doc }) => [{ index: { _id: id } }, doc]);
  const bulk = await http(node.url, 'POST', '/shop/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown) => http(node.url, 'POST', '/shop/_search', body);

describe('top_hits', () => {
  it('answers each bucket its best hits by a field sort, with sort values and source filtering', async () => {
    const r = await search({
      size: 0,
      aggs: {
        types: {
          terms: { field: 'type', order: { _key: 'asc' } },
          aggs: {
            top: {
              top_hits: { size: 1, sort: [{ price: { order: 'desc' } }], _source: { includes: ['title'] } },
            },
          },
        },
      },
    });
    expect(r.status).toBe(200);
    const buckets = r.json.aggregations.types.buckets;
    expect(buckets.map((b: { key: string }) => b.key)).toEqual(['bag', 'hat', 'shoe']);
    expect(buckets[0].top).toEqual({
      hits: {
        total: { value: 2, relation: 'eq' },
        max_score: null,
        hits: [{ _index: 'shop', _id: '3', _score: null, _source: { title: 'blue bag' }, sort: [50] }],
      },
    });
    expect(r.text).toContain('"sort":[50.0]');
    expect(buckets[1].top.hits.hits[0]._id).toBe('2');
    expect(buckets[2].top.hits.hits[0]._source).toEqual({ title: 'shoe' });
  });

  it('orders by score by default, merging the shards, and pages with from', async () => {
    const r = await search({
      size: 0,
      query: { match: { title: 'red' } },
      aggs: { top: { top_hits: { size: 2, from: 1, _source: false, version: true } } },
    });
    expect(r.status).toBe(200);
    const top = r.json.aggregations.top.hits;
    expect(top.total).toEqual({ value: 3, relation: 'eq' });
    expect(top.max_score).toBeGreaterThan(0);
    expect(top.hits).toHaveLength(2);
    for (const h of top.hits) {
      expect(h._score).toBeGreaterThan(0);
      expect(h._score).toBeLessThanOrEqual(top.max_score);
      expect(h._version).toBe(1);
      expect(h._source).toBeUndefined();
      expect(h.sort).toBeUndefined();
    }
    // The same hits the search itself ranks second and third.
    const hits = await search({ size: 3, query: { match: { title: 'red' } }, _source: false });
    expect(top.hits.map((h: { _id: string }) => h._id)).toEqual(
      hits.json.hits.hits.slice(1).map((h: { _id: string }) => h._id),
    );
  });

  it('sorts by date with the date shown as the field formats it, and by several keys', async () => {
    const r = await search({
      size: 0,
      aggs: {
        latest: { top_hits: { size: 2, sort: [{ date: 'desc' }], _source: ['price'] } },
        multi: { top_hits: { size: 5, sort: [{ type: 'asc' }, { price: 'asc' }], _source: false } },
      },
    });
    const latest = r.json.aggregations.latest.hits.hits;
    expect(latest.map((h: { _id: string }) => h._id)).toEqual(['5', '4']);
    expect(latest[0].sort).toEqual([Date.parse('2024-01-05')]);
    expect(latest[0]._source).toEqual({ price: 25 });
    const multi = r.json.aggregations.multi.hits.hits;
    expect(multi.map((h: { _id: string }) => h._id)).toEqual(['4', '3', '1', '2', '5']);
    expect(multi[0].sort).toEqual(['bag', 20]);
  });

  it('answers Elasticsearch 400s for bad input, and 501 for what it lacks', async () => {
    const big = await search({ size: 0, aggs: { t: { top_hits: { size: 101 } } } });
    expect(big.status).toBe(400);
    expect(big.json.error.root_cause[0].reason).toContain('Top hits result window is too large');
    const neg = await search({ size: 0, aggs: { t: { top_hits: { size: -1 } } } });
    expect(neg.status).toBe(400);
    const unknown = await search({ size: 0, aggs: { t: { top_hits: { sizes: 1 } } } });
    expect(unknown.status).toBe(400);
    const sub = await search({
      size: 0,
      aggs: { t: { top_hits: {}, aggs: { a: { avg: { field: 'price' } } } } },
    });
    expect(sub.status).toBe(400);
    const hl = await search({ size: 0, aggs: { t: { top_hits: { highlight: { fields: { title: {} } } } } } });
    expect(hl.status).toBe(501);
  });
});

describe('top_metrics', () => {
  it('answers the metrics of the best docs by the sort, per bucket', async () => {
    const r = await search({
      size: 0,
      aggs: {
        latest: { top_metrics: { metrics: { field: 'price' }, sort: { date: 'desc' } } },
        cheap: {
          top_metrics: {
            metrics: [{ field: 'price' }, { field: 'type' }],
            sort: [{ price: 'asc' }],
            size: 2,
          },
        },
        types: {
          terms: { field: 'type', order: { _key: 'asc' } },
          aggs: { tm: { top_metrics: { metrics: { field: 'price' }, sort: { price: 'desc' } } } },
        },
      },
    });
    expect(r.status).toBe(200);
    const a = r.json.aggregations;
    expect(a.latest).toEqual({ top: [{ sort: [Date.parse('2024-01-05')], metrics: { price: 25 } }] });
    expect(a.cheap.top).toEqual([
      { sort: [10], metrics: { price: 10, type: 'hat' } },
      { sort: [20], metrics: { price: 20, type: 'bag' } },
    ]);
    expect(r.text).toContain('"metrics":{"price":10.0,"type":"hat"}');
    expect(
      a.types.buckets.map(
        (b: { tm: { top: { metrics: { price: number } }[] } }) => b.tm.top[0]!.metrics.price,
      ),
    ).toEqual([50, 30, 25]);
  });

  it('refuses a missing sort and a size past the limit', async () => {
    const noSort = await search({ size: 0, aggs: { t: { top_metrics: { metrics: { field: 'price' } } } } });
    expect(noSort.status).toBe(400);
    const big = await search({
      size: 0,
      aggs: { t: { top_metrics: { metrics: { field: 'price' }, sort: { price: 'asc' }, size: 11 } } },
    });
    expect(big.status).toBe(400);
    expect(big.json.error.root_cause[0].reason).toContain(
      '[top_metrics.size] must not be more than [10] but was [11]',
    );
  });
});
