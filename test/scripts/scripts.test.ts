import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let client: Client;

const DOCS = [
  { n: 3, d: 1.5, k: 'a', loc: { lat: 10, lon: 20 }, title: 'quick fox' },
  { n: [4, 5], d: 2.0, k: 'b', loc: { lat: -5, lon: 1 }, title: 'quick quick fox' },
  { n: 10, d: 0.25, k: 'c', title: 'lazy dog' },
];

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
  await http(node.url, 'PUT', '/s', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        n: { type: 'long' },
        d: { type: 'double' },
        k: { type: 'keyword' },
        loc: { type: 'geo_point' },
        title: { type: 'text' },
      },
    },
  });
  const lines = DOCS.flatMap((doc, i) => [
    JSON.stringify({ index: { _id: String(i + 1) } }),
    JSON.stringify(doc),
  ]);
  await http(node.url, 'POST', '/s/_bulk?refresh=true', `${lines.join('\n')}\n`, {
    'content-type': 'application/x-ndjson',
  });
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
});

async function aggs(body: Record<string, unknown>) {
  const r = await http(node.url, 'POST', '/s/_search', { size: 0, aggs: body });
  expect(r.status).toBe(200);
  return r.json.aggregations;
}

describe('scripts in aggregations', () => {
  it('value_count hands a value script numbers and geo points, not strings (the 7.8 rule)', async () => {
    const got = await aggs({
      numbers: { value_count: { field: 'n', script: "_value instanceof Number ? _value : 'not a number'" } },
      numericOnly: { value_count: { field: 'n', script: '_value instanceof Number ? _value : null' } },
      points: { value_count: { field: 'loc', script: '_value.lat > 0 ? _value : null' } },
      keywords: { value_count: { field: 'k', script: '_value instanceof String ? _value : null' } },
    });
    expect(got).toEqual({
      numbers: { value: 4 },
      numericOnly: { value: 4 },
      points: { value: 1 },
      keywords: { value: 3 },
    });
  });

  it('sums, averages and bounds script values, with params and integer division on longs', async () => {
    const got = await aggs({
      sum: { sum: { script: "doc['n'].value / 2" } },
      avg: { avg: { field: 'd', script: { source: '_value * params.f', params: { f: 4 } } } },
      max: { max: { script: "doc['n'].size() * 100 + doc['d'].value" } },
      stats: { stats: { script: { source: "doc['d'].value", lang: 'painless' } } },
    });
    expect(got.sum.value).toBe(1 + 2 + 5);
    expect(got.avg.value).toBeCloseTo(((1.5 + 2 + 0.25) * 4) / 3);
    expect(got.max.value).toBe(202);
    expect(got.stats).toEqual({ count: 3, min: 0.25, max: 2.0, avg: 1.25, sum: 3.75 });
  });
});

