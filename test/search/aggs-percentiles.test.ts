import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const mappings = {
    properties: {
      int_field: { type: 'integer' },
      double_field: { type: 'double' },
      string_field: { type: 'keyword' },
      w: { type: 'integer' },
    },
  };
  await http(node.url, 'PUT', '/p1', { settings: { number_of_shards: 1 }, mappings });
  await http(node.url, 'PUT', '/p5', { settings: { number_of_shards: 5 }, mappings });
  const docs = [1, 51, 101, 151].map((v, i) => [
    { index: { _id: String(i + 1) } },
    { int_field: v, double_field: v, string_field: ['foo', 'bar', 'baz', 'quux'][i], w: i + 1 },
  ]);
  for (const index of ['p1', 'p5']) {
    const bulk = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(docs.flat()));
    expect(bulk.json.errors).toBe(false);
  }
  // 3,000 values spread over 5 shards: past the exact limit of the digest.
  const many = Array.from({ length: 3000 }, (_, i) => [
    { index: { _id: `m${i}` } },
    { double_field: (i * 7919) % 3000 },
  ]);
  await http(node.url, 'PUT', '/many', { settings: { number_of_shards: 5 }, mappings });
  const bulk = await http(node.url, 'POST', '/many/_bulk?refresh=true', ndjson(many.flat()));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (index: string, body: unknown) => http(node.url, 'POST', `/${index}/_search`, body);
const aggs = (index: string, a: unknown, query: unknown = { match_all: {} }) =>
  search(index, { size: 0, query, aggs: a });
const reason = (r: HttpResult) => r.json.error.root_cause[0].reason as string;

