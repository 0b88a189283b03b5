import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/ts', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: { tags: { type: 'keyword' }, required: { type: 'integer' }, body: { type: 'text' } },
    },
  });
  const docs = [
    { tags: ['a', 'b', 'c'], required: 2 },
    { tags: ['a'], required: 2 },
    { tags: ['a', 'b'], required: 1 },
    { tags: ['c'], required: 0 },
    { tags: ['a', 'b'] },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', '/ts/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown) => http(node.url, 'POST', '/ts/_search', { query });
// Scores travel as the shortest decimal of a float: read back as that float.
const scores = (r: { json: { hits: { hits: { _id: string; _score: number }[] } } }) =>
  Object.fromEntries(r.json.hits.hits.map((h) => [h._id, Math.fround(h._score)]));

// BM25Similarity over a keyword field (no norms: every doc's length is 1), in float.
const f = Math.fround;
const docCount = 5;
const avgdl = f(9 / 5);
const normInverse = f(1 / f(f(1.2) * f(f(1 - f(0.75)) + f(f(0.75 * 1) / avgdl))));
function termScore(df: number, boost = 1): number {
  const w = f(boost * f(Math.log(1 + (docCount - df + 0.5) / (df + 0.5))));
  return f(w - f(w / f(1 + normInverse)));
}
const dfs = { a: 4, b: 3, c: 2 };

describe('terms_set', () => {
  it('matches docs with at least minimum_should_match_field of the terms, scored as their sum', async () => {
    const r = await search({
      terms_set: { tags: { terms: ['a', 'b', 'c'], minimum_should_match_field: 'required' } },
    });
    expect(r.status).toBe(200);
    const s = (t: 'a' | 'b' | 'c', boost = 1) => termScore(dfs[t], boost);
    expect(scores(r)).toEqual({
      1: f(s('a') + s('b') + s('c')),
      3: f(s('a') + s('b')),
      // 0 required counts as 1.
      4: s('c'),
    });
    const boosted = await search({
      terms_set: { tags: { terms: ['a', 'b', 'c'], minimum_should_match_field: 'required', boost: 2 } },
    });
    expect(scores(boosted)).toEqual({
      1: f(s('a', 2) + s('b', 2) + s('c', 2)),
      3: f(s('a', 2) + s('b', 2)),
      4: s('c', 2),
    });
    // A repeated value is a clause of its own.
    const twice = await search({
      terms_set: { tags: { terms: ['a', 'a'], minimum_should_match_field: 'required' } },
    });
    expect(Object.keys(scores(twice)).sort()).toEqual(['1', '2', '3']);
    expect(scores(twice)['2']).toBe(f(2 * s('a')));
  });

  it('matches nothing without terms or on an unmapped field', async () => {
    const none = await search({ terms_set: { tags: { terms: [] } } });
    expect(none.status).toBe(200);
    expect(none.json.hits.total.value).toBe(0);
    const unmapped = await search({
      terms_set: { nope: { terms: ['a'], minimum_should_match_field: 'required' } },
    });
    expect(unmapped.json.hits.total.value).toBe(0);
  });

  it('refuses what TermsSetQueryBuilder refuses', async () => {
    const both = await search({
      terms_set: {
        tags: {
          terms: ['a'],
          minimum_should_match_field: 'required',
          minimum_should_match_script: { source: '1' },
        },
      },
    });
    expect(both.status).toBe(400);
    expect(both.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'A field has already been specified. Cannot specify both a field and script',
    });
    const unknown = await search({ terms_set: { tags: { terms: ['a'], foo: 1 } } });
    expect(unknown.json.error.root_cause[0]).toMatchObject({
      type: 'parsing_exception',
      reason: '[terms_set] query does not support [foo]',
    });
    const missing = await search({ terms_set: { tags: { terms: ['a'] } } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to create query: No minimum should match has been specified',
    });
    const nofield = await search({
      terms_set: { tags: { terms: ['a'], minimum_should_match_field: 'nope' } },
    });
    expect(nofield.status).toBe(400);
    expect(nofield.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to find minimum_should_match field [nope]',
    });
    const text = await search({ terms_set: { tags: { terms: ['a'], minimum_should_match_field: 'body' } } });
    expect(text.status).toBe(400);
    expect(text.json.error.root_cause[0].reason).toMatch(
      /^failed to create query: Fielddata is disabled on \[body\]/,
    );
  });

  it('answers 501 for minimum_should_match_script, which needs scripting', async () => {
    const r = await search({
      terms_set: { tags: { terms: ['a'], minimum_should_match_script: { source: '1' } } },
    });
    expect(r.status).toBe(501);
    expect(r.json.error.root_cause[0].reason).toBe(
      'the [minimum_should_match_script] of the [terms_set] query is not implemented in Shoal',
    );
  });
});
