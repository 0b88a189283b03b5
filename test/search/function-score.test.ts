import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/fs', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        tag: { type: 'keyword' },
        n: { type: 'long' },
        d: { type: 'date' },
        loc: { type: 'geo_point' },
      },
    },
  });
  const docs = [
    { tag: 'a', n: 1, d: '2024-01-01' },
    { tag: 'a', n: 4, d: '2024-01-11' },
    { tag: 'b', n: 9 },
    { tag: 'b' },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', '/fs/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown) => http(node.url, 'POST', '/fs/_search', { query });
const f = Math.fround;
// Hits carry Java's Float.toString of the score: the float it names is the score.
const scores = (r: { json: { hits: { hits: { _id: string; _score: number }[] } } }) =>
  Object.fromEntries(r.json.hits.hits.map((h) => [h._id, f(h._score)]));
const two = { constant_score: { filter: { match_all: {} }, boost: 2 } };

describe('boosting', () => {
  it('multiplies the scores of docs matching negative by negative_boost, in float', async () => {
    const r = await search({
      boosting: { positive: two, negative: { term: { tag: 'b' } }, negative_boost: 0.2, boost: 3 },
    });
    // Lucene: (float)(score × negative_boost × boost), in double.
    const b = f(2 * f(0.2) * 3);
    expect(scores(r)).toEqual({ 1: 6, 2: 6, 3: b, 4: b });
  });

  it('refuses what BoostingQueryBuilder refuses', async () => {
    const r = await search({ boosting: { positive: two, negative_boost: 0.5 } });
    expect(r.status).toBe(400);
    expect(r.json.error.root_cause[0]).toMatchObject({
      type: 'parsing_exception',
      reason: "[boosting] query requires 'negative' query to be set'",
    });
    const neg = await search({ boosting: { positive: two, negative: two } });
    expect(neg.json.error.root_cause[0].reason).toBe(
      "[boosting] query requires 'negative_boost' to be set to be a positive value'",
    );
  });
});