describe('percentiles (tdigest)', () => {
  it('answers the values Elasticsearch pins for 1, 51, 101, 151, on one shard and on five', async () => {
    for (const index of ['p1', 'p5']) {
      const r = await aggs(index, {
        pi: { percentiles: { field: 'int_field' } },
        pd: { percentiles: { field: 'double_field', tdigest: { compression: 200 } } },
      });
      expect(r.status).toBe(200);
      const want = { '1.0': 1, '5.0': 1, '25.0': 51, '50.0': 101, '75.0': 151, '95.0': 151, '99.0': 151 };
      expect(r.json.aggregations.pi.values).toEqual(want);
      expect(r.json.aggregations.pd.values).toEqual(want);
      expect(r.text).toContain('"25.0":51.0');
    }
  });

  it('filters, fills missing, and is null for an unmapped field', async () => {
    const r = await aggs(
      'p5',
      { p: { percentiles: { field: 'int_field' } } },
      { range: { int_field: { gte: 50 } } },
    );
    expect(r.json.aggregations.p.values).toMatchObject({ '1.0': 51, '25.0': 51, '50.0': 101, '75.0': 151 });
    const m = await aggs('p5', {
      m: { percentiles: { field: 'nope', missing: 1.0 } },
      u: { percentiles: { field: 'nope', percents: [50] } },
    });
    expect(Object.values(m.json.aggregations.m.values)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(m.json.aggregations.u).toEqual({ values: { '50.0': null } });
  });

  it('sorts explicit percents and writes the unkeyed form', async () => {
    const r = await aggs('p5', {
      p: { percentiles: { field: 'int_field', percents: [50, 5, 100], keyed: false }, meta: { foo: 'bar' } },
    });
    expect(r.json.aggregations.p).toEqual({
      meta: { foo: 'bar' },
      values: [
        { key: 5, value: 1 },
        { key: 50, value: 101 },
        { key: 100, value: 151 },
      ],
    });
  });

  it('stays within the digest error past the exact limit, merged across shards', async () => {
    const r = await aggs('many', {
      p: { percentiles: { field: 'double_field', percents: [1, 10, 50, 90, 99] } },
    });
    const v = r.json.aggregations.p.values;
    // Exact percentiles of 0..2999; t-digest at compression 100 keeps well within 1% of the range.
    for (const [p, exact] of [
      ['1.0', 29.99],
      ['10.0', 299.9],
      ['50.0', 1499.5],
      ['90.0', 2699.1],
      ['99.0', 2969.01],
    ] as const) {
      expect(Math.abs(v[p] - exact)).toBeLessThan(30);
    }
  });

  it('answers 400 for bad input, as Elasticsearch does', async () => {
    const cases: [unknown, RegExp | null][] = [
      [
        { field: 'int_field', tdigest: { compression: -1 } },
        /\[compression\] must be greater than or equal to 0. Found \[-1.0\]/,
      ],
      [{ field: 'int_field', percents: [] }, null],
      [{ field: 'int_field', percents: null }, null],
      [{ field: 'int_field', percents: ['foo'] }, null],
      [{ field: 'int_field', percents: [101] }, /percent must be in \[0,100\], got \[101.0\]/],
      [{ field: 'int_field', percents: [-1] }, null],
      [
        { field: 'string_field' },
        /Field \[string_field\] of type \[keyword\] is not supported for aggregation \[percentiles\]/,
      ],
      [
        { field: 'int_field', hdr: { number_of_significant_value_digits: 10 } },
        /\[numberOfSignificantValueDigits\] must be between 0 and 5/,
      ],
      [{ field: 'int_field', hdr: { number_of_significant_value_digits: -1 } }, /must be between 0 and 5/],
    ];
    for (const [body, re] of cases) {
      const r = await aggs('p1', { p: { percentiles: body } });
      expect(r.status, JSON.stringify(body)).toBe(400);
      if (re) expect(JSON.stringify(r.json.error)).toMatch(re);
    }
  });
});

describe('percentiles (hdr)', () => {
  it('answers the highest value equivalent to the percentile', async () => {
    const r = await aggs('p5', { p: { percentiles: { field: 'int_field', hdr: {} } } });
    const v = r.json.aggregations.p.values;
    const want: Record<string, number> = {
      '1.0': 1,
      '25.0': 1,
      '50.0': 51.03,
      '75.0': 101.06,
      '99.0': 151.12,
    };
    for (const [k, x] of Object.entries(want)) expect(Math.abs(v[k] - x), k).toBeLessThan(0.1);
  });
});

describe('percentile_ranks', () => {
  it('answers the ranks Elasticsearch pins, keyed and unkeyed, tdigest and hdr', async () => {
    const r = await aggs('p5', {
      r: { percentile_ranks: { field: 'int_field', values: [200, 50, 100, 150] } },
      u: { percentile_ranks: { field: 'double_field', values: [50, 100], keyed: false } },
      h: { percentile_ranks: { field: 'int_field', values: [50, 100], hdr: {} } },
    });
    expect(r.json.aggregations.r.values).toEqual({ '50.0': 25, '100.0': 50, '150.0': 75, '200.0': 100 });
    expect(r.json.aggregations.u.values).toEqual([
      { key: 50, value: 25 },
      { key: 100, value: 50 },
    ]);
    expect(r.json.aggregations.h.values).toEqual({ '50.0': 25, '100.0': 50 });
    const f = await aggs(
      'p5',
      { r: { percentile_ranks: { field: 'int_field', values: [50, 100, 150] } } },
      {
        range: { int_field: { gte: 50 } },
      },
    );
    const fv = f.json.aggregations.r.values;
    expect(fv['50.0']).toBe(0);
    expect(fv['100.0']).toBeCloseTo(33.33, 1);
    expect(fv['150.0']).toBeCloseTo(66.67, 1);
  });

  it('refuses a missing or empty values list', async () => {
    for (const body of [
      { field: 'int_field' },
      { field: 'int_field', values: [] },
      { field: 'int_field', values: ['x'] },
    ]) {
      const r = await aggs('p1', { r: { percentile_ranks: body } });
      expect(r.status).toBe(400);
    }
    const r = await aggs('p1', { r: { percentile_ranks: { field: 'int_field' } } });
    expect(reason(r)).toContain('[values] must not be null');
  });
});

describe('boxplot, median_absolute_deviation, weighted_avg, string_stats', () => {
  it('computes each over the four docs', async () => {
    const r = await aggs('p5', {
      box: { boxplot: { field: 'int_field' } },
      mad: { median_absolute_deviation: { field: 'int_field' } },
      wavg: { weighted_avg: { value: { field: 'int_field' }, weight: { field: 'w' } } },
      ss: { string_stats: { field: 'string_field', show_distribution: true } },
      none: { weighted_avg: { value: { field: 'nope' }, weight: { field: 'w' } } },
    });
    expect(r.status).toBe(200);
    const a = r.json.aggregations;
    expect(a.box).toEqual({ min: 1, max: 151, q1: 51, q2: 101, q3: 151, lower: 1, upper: 151 });
    // Median 101; deviations 100, 50, 0, 50: their median 50.
    expect(a.mad.value).toBe(50);
    // (1·1 + 51·2 + 101·3 + 151·4) / 10
    expect(a.wavg.value).toBeCloseTo(101, 10);
    expect(a.none.value).toBeNull();
    expect(a.ss).toMatchObject({ count: 4, min_length: 3, max_length: 4, avg_length: 3.25 });
    // foo bar baz quux: 13 characters.
    const counts: Record<string, number> = { f: 1, o: 2, b: 2, a: 2, r: 1, z: 1, q: 1, u: 2, x: 1 };
    let entropy = 0;
    for (const n of Object.values(counts)) entropy -= (n / 13) * Math.log2(n / 13);
    expect(a.ss.entropy).toBeCloseTo(entropy, 10);
    expect(Object.keys(a.ss.distribution).slice(0, 4).sort()).toEqual(['a', 'b', 'o', 'u']);
    expect(a.ss.distribution.a).toBeCloseTo(2 / 13, 10);
  });

  it('orders terms buckets by a percentile, a boxplot quartile or a weighted average', async () => {
    const r = await aggs('p5', {
      byP: {
        terms: { field: 'string_field', order: { 'p.50': 'desc' } },
        aggs: { p: { percentiles: { field: 'int_field', percents: [50] } } },
      },
      byBox: {
        terms: { field: 'string_field', order: { 'b.q3': 'asc' } },
        aggs: { b: { boxplot: { field: 'int_field' } } },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.byP.buckets.map((b: { key: string }) => b.key)).toEqual([
      'quux',
      'baz',
      'bar',
      'foo',
    ]);
    expect(r.json.aggregations.byBox.buckets.map((b: { key: string }) => b.key)).toEqual([
      'foo',
      'bar',
      'baz',
      'quux',
    ]);
    const bad = await aggs('p5', {
      t: {
        terms: { field: 'string_field', order: { p: 'desc' } },
        aggs: { p: { percentiles: { field: 'int_field' } } },
      },
    });
    expect(bad.status).toBe(400);
  });

  it('answers string_stats on a number field with a 400', async () => {
    const r = await aggs('p1', { ss: { string_stats: { field: 'int_field' } } });
    expect(r.status).toBe(400);
  });
});
