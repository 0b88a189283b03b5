import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/cf', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        title: { type: 'text' },
        body: { type: 'text' },
        raw: { type: 'text', analyzer: 'whitespace' },
        tag: { type: 'keyword' },
      },
    },
  });
  const docs = [
    { title: 'quick fox', body: 'the lazy dog' },
    { title: 'fox', body: 'quick quick brown fox jumps' },
    { title: 'slow turtle', body: 'quick' },
    { body: 'nothing here' },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', '/cf/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown) => http(node.url, 'POST', '/cf/_search', { query });
// Scores travel as the shortest decimal of a float: read back as that float.
const scores = (r: { json: { hits: { hits: { _id: string; _score: number }[] } } }) =>
  Object.fromEntries(r.json.hits.hits.map((h) => [h._id, Math.fround(h._score)]));

/**
 * BM25F worked by hand for `title^2, body`: the synthetic field has the larger doc count (4)
 * and 2 × 5 + 11 = 21 tokens; per doc, freq and length count title tokens twice. Lengths stay
 * below 24, which the one-byte norm keeps exactly.
 */
const f = Math.fround;
const docCount = 4;
const avgdl = f(21 / 4);
function bm25(df: number, freq: number, length: number, boost = 1): number {
  const w = f(boost * f(Math.log(1 + (docCount - df + 0.5) / (df + 0.5))));
  const normInverse = f(1 / f(f(1.2) * f(f(1 - f(0.75)) + f(f(f(0.75) * length) / avgdl))));
  return f(w - f(w / f(1 + f(freq * normInverse))));
}
// quick: df max(1 in title, 2 in body) = 2; fox: max(2 in title, 1 in body) = 2.
const quick = { 1: bm25(2, 2, 7), 2: bm25(2, 2, 7), 3: bm25(2, 1, 5) };
const fox = { 1: bm25(2, 2, 7), 2: bm25(2, 3, 7) };

describe('combined_fields', () => {
  it('scores each term as BM25F over the weighted fields', async () => {
    const r = await search({ combined_fields: { query: 'quick fox', fields: ['title^2', 'body'] } });
    expect(r.status).toBe(200);
    expect(scores(r)).toEqual({ 1: f(quick[1] + fox[1]), 2: f(quick[2] + fox[2]), 3: quick[3] });
    const one = await search({ combined_fields: { query: 'quick', fields: ['body', 'title^2'], boost: 3 } });
    expect(scores(one)).toEqual({
      1: bm25(2, 2, 7, 3),
      2: bm25(2, 2, 7, 3),
      3: bm25(2, 1, 5, 3),
    });
  });

  it('joins the terms with operator and minimum_should_match', async () => {
    const and = await search({
      combined_fields: { query: 'quick fox', fields: ['title^2', 'body'], operator: 'and' },
    });
    expect(scores(and)).toEqual({ 1: f(quick[1] + fox[1]), 2: f(quick[2] + fox[2]) });
    const msm = await search({
      combined_fields: { query: 'quick fox', fields: ['title^2', 'body'], minimum_should_match: 2 },
    });
    expect(Object.keys(scores(msm)).sort()).toEqual(['1', '2']);
  });

  it('answers zero_terms_query when the analyzer leaves no terms, and nothing on unmapped fields', async () => {
    const none = await search({ combined_fields: { query: '!!', fields: ['title', 'body'] } });
    expect(none.json.hits.total.value).toBe(0);
    const all = await search({
      combined_fields: { query: '!!', fields: ['title', 'body'], zero_terms_query: 'all' },
    });
    expect(all.json.hits.total.value).toBe(4);
    const unmapped = await search({ combined_fields: { query: 'fox', fields: ['nope'] } });
    expect(unmapped.status).toBe(200);
    expect(unmapped.json.hits.total.value).toBe(0);
  });

  it('refuses what CombinedFieldsQueryBuilder refuses', async () => {
    const low = await search({ combined_fields: { query: 'fox', fields: ['title^0.5'] } });
    expect(low.status).toBe(400);
    expect(low.json.error.root_cause[0]).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[1:65] [combined_fields] failed to parse field [fields]',
    });
    expect(low.json.error.caused_by).toMatchObject({
      type: 'illegal_argument_exception',
      reason: '[combined_fields] requires field boosts to be >= 1.0',
    });
    const noQuery = await search({ combined_fields: { fields: ['title'] } });
    expect(noQuery.status).toBe(400);
    expect(noQuery.json.error.root_cause[0].reason).toMatch(/Required \[query\]$/);
    const noFields = await search({ combined_fields: { query: 'fox' } });
    expect(noFields.status).toBe(400);
    expect(noFields.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to create query: In [combined_fields] query, at least one field must be provided',
    });
    const keyword = await search({ combined_fields: { query: 'fox', fields: ['title', 'tag'] } });
    expect(keyword.json.error.root_cause[0].reason).toBe(
      'failed to create query: Field [tag] of type [keyword] does not support [combined_fields] queries',
    );
    const analyzers = await search({ combined_fields: { query: 'fox', fields: ['title', 'raw'] } });
    expect(analyzers.json.error.root_cause[0].reason).toBe(
      'failed to create query: All fields in [combined_fields] query must have the same search analyzer',
    );
    const unknown = await search({ combined_fields: { query: 'fox', fields: ['title'], tie_breaker: 1 } });
    expect(unknown.json.error.root_cause[0]).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[1:63] [combined_fields] unknown field [tie_breaker]',
    });
  });
});
