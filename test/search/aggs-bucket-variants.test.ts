/**
 * Bucket aggregation variants end to end (ip_range, ip_prefix, sampler, diversified_sampler,
 * adjacency_matrix, auto_date_histogram, variable_width_histogram, significant_terms): one node,
 * the data and answers of Elasticsearch's own REST tests for them, across shards where it matters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const INDICES: Record<string, { shards: number; properties: Record<string, unknown> }> = {
  ips: { shards: 2, properties: { ip: { type: 'ip' }, ipv6: { type: 'ip' }, v: { type: 'long' } } },
  tags: {
    shards: 1,
    properties: {
      tags: { type: 'text' },
      author: { type: 'keyword' },
      number: { type: 'integer' },
      class: { type: 'integer' },
    },
  },
  nums: { shards: 1, properties: { num: { type: 'integer' } } },
  dates: { shards: 2, properties: { date: { type: 'date' }, v: { type: 'long' } } },
  goodbad: {
    shards: 1,
    properties: { text: { type: 'keyword' }, prose: { type: 'text' }, class: { type: 'keyword' } },
  },
  'goodbad-2': { shards: 1, properties: { text: { type: 'keyword' }, class: { type: 'keyword' } } },
  preagg: { shards: 2, properties: { str: { type: 'keyword' }, number: { type: 'integer' } } },
};

const DOCS: [string, Record<string, unknown>][] = [
  ['ips', { ip: '::1', ipv6: '2001:db8:a4f8:112a:6001:0:12:7f10', v: 1 }],
  ['ips', { ip: '192.168.0.1', ipv6: '2001:db8:a4f8:112a:6001:0:12:7f12', v: 2 }],
  ['ips', { ip: '192.168.0.7', ipv6: '2001:db8:a4f8:112c:6001:0:12:7f41', v: 3 }],
  ['tags', { tags: 'kibana', author: 'alice', number: 1, class: 1 }],
  ['tags', { tags: 'kibana', author: 'bob', number: 2, class: 1 }],
  ['tags', { tags: 'kibana', author: 'alice', number: 3, class: 2 }],
  ['tags', { tags: 'javascript', author: 'alice', number: 4, class: 1 }],
  ['nums', { num: [1, 2] }],
  ['nums', { num: [2, 3] }],
  ['nums', { num: [3, 4] }],
  ['dates', { date: '2020-03-01', v: 1 }],
  ['dates', { date: '2020-03-02', v: 2 }],
  ['dates', { date: '2020-03-08', v: 3 }],
  ['dates', { date: '2020-03-09', v: 4 }],
  ['goodbad', { text: 'good', class: 'good' }],
  ['goodbad', { text: 'good', class: 'good' }],
  ['goodbad', { text: 'bad', class: 'bad' }],
  ['goodbad', { text: 'bad', class: 'bad' }],
  ['goodbad', { text: ['good', 'bad'], class: 'good' }],
  ['goodbad', { text: ['good', 'bad'], class: 'bad' }],
  ['goodbad', { text: 'bad', class: 'bad' }],
  ['goodbad-2', { class: 'bad' }],
  ['goodbad-2', { class: 'bad' }],
  ['preagg', { _doc_count: 10, str: 'abc', number: 500 }],
  ['preagg', { _doc_count: 5, str: 'xyz', number: 100 }],
  ['preagg', { _doc_count: 7, str: 'foo', number: 100 }],
  ['preagg', { _doc_count: 1, str: 'foo', number: 200 }],
  ['preagg', { str: 'abc', number: 500 }],
];

beforeAll(async () => {
  node = await startTestNode();
  for (const [index, { shards, properties }] of Object.entries(INDICES)) {
    const body = { settings: { number_of_shards: shards }, mappings: { properties } };
    expect((await http(node.url, 'PUT', `/${index}`, body)).status).toBe(200);
  }
  // goodbad's words again as analysed text, for significant_text.
  const withProse = (index: string, doc: Record<string, unknown>) =>
    index === 'goodbad' ? { ...doc, prose: [doc.text].flat().join(' ').toUpperCase() } : doc;
  const lines = DOCS.flatMap(([index, doc], i) => [
    { index: { _index: index, _id: String(i) } },
    withProse(index, doc),
  ]);
  const bulk = await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (index: string, body: Record<string, unknown>, query = '') =>
  http(node.url, 'POST', `/${index}/_search${query}`, { size: 0, ...body });

/** A rendered bucket, as far as these tests read it. */
type Json = Record<string, unknown> & { v: { value: number }; sig: { buckets: { key: string }[] } };

