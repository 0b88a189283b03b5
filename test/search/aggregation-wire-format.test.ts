/**
 * Aggregation responses as Elasticsearch 8 writes them, checked on the raw response text where
 * the number text matters: Java doubles with their fraction (`15.0`, `1.0E10`), float range
 * endpoints, keys of listed named filters, booleans of an unmapped field, and the errors of
 * regular-expression include/exclude and of fields mapped differently in two indices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const search = (index: string, body: unknown, query = '') =>
  http(node.url, 'POST', `/${index}/_search${query}`, body);

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/nums', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        f: { type: 'float' },
        l: { type: 'long' },
        d: { type: 'double' },
        ip: { type: 'ip' },
        s: { type: 'keyword' },
        b: { type: 'boolean' },
        t: { type: 'date' },
      },
    },
  });
  expect(created.status).toBe(200);
  const docs = [
    { f: 0.01, l: 1, d: -1, ip: '127.0.0.1', s: 'a', b: true, t: '2021-05-01T00:00:00Z' },
    { f: 0.03, l: 4, d: 2.5, ip: '::1', s: 'b', b: false, t: '2021-05-02T00:00:00Z' },
    { f: 0.04, l: 10, d: 1e10, ip: '127.0.0.1', s: 'a', b: true, t: '2021-05-03T00:00:00Z' },
    {},
  ];
  const lines = docs.flatMap((doc, i) => [
    JSON.stringify({ index: { _id: String(i) } }),
    JSON.stringify(doc),
  ]);
  const bulk = await http(node.url, 'POST', '/nums/_bulk?refresh=true', `${lines.join('\n')}\n`, {
    'content-type': 'application/x-ndjson',
  });
  expect(bulk.json.errors).toBe(false);
  await http(node.url, 'PUT', '/other', { mappings: { properties: { s: { type: 'long' } } } });
  await http(node.url, 'PUT', '/other/_doc/1?refresh=true', { s: 7 });
});
afterAll(async () => {
  await node?.stop();
});

describe('aggregation wire format', () => {
  it('writes Java doubles with a fraction and longs as integers', async () => {
    const r = await search('nums', {
      size: 0,
      aggs: {
        sum: { sum: { field: 'l' } },
        avg: { avg: { field: 'l' } },
        max: { max: { field: 'd' } },
        count: { value_count: { field: 'l' } },
        card: { cardinality: { field: 'l' } },
        stats: { stats: { field: 'l' } },
        h: { histogram: { field: 'l', interval: 5 } },
        dh: { date_histogram: { field: 't', calendar_interval: 'day' } },
        r: { range: { field: 'l', ranges: [{ to: 2 }, { from: 2 }] } },
        dt: { terms: { field: 'd', order: { _key: 'asc' } } },
        lt: { terms: { field: 'l', size: 1, order: { _key: 'asc' } } },
      },
    });
    expect(r.status).toBe(200);
    const t = r.text;
    expect(t).toContain('"sum":{"value":15.0}');
    expect(t).toContain('"avg":{"value":5.0}');
    expect(t).toContain('"max":{"value":1.0E10}');
    expect(t).toContain('"count":{"value":3}');
    expect(t).toContain('"card":{"value":3}');
    expect(t).toContain('"stats":{"count":3,"min":1.0,"max":10.0,"avg":5.0,"sum":15.0}');
    expect(t).toContain(
      '"h":{"buckets":[{"key":0.0,"doc_count":2},{"key":5.0,"doc_count":0},{"key":10.0,"doc_count":1}]}',
    );
    expect(t).toContain('"key":1619827200000,"doc_count":1');
    expect(t).toContain('{"key":"*-2.0","to":2.0,"doc_count":1},{"key":"2.0-*","from":2.0,"doc_count":2}');
    expect(t).toContain(
      '"buckets":[{"key":-1.0,"doc_count":1},{"key":2.5,"doc_count":1},{"key":1.0E10,"doc_count":1}]',
    );
    expect(t).toContain(
      '"lt":{"doc_count_error_upper_bound":0,"sum_other_doc_count":2,"buckets":[{"key":1,"doc_count":1}]}',
    );
  });

  it('keeps the number texts with ?pretty, filter_path and typed_keys', async () => {
    const aggs = {
      size: 0,
      aggs: { s: { sum: { field: 'l' } }, h: { histogram: { field: 'l', interval: 10 } } },
    };
    const pretty = await search('nums', aggs, '?pretty');
    expect(pretty.text).toContain('"s" : {\n      "value" : 15.0\n    }');
    expect(pretty.text).toContain('"key" : 10.0,');
    const filtered = await search('nums', aggs, '?filter_path=aggregations.s,aggregations.h.buckets.key');
    expect(filtered.text).toBe(
      '{"aggregations":{"s":{"value":15.0},"h":{"buckets":[{"key":0.0},{"key":10.0}]}}}',
    );
    const excluded = await search(
      'nums',
      aggs,
      '?filter_path=-hits,-took,-timed_out,-_shards,-aggregations.h',
    );
    expect(excluded.text).toBe('{"aggregations":{"s":{"value":15.0}}}');
    const typed = await search('nums', aggs, '?typed_keys&filter_path=aggregations');
    expect(typed.text).toBe(
      '{"aggregations":{"sum#s":{"value":15.0},"histogram#h":{"buckets":[{"key":0.0,"doc_count":2},{"key":10.0,"doc_count":1}]}}}',
    );
  });

  it('compares float values with range endpoints reduced to float precision', async () => {
    const r = await search('nums', {
      size: 0,
      aggs: {
        fr: {
          range: {
            field: 'f',
            ranges: [
              { from: 0, to: 0.04 },
              { from: 0.04, to: 1.0 },
            ],
          },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(4);
    expect(r.text).toContain(
      '"buckets":[{"key":"0.0-0.04","from":0.0,"to":0.04,"doc_count":2},{"key":"0.04-1.0","from":0.04,"to":1.0,"doc_count":1}]',
    );
  });

  it('lists named filters with their keys when keyed is false', async () => {
    const r = await search('nums', {
      size: 0,
      aggs: {
        f: {
          filters: {
            keyed: false,
            other_bucket: true,
            filters: { second: { term: { s: 'b' } }, first: { term: { s: 'a' } } },
          },
          aggs: { m: { max: { field: 'l' } } },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.f.buckets).toEqual([
      { key: 'first', doc_count: 2, m: { value: 10 } },
      { key: 'second', doc_count: 1, m: { value: 4 } },
      { key: '_other_', doc_count: 1, m: { value: null } },
    ]);
    expect(r.text).toContain('{"key":"first","doc_count":2,"m":{"value":10.0}}');
  });

  it('prints the keys of an unmapped boolean field as booleans', async () => {
    const r = await search('nums', {
      size: 0,
      aggs: { u: { terms: { field: 'unmapped_boolean', value_type: 'boolean', missing: true } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.u.buckets).toEqual([{ key: 1, key_as_string: 'true', doc_count: 4 }]);
  });

  it('refuses regular-expression include/exclude on fields that are not strings, applies it on strings', async () => {
    const start =
      'Aggregation [t] cannot support regular expression style include/exclude settings as they can only be ' +
      'applied to string fields. ';
    const ip = await search('nums', { size: 0, aggs: { t: { terms: { field: 'ip', exclude: '127.*' } } } });
    expect(ip.status).toBe(400);
    expect(ip.json.error.type).toBe('search_phase_execution_exception');
    expect(ip.json.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason: `${start}Use an array of values for include/exclude clauses`,
    });
    for (const field of ['l', 'd', 't', 'b']) {
      const r = await search('nums', { size: 0, aggs: { t: { terms: { field, include: '1.*' } } } });
      expect(r.status).toBe(400);
      expect(r.json.error.root_cause[0].reason).toBe(
        `${start}Use an array of numeric values for include/exclude clauses used to filter numeric fields`,
      );
    }
    // On a string field the expression filters the terms (Lucene syntax, whole terms).
    const keyword = await search('nums', { size: 0, aggs: { t: { terms: { field: 's', include: 'a.*' } } } });
    expect(keyword.status).toBe(200);
    expect(keyword.json.aggregations.t.buckets).toEqual([{ key: 'a', doc_count: 2 }]);
  });

  it('fails the reduce of a field mapped with different types as Elasticsearch fails its fetch phase', async () => {
    const r = await search('nums,other', { size: 0, aggs: { t: { terms: { field: 's' } } } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        root_cause: [],
        type: 'search_phase_execution_exception',
        reason: '',
        phase: 'fetch',
        grouped: true,
        failed_shards: [],
        caused_by: {
          type: 'illegal_argument_exception',
          reason:
            'Merging/Reducing the aggregations failed when computing the aggregation [t] because the field you ' +
            'gave in the aggregation query existed as two different types in two different indices',
        },
      },
      status: 400,
    });
  });
});