describe('function_score', () => {
  const fns = (score_mode: string) => ({
    function_score: {
      functions: [
        { filter: { term: { tag: 'a' } }, weight: 3 },
        { filter: { range: { n: { gte: 4 } } }, field_value_factor: { field: 'n' }, weight: 2 },
      ],
      score_mode,
      boost_mode: 'replace',
    },
  });

  it('combines the functions whose filter matches by score_mode', async () => {
    expect(scores(await search(fns('avg')))).toEqual({ 1: 1, 2: f((3 + 4 * 2) / 5), 3: 9, 4: 1 });
    expect(scores(await search(fns('sum')))).toEqual({ 1: 3, 2: 11, 3: 18, 4: 1 });
    expect(scores(await search(fns('multiply')))).toEqual({ 1: 3, 2: 24, 3: 18, 4: 1 });
    expect(scores(await search(fns('max')))).toEqual({ 1: 3, 2: 8, 3: 18, 4: 1 });
    expect(scores(await search(fns('min')))).toEqual({ 1: 3, 2: 3, 3: 18, 4: 1 });
    expect(scores(await search(fns('first')))).toEqual({ 1: 3, 2: 3, 3: 18, 4: 1 });
  });

  it('combines the query score with boost_mode, capped by max_boost', async () => {
    const q = (extra: Record<string, unknown>) =>
      search({ function_score: { query: two, weight: 3, ...extra } });
    const one = async (extra: Record<string, unknown>) => scores(await q(extra))['1'];
    expect(await one({})).toBe(6);
    expect(await one({ boost_mode: 'sum' })).toBe(5);
    expect(await one({ boost_mode: 'avg' })).toBe(2.5);
    expect(await one({ boost_mode: 'max' })).toBe(3);
    expect(await one({ boost_mode: 'min' })).toBe(2);
    expect(await one({ boost_mode: 'replace' })).toBe(3);
    expect(await one({ max_boost: 2.5 })).toBe(5);
    // The boost multiplies the query's score, not the function's.
    expect(await one({ boost: 2 })).toBe(12);
    expect(await one({ boost: 2, boost_mode: 'replace' })).toBe(3);
  });

  it('scores field_value_factor with its modifier and missing value', async () => {
    const r = await search({
      function_score: {
        query: two,
        field_value_factor: { field: 'n', factor: 1.2, modifier: 'log1p', missing: 1 },
      },
    });
    const v = (n: number) => f(2 * Math.log10(n * f(1.2) + 1));
    expect(scores(r)).toEqual({ 1: v(1), 2: v(4), 3: v(9), 4: v(1) });
  });

  it('leaves out docs under min_score', async () => {
    const r = await search({
      function_score: { field_value_factor: { field: 'n', missing: 0 }, boost_mode: 'replace', min_score: 4 },
    });
    expect(r.json.hits.total.value).toBe(2);
    expect(scores(r)).toEqual({ 2: 4, 3: 9 });
  });

  it('decays numeric and date fields (gauss, exp, linear); docs without the field score 1', async () => {
    const decay = (curve: string, body: unknown) =>
      search({ function_score: { [curve]: body, boost_mode: 'replace' } });
    const dist = (n: number) => Math.max(0, Math.abs(n - 0) - 1);
    const gs = (0.5 * 4 ** 2) / Math.log(0.5);
    const g = (n: number) => f(Math.exp((0.5 * dist(n) ** 2) / gs));
    const gauss = await decay('gauss', { n: { origin: 0, scale: 4, offset: 1 } });
    expect(scores(gauss)).toEqual({ 1: g(1), 2: g(4), 3: g(9), 4: 1 });
    const es = Math.log(0.3) / 4;
    const e = (n: number) => f(Math.exp(es * dist(n)));
    const exp = await decay('exp', { n: { origin: '0', scale: '4', offset: 1, decay: 0.3 } });
    expect(scores(exp)).toEqual({ 1: e(1), 2: e(4), 3: e(9), 4: 1 });
    const ls = 4 / (1 - 0.5);
    const l = (n: number) => f(Math.max(0, (ls - dist(n)) / ls));
    const linear = await decay('linear', { n: { origin: 0, scale: 4, offset: 1 } });
    expect(scores(linear)).toEqual({ 1: l(1), 2: l(4), 3: l(9), 4: 1 });
    const day = 86_400_000;
    const date = await decay('exp', { d: { origin: '2024-01-01', scale: '10d' } });
    expect(scores(date)).toEqual({
      1: 1,
      2: f(Math.exp((Math.log(0.5) / (10 * day)) * (10 * day))),
      3: 1,
      4: 1,
    });
  });

  it('gives random_score with a seed the same scores on every request, in [0, 1)', async () => {
    const q = { function_score: { random_score: { seed: 42, field: '_seq_no' }, boost_mode: 'replace' } };
    const a = scores(await search(q));
    expect(scores(await search(q))).toEqual(a);
    for (const s of Object.values(a)) expect(s >= 0 && s < 1).toBe(true);
    const unseeded = scores(await search({ function_score: { random_score: {} } }));
    expect(Object.keys(unseeded)).toHaveLength(4);
  });

  it('fails a negative log as FieldValueFactorFunction does', async () => {
    const r = await search({
      function_score: {
        query: { term: { tag: 'a' } },
        field_value_factor: { field: 'n', factor: 0.5, modifier: 'log' },
      },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain(
      'field value function must not produce negative scores, but got: [-0.3010299956639812] for field value: [1.0]; consider using log1p or log2p instead of log to avoid negative scores',
    );
  });

  it('refuses what FunctionScoreQueryBuilder refuses', async () => {
    const entry = await search({ function_score: { functions: [3] } });
    expect(entry.status).toBe(400);
    expect(entry.json.error.root_cause[0].reason).toBe(
      'failed to parse [START_OBJECT]. malformed query, expected a [VALUE_NUMBER] while parsing functions but got a [function_score] instead',
    );
    const both = await search({ function_score: { weight: 2, functions: [{ weight: 1 }] } });
    expect(both.json.error.root_cause[0].reason).toBe(
      'failed to parse [function_score] query. [you can either define [functions] array or a single function, not both. already found [weight], now encountering [functions].]',
    );
    const unknown = await search({ function_score: { foo: 1 } });
    expect(unknown.json.error.root_cause[0].reason).toBe(
      'failed to parse [function_score] query. field [foo] is not supported',
    );
    const mode = await search({ function_score: { weight: 1, score_mode: 'avgg' } });
    expect(mode.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason:
        'No enum constant org.elasticsearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode.AVGG',
    });
    const decay = await search({ function_score: { gauss: { n: { origin: 0 } } } });
    expect(decay.status).toBe(400);
    expect(decay.json.error.root_cause[0]).toMatchObject({
      type: 'parse_exception',
      reason: 'both [scale] and [origin] must be set for numeric fields.',
    });
    expect(JSON.stringify(decay.json)).toContain(
      'failed to create query: both [scale] and [origin] must be set for numeric fields.',
    );
  });

  it('runs a script_score function, with the query score as _score', async () => {
    const script = await search({
      function_score: {
        query: two,
        script_score: { script: { source: '_score * 3' } },
        boost_mode: 'replace',
      },
    });
    expect(script.status).toBe(200);
    for (const score of Object.values(scores(script))) expect(score).toBe(6);
  });
});