describe('scripts in bucket aggregations', () => {
  it('buckets terms by script keys (strings alone, the field type with a value script)', async () => {
    const got = await aggs({
      parity: { terms: { script: "doc['n'].value % 2 == 0 ? 'even' : 'odd'" } },
      doubled: { terms: { field: 'n', script: '_value * 2', order: { _key: 'asc' } } },
    });
    expect(got.parity.buckets).toEqual([
      { key: 'even', doc_count: 2 },
      { key: 'odd', doc_count: 1 },
    ]);
    expect(got.doubled.buckets).toEqual([
      { key: 6, doc_count: 1 },
      { key: 8, doc_count: 1 },
      { key: 10, doc_count: 1 },
      { key: 20, doc_count: 1 },
    ]);
  });

  it('counts script values in range and date_range buckets (alone, or as a value script)', async () => {
    const got = await aggs({
      r: {
        range: { script: "doc['d'].value * 10", ranges: [{ to: 10 }, { from: 10, to: 20 }, { from: 20 }] },
      },
      doubled: { range: { field: 'n', script: '_value * 2', ranges: [{ to: 9 }, { from: 9 }] } },
      days: {
        date_range: {
          script: "doc['n'].value * 86400000L",
          ranges: [{ to: '1970-01-05' }, { from: '1970-01-05' }],
        },
      },
    });
    expect(got.r.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).toEqual([
      ['*-10.0', 1],
      ['10.0-20.0', 1],
      ['20.0-*', 1],
    ]);
    expect(got.doubled.buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual([2, 2]);
    expect(got.days.buckets).toEqual([
      {
        key: '*-1970-01-05T00:00:00.000Z',
        to: 345600000.0,
        to_as_string: '1970-01-05T00:00:00.000Z',
        doc_count: 1,
      },
      {
        key: '1970-01-05T00:00:00.000Z-*',
        from: 345600000.0,
        from_as_string: '1970-01-05T00:00:00.000Z',
        doc_count: 2,
      },
    ]);
  });

  it('builds a date_histogram of script values, printed as dates', async () => {
    const got = await aggs({
      h: {
        date_histogram: { script: "doc['n'].value * 86400000L", calendar_interval: 'day', min_doc_count: 1 },
      },
    });
    expect(got.h.buckets).toEqual([
      { key_as_string: '1970-01-04T00:00:00.000Z', key: 259200000, doc_count: 1 },
      { key_as_string: '1970-01-05T00:00:00.000Z', key: 345600000, doc_count: 1 },
      { key_as_string: '1970-01-11T00:00:00.000Z', key: 864000000, doc_count: 1 },
    ]);
  });

  it('builds a histogram of script values', async () => {
    const got = await aggs({ h: { histogram: { script: "doc['d'].value * 10", interval: 10 } } });
    expect(got.h.buckets).toEqual([
      { key: 0.0, doc_count: 1 },
      { key: 10.0, doc_count: 1 },
      { key: 20.0, doc_count: 1 },
    ]);
  });
});

describe('scripts in queries and hits', () => {
  it('sorts by a _script sort, numbers and strings', async () => {
    const byNumber = await http(node.url, 'POST', '/s/_search', {
      sort: {
        _script: { type: 'number', script: { source: "doc['d'].value * params.f", params: { f: -1 } } },
      },
    });
    expect(byNumber.json.hits.hits.map((h: { _id: string; sort: number[] }) => [h._id, h.sort[0]])).toEqual([
      ['2', -2],
      ['1', -1.5],
      ['3', -0.25],
    ]);
    const byString = await http(node.url, 'POST', '/s/_search', {
      sort: [{ _script: { type: 'string', order: 'desc', script: "doc['k'].value" } }],
      size: 1,
      search_after: ['c'],
    });
    expect(byString.json.hits.hits.map((h: { _id: string; sort: string[] }) => h.sort)).toEqual([['b']]);
  });

  it('filters with a script query and scores with script_score', async () => {
    const filtered = await http(node.url, 'POST', '/s/_search', {
      query: { script: { script: { source: "doc['n'].value >= params.min", params: { min: 4 } } } },
      sort: ['_doc'],
    });
    expect(filtered.json.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['2', '3']);
    const plain = await http(node.url, 'POST', '/s/_search', { query: { match: { title: 'quick' } } });
    const scored = await http(node.url, 'POST', '/s/_search', {
      query: {
        function_score: {
          query: { match: { title: 'quick' } },
          functions: [{ script_score: { script: "_score * doc['d'].value" } }],
          boost_mode: 'replace',
        },
      },
    });
    const base = new Map(plain.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]));
    for (const h of scored.json.hits.hits) {
      const d = DOCS[Number(h._id) - 1]!.d;
      expect(h._score).toBeCloseTo((base.get(h._id) as number) * d, 5);
    }
  });

  it('adds script_fields to each hit, with params._source', async () => {
    const r = await client.search({
      index: 's',
      body: {
        _source: false,
        query: { ids: { values: ['1'] } },
        script_fields: {
          twice: { script: { source: "doc['n'].value * params.m", params: { m: 2 } } },
          shout: { script: "params._source.k.toUpperCase() + '!'" },
          point: { script: "doc['loc'].value" },
        },
      },
    });
    expect(r.body.hits.hits[0].fields).toEqual({ twice: [6], shout: ['A!'], point: [{ lat: 10, lon: 20 }] });
  });

  it('warns that [inline] is deprecated', async () => {
    const r = await http(node.url, 'POST', '/s/_search', {
      query: { ids: { values: ['1'] } },
      script_fields: { one: { script: { inline: '1' } }, two: { script: { inline: '2' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits[0].fields).toEqual({ one: [1], two: [2] });
    expect(r.headers.warning).toMatch(
      /^299 shoal-\S+ "Deprecated field \[inline\] used, expected \[source\] instead"$/,
    );
  });

  it('reports a script that does not compile or fails with its script_exception', async () => {
    const r = await http(node.url, 'POST', '/s/_search', {
      query: { script: { script: "int x = 1; return doc['n'].valu > x;" } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    const cause = r.json.error.root_cause[0];
    expect(cause).toMatchObject({
      type: 'script_exception',
      reason: 'runtime error',
      script_stack: ["return doc['n'].valu > x;", '                ^---- HERE'],
      lang: 'painless',
      position: { offset: 27, start: 11, end: 36 },
    });
    const compile = await http(node.url, 'POST', '/s/_search', { query: { script: { script: '1 +' } } });
    expect(compile.status).toBe(400);
    expect(compile.json.error.root_cause[0]).toMatchObject({
      type: 'script_exception',
      reason: 'compile error',
    });
    const lang = await http(node.url, 'POST', '/s/_search', {
      query: { script: { script: { source: '1', lang: 'groovy' } } },
    });
    expect(lang.status).toBe(400);
    expect(lang.json.error.root_cause[0].reason).toBe('script_lang not supported [groovy]');
    const expression = await http(node.url, 'POST', '/s/_search', {
      query: { script: { script: { source: '1', lang: 'expression' } } },
    });
    expect(expression.status).toBe(501);
  });
});

describe('stored scripts', () => {
  it('stores, runs, replaces and deletes a script (raw HTTP and the official client)', async () => {
    await client.putScript({
      id: 'plus',
      body: { script: { lang: 'painless', source: "doc['n'].value + params.add" } },
    });
    expect((await client.getScript({ id: 'plus' })).body).toEqual({
      _id: 'plus',
      found: true,
      script: { lang: 'painless', source: "doc['n'].value + params.add" },
    });
    const body = { size: 0, aggs: { s: { sum: { script: { id: 'plus', params: { add: 10 } } } } } };
    expect((await http(node.url, 'POST', '/s/_search', body)).json.aggregations.s.value).toBe(
      3 + 4 + 10 + 30,
    );
    await http(node.url, 'PUT', '/_scripts/plus', {
      script: { lang: 'painless', source: "doc['n'].value - params.add" },
    });
    expect((await http(node.url, 'POST', '/s/_search', body)).json.aggregations.s.value).toBe(
      3 + 4 + 10 - 30,
    );
    expect((await http(node.url, 'DELETE', '/_scripts/plus')).json).toEqual({ acknowledged: true });
    const gone = await http(node.url, 'GET', '/_scripts/plus');
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ _id: 'plus', found: false });
    const again = await http(node.url, 'DELETE', '/_scripts/plus');
    expect(again.status).toBe(404);
    expect(again.json.error).toMatchObject({
      type: 'resource_not_found_exception',
      reason: 'stored script [plus] does not exist',
    });
    const missing = await http(node.url, 'POST', '/s/_search', body);
    expect(missing.json.error.root_cause[0].reason).toBe('unable to find script [plus] in cluster state');
  });

  it('refuses a stored script that does not compile, and keeps scripts over a restart', async () => {
    const bad = await http(node.url, 'PUT', '/_scripts/bad', {
      script: { lang: 'painless', source: 'doc[' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ type: 'script_exception', reason: 'compile error' });
    const noLang = await http(node.url, 'PUT', '/_scripts/bad', { script: { source: '1' } });
    expect(noLang.json.error.reason).toBe('must specify lang for stored script');
    await http(node.url, 'PUT', '/_scripts/kept', { script: { lang: 'painless', source: '42' } });
    node = await node.restart();
    await client.close();
    client = new Client({ node: node.url, auth: node.auth });
    expect((await http(node.url, 'GET', '/_scripts/kept')).json.script.source).toBe('42');
  });
});

describe('script.max_compilations_rate', () => {
  it('refuses new script sources past the rate with a 429, and lets known ones through', async () => {
    const bad = await http(node.url, 'PUT', '/_cluster/settings', {
      transient: { 'script.max_compilations_rate': '5/10s' },
    });
    expect(bad.json.error.reason).toBe('time value [10s] must be at least on a one minute resolution');
    await http(node.url, 'PUT', '/_cluster/settings', {
      transient: { 'script.max_compilations_rate': '2/1m' },
    });
    const search = (src: string) =>
      http(node.url, 'POST', '/s/_search', { query: { script: { script: src } } });
    expect((await search("doc['n'].value > 100")).status).toBe(200);
    expect((await search("doc['n'].value > 101")).status).toBe(200);
    expect((await search("doc['n'].value > 100")).status).toBe(200);
    const refused = await search("doc['n'].value > 102");
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({
      type: 'circuit_breaking_exception',
      reason:
        '[script] Too many dynamic script compilations within, max: [2/1m]; please use indexed, or scripts with parameters instead; this limit can be changed by the [script.max_compilations_rate] setting',
    });
    await http(node.url, 'PUT', '/_cluster/settings', {
      transient: { 'script.max_compilations_rate': null },
    });
  });
});