describe('ip_range and ip_prefix', () => {
  it('counts ranges and masks across shards, with keys, keyed form and a sibling pipeline', async () => {
    const r = await search('ips', {
      aggs: {
        range: {
          ip_range: {
            field: 'ip',
            ranges: [
              { to: '192.168.0.0' },
              { from: '192.168.0.0', to: '192.169.0.0' },
              { from: '192.169.0.0' },
            ],
          },
          aggs: { v: { sum: { field: 'v' } } },
        },
        range_avg_v: { avg_bucket: { buckets_path: 'range.v' } },
        masks: {
          ip_range: { field: 'ip', keyed: true, ranges: [{ mask: '::/24' }, { mask: '192.168.0.0/16' }] },
        },
      },
    });
    expect(r.status).toBe(200);
    const aggs = r.json.aggregations;
    expect(aggs.range.buckets).toEqual([
      { key: '*-192.168.0.0', to: '192.168.0.0', doc_count: 1, v: { value: 1 } },
      {
        key: '192.168.0.0-192.169.0.0',
        from: '192.168.0.0',
        to: '192.169.0.0',
        doc_count: 2,
        v: { value: 5 },
      },
      { key: '192.169.0.0-*', from: '192.169.0.0', doc_count: 0, v: { value: 0 } },
    ]);
    expect(aggs.range_avg_v.value).toBe(3);
    expect(aggs.masks.buckets).toEqual({
      '::/24': { to: '0:100::', doc_count: 3 },
      '192.168.0.0/16': { from: '192.168.0.0', to: '192.169.0.0', doc_count: 2 },
    });
  });

  it('buckets networks of IPv4 and IPv6 addresses, and refuses a prefix too long', async () => {
    const r = await search('ips', {
      aggs: {
        v4: { ip_prefix: { field: 'ip', prefix_length: 24 } },
        v6: { ip_prefix: { field: 'ipv6', prefix_length: 64, is_ipv6: true, append_prefix_length: true } },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.v4.buckets).toEqual([
      { key: '0.0.0.0', netmask: '255.255.255.0', doc_count: 1, is_ipv6: false, prefix_length: 24 },
      { key: '192.168.0.0', netmask: '255.255.255.0', doc_count: 2, is_ipv6: false, prefix_length: 24 },
    ]);
    expect(r.json.aggregations.v6.buckets.map((b: Json) => `${b.key}:${b.doc_count}`)).toEqual([
      '2001:db8:a4f8:112a::/64:2',
      '2001:db8:a4f8:112c::/64:1',
    ]);
    const bad = await search('ips', { aggs: { p: { ip_prefix: { field: 'ip', prefix_length: 44 } } } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain(
      '[prefix_length] must be in range [0, 32] while value is [44]',
    );
    const script = await search('ips', {
      aggs: { p: { ip_range: { script: 'x', ranges: [{ to: '1.1.1.1' }] } } },
    });
    expect(script.status).toBe(400);
    expect(JSON.stringify(script.json)).toContain('[ip_range] does not support scripts');
  });
});

describe('sampler and diversified_sampler', () => {
  const QUERY = { query_string: { query: 'tags:kibana OR tags:javascript' } };
  const MIN_MAX = { min_number: { min: { field: 'number' } }, max_number: { max: { field: 'number' } } };
  const sample = async (agg: Record<string, unknown>) => {
    const r = await search('tags', { query: QUERY, aggs: { s: { ...agg, aggs: MIN_MAX } } });
    expect(r.status).toBe(200);
    const s = r.json.aggregations.s;
    return [s.doc_count, s.min_number.value, s.max_number.value];
  };

  it('give their sub-aggregations the best-scoring docs of each shard', async () => {
    expect(await sample({ sampler: { shard_size: 1 } })).toEqual([1, 4, 4]);
    expect(await sample({ sampler: {} })).toEqual([4, 1, 4]);
  });

  it('keep at most max_docs_per_value docs per value', async () => {
    expect(await sample({ diversified_sampler: { field: 'author', shard_size: 1 } })).toEqual([1, 4, 4]);
    expect(await sample({ diversified_sampler: { field: 'author' } })).toEqual([2, 2, 4]);
    expect(await sample({ diversified_sampler: { field: 'author', max_docs_per_value: 3 } })).toEqual([
      4, 1, 4,
    ]);
    expect(await sample({ diversified_sampler: { field: 'class' } })).toEqual([2, 3, 4]);
  });
});

describe('adjacency_matrix', () => {
  it('counts each filter and each intersection holding docs, ordered by key', async () => {
    const r = await search('nums', {
      aggs: {
        conns: {
          adjacency_matrix: {
            filters: { 1: { term: { num: 1 } }, 2: { term: { num: 2 } }, 4: { term: { num: 4 } } },
          },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.conns.buckets).toEqual([
      { key: '1', doc_count: 1 },
      { key: '1&2', doc_count: 1 },
      { key: '2', doc_count: 2 },
      { key: '4', doc_count: 1 },
    ]);
    const none = await search('nums', { aggs: { conns: { adjacency_matrix: {} } } });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.json)).toContain('[conns] is missing : filters parameter');
  });
});

describe('auto_date_histogram and variable_width_histogram', () => {
  it('picks the interval that keeps to the bucket target, across shards, under a sibling pipeline', async () => {
    const r = await search('dates', {
      aggs: {
        histo: { auto_date_histogram: { field: 'date', buckets: 2 }, aggs: { v: { sum: { field: 'v' } } } },
        histo_avg_v: { avg_bucket: { buckets_path: 'histo.v' } },
      },
    });
    expect(r.status).toBe(200);
    const histo = r.json.aggregations.histo;
    expect(histo.interval).toBe('7d');
    expect(histo.buckets.map((b: Json) => [b.key_as_string, b.doc_count, b.v.value])).toEqual([
      ['2020-03-01T00:00:00.000Z', 2, 3],
      ['2020-03-08T00:00:00.000Z', 2, 7],
    ]);
    expect(r.json.aggregations.histo_avg_v.value).toBe(5);
    const bad = await search('dates', {
      aggs: { h: { auto_date_histogram: { field: 'date', buckets: 0 } } },
    });
    expect(bad.status).toBe(400);
  });

  it('clusters values around centroids', async () => {
    const r = await search('nums', {
      aggs: { histo: { variable_width_histogram: { field: 'num', buckets: 2 } } },
    });
    expect(r.status).toBe(200);
    // Values 1, 2, 2, 3, 3, 4: equal gaps merge leftmost first, centroids weighted by count.
    expect(r.json.aggregations.histo.buckets).toEqual([
      { min: 1, key: expect.closeTo(5 / 3, 9), max: 2, doc_count: 3 },
      { min: 3, key: expect.closeTo(10 / 3, 9), max: 4, doc_count: 3 },
    ]);
  });
});

describe('significant_terms', () => {
  it("finds each class's own word, with subset and background counts", async () => {
    const r = await search('goodbad', {
      aggs: {
        class: { terms: { field: 'class' }, aggs: { sig_terms: { significant_terms: { field: 'text' } } } },
      },
    });
    expect(r.status).toBe(200);
    const [bad, good] = r.json.aggregations.class.buckets;
    expect(bad.sig_terms).toEqual({
      doc_count: 4,
      bg_count: 7,
      buckets: [{ key: 'bad', doc_count: 4, score: expect.closeTo(0.4, 9), bg_count: 5 }],
    });
    expect(good.sig_terms.buckets.map((b: Json) => b.key)).toEqual(['good']);
  });

  it('counts the background of every index among the docs background_filter matches', async () => {
    const r = await search('goodbad*', {
      aggs: {
        sig_terms: {
          significant_terms: {
            field: 'text',
            background_filter: { bool: { filter: [{ term: { class: 'good' } }] } },
          },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.sig_terms.bg_count).toBe(3);
    expect(r.json.aggregations.sig_terms.doc_count).toBe(9);
  });

  it('keys ip terms by address, and refuses regular expressions on them and misspelled fields', async () => {
    const r = await search(
      'ips',
      {
        query: { term: { ip: '::1' } },
        aggs: { ip_terms: { significant_terms: { field: 'ip', min_doc_count: 1 } } },
      },
      '?typed_keys=true',
    );
    expect(r.status).toBe(200);
    expect(r.json.aggregations['sigsterms#ip_terms'].buckets).toEqual([
      { key: '::1', doc_count: 1, score: expect.any(Number), bg_count: 1 },
    ]);
    const regex = await search('ips', {
      aggs: { ip_terms: { significant_terms: { field: 'ip', exclude: '127.*' } } },
    });
    expect(regex.status).toBe(400);
    expect(JSON.stringify(regex.json)).toContain(
      'Aggregation [ip_terms] cannot support regular expression style include/exclude settings as they can only be ' +
        'applied to string fields. Use an array of values for include/exclude clauses',
    );
    const typo = await search('ips', { aggs: { foo: { significant_terms: { field: 'foo', jlp: {} } } } });
    expect(typo.status).toBe(400);
    expect(JSON.stringify(typo.json)).toContain(
      '[significant_terms] unknown field [jlp] did you mean [jlh]?',
    );
  });
});

describe('significant_text', () => {
  it('analyses the text of _source, filtered by include', async () => {
    const sig = async (options: Record<string, unknown>) => {
      const r = await search('goodbad', {
        aggs: {
          class: {
            terms: { field: 'class' },
            aggs: { sig: { significant_text: { field: 'prose', ...options } } },
          },
        },
      });
      expect(r.status).toBe(200);
      return r.json.aggregations.class.buckets.map((b: Json) => [b.key, b.sig.buckets.map((s) => s.key)]);
    };
    expect(await sig({})).toEqual([
      ['bad', ['bad']],
      ['good', ['good']],
    ]);
    expect(await sig({ include: 'b.*' })).toEqual([
      ['bad', ['bad']],
      ['good', []],
    ]);
  });
});

describe('_doc_count', () => {
  it('counts a pre-aggregated document as many times in bucket doc counts, across shards', async () => {
    const r = await search('preagg', {
      aggs: {
        num_terms: { terms: { field: 'number' } },
        str_terms: { terms: { field: 'str' } },
        composite_agg: { composite: { sources: [{ num_terms: { terms: { field: 'number' } } }] } },
        f: { filters: { filters: { abc: { match: { str: 'abc' } }, foo: { match: { str: 'foo' } } } } },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(5);
    const aggs = r.json.aggregations;
    const pairs = (buckets: Json[]) => buckets.map((b) => [b.key, b.doc_count]);
    expect(pairs(aggs.num_terms.buckets)).toEqual([
      [100, 12],
      [500, 11],
      [200, 1],
    ]);
    expect(pairs(aggs.str_terms.buckets)).toEqual([
      ['abc', 11],
      ['foo', 8],
      ['xyz', 5],
    ]);
    expect(pairs(aggs.composite_agg.buckets)).toEqual([
      [{ num_terms: 100 }, 12],
      [{ num_terms: 200 }, 1],
      [{ num_terms: 500 }, 11],
    ]);
    expect(aggs.f.buckets).toEqual({ abc: { doc_count: 11 }, foo: { doc_count: 8 } });
    const bad = await http(node.url, 'PUT', '/preagg/_doc/x', { _doc_count: -1 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain(
      'Field [_doc_count] must be a positive integer. Value [-1] is not allowed.',
    );
  });
});
