import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/qs', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        title: { type: 'text' },
        body: { type: 'text' },
        tag: { type: 'keyword' },
        n: { type: 'long' },
        at: { type: 'date' },
      },
    },
  });
  expect(created.status).toBe(200);
  const docs = [
    {
      title: 'quick brown fox',
      body: 'jumps over the lazy dog',
      tag: 'animal',
      n: 1,
      at: '2024-01-01T00:30:00Z',
    },
    { title: 'lazy dog', body: 'quick brown fox sleeps', tag: 'animal', n: 2, at: '2024-01-02T00:30:00Z' },
    { title: 'quick thinking', body: 'a fast answer', tag: 'mind', n: 3, at: '2024-01-03T00:30:00Z' },
    { title: 'brown paper bag', body: 'brown quick fox', tag: 'thing', n: 4, at: '2024-01-04T00:30:00Z' },
    { title: 'the fax machine', body: 'office', tag: 'thing', n: 5, at: '2024-01-05T00:30:00Z' },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', '/qs/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

type Hit = { _id: string; _score: number };
async function search(queryString: Record<string, unknown>) {
  return http(node.url, 'POST', '/qs/_search', { query: { query_string: queryString }, size: 20 });
}
const ids = (r: { json: { hits: { hits: Hit[] } } }) => r.json.hits.hits.map((h) => h._id).sort();
const scoreOf = (r: { json: { hits: { hits: Hit[] } } }, id: string) =>
  r.json.hits.hits.find((h) => h._id === id)?._score;

describe('the query_string query', () => {
  it('runs the classic syntax on default_field, fuzzy terms included', async () => {
    const r = await search({ query: 'title:quick AND fox~', default_field: 'title' });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(['1']);
    // `fox~` also finds `fax` in the title (one edit).
    const fuzzy = await search({ query: 'fox~', default_field: 'title' });
    expect(ids(fuzzy)).toEqual(['1', '5']);
    const strict = await search({ query: 'fox~', default_field: 'title', fuzziness: 0 });
    expect(ids(strict)).toEqual(['1']);
  });

  it('answers as q= does for the same text', async () => {
    const body = await search({ query: 'quick -lazy', default_field: 'title' });
    const q = await http(node.url, 'GET', '/qs/_search?size=20&df=title&q=quick%20-lazy');
    expect(body.status).toBe(200);
    expect(body.json.hits.hits).toEqual(q.json.hits.hits);
    expect(ids(body)).toEqual(['1', '3']);
  });

  it('searches `fields` with their boosts, combined per type', async () => {
    const best = await search({ query: 'fox', fields: ['title^3', 'body'] });
    expect(ids(best)).toEqual(['1', '2', '4']);
    // The title match, boosted, ranks first.
    expect(best.json.hits.hits[0]._id).toBe('1');
    const most = await search({ query: 'fox', fields: ['title', 'body'], type: 'most_fields' });
    // Doc 1 has fox in its title only; doc 4 in its body only; most_fields sums, so a doc
    // matching in both fields would lead. Both single-field docs score below the sum of two.
    expect(ids(most)).toEqual(['1', '2', '4']);
    const tie = await search({ query: 'brown', fields: ['title', 'body'], tie_breaker: 1 });
    const noTie = await search({ query: 'brown', fields: ['title', 'body'] });
    // Doc 4 has brown in both fields: a tie breaker of 1 adds the second field's score.
    expect(scoreOf(tie, '4')!).toBeGreaterThan(scoreOf(noTie, '4')!);
    const phrase = await search({ query: 'quick brown', fields: ['title', 'body'], type: 'phrase' });
    expect(ids(phrase)).toEqual(['1', '2']);
    const wildcardFields = await search({ query: 'lazy', fields: ['ti*'] });
    expect(ids(wildcardFields)).toEqual(['2']);
  });

  it('honours default_operator, phrase_slop and minimum_should_match', async () => {
    const and = await search({ query: 'quick fox', default_field: 'body', default_operator: 'AND' });
    expect(ids(and)).toEqual(['2', '4']);
    const exact = await search({ query: '"quick fox"', default_field: 'body' });
    expect(ids(exact)).toEqual(['4']);
    const sloppy = await search({ query: '"quick fox"', default_field: 'body', phrase_slop: 1 });
    expect(ids(sloppy)).toEqual(['2', '4']);
    const msm = await search({
      query: 'quick OR brown OR fox',
      default_field: 'title',
      minimum_should_match: 2,
    });
    expect(ids(msm)).toEqual(['1']);
  });

  it('builds ranges, prefixes and existence, with time_zone on dates', async () => {
    const range = await search({ query: 'n:[2 TO 4} AND tag:animal' });
    expect(ids(range)).toEqual(['2']);
    // 2024-01-02T00:30Z is still the 1st at UTC-01:00.
    const utc = await search({ query: 'at:[* TO 2024-01-01]' });
    expect(ids(utc)).toEqual(['1']);
    const shifted = await search({ query: 'at:[* TO 2024-01-01]', time_zone: '-01:00' });
    expect(ids(shifted)).toEqual(['1', '2']);
    const regexp = await search({ query: 'tag:/an.*l/ OR title:/fa[xy]/', max_determinized_states: 500 });
    expect(ids(regexp)).toEqual(['1', '2', '5']);
    const prefix = await search({ query: 'qui*', fields: ['title', 'body'] });
    expect(ids(prefix)).toEqual(['1', '2', '3', '4']);
    const boosted = await search({ query: 'tag:thing', boost: 2 });
    const plain = await search({ query: 'tag:thing' });
    expect(scoreOf(boosted, '4')).toBeCloseTo(2 * scoreOf(plain, '4')!, 5);
  });

  it('works inside bool and in _count', async () => {
    const r = await http(node.url, 'POST', '/qs/_search', {
      query: {
        bool: { filter: [{ query_string: { query: 'tag:thing' } }], must: [{ match: { title: 'fax' } }] },
      },
    });
    expect(ids(r)).toEqual(['5']);
    const count = await http(node.url, 'POST', '/qs/_count', { query: { query_string: { query: 'brown' } } });
    expect(count.status).toBe(200);
    expect(count.json.count).toBe(3);
  });
});

describe('query_string failures', () => {
  it('a text that does not parse fails as q= does, in _count too', async () => {
    const body = await http(node.url, 'POST', '/qs/_count', { query: { query_string: { query: 'a:(' } } });
    const q = await http(node.url, 'GET', '/qs/_count?q=a:(');
    expect(body.status).toBe(400);
    expect(body.json).toEqual(q.json);
    expect(body.json.error.root_cause[0].reason).toBe('Failed to parse query [a:(]');
  });

  it('a text that does not parse fails every shard, as q= does', async () => {
    const body = await search({ query: 'title:(quick' });
    const q = await http(node.url, 'GET', `/qs/_search?q=${encodeURIComponent('title:(quick')}`);
    expect(body.status).toBe(400);
    expect(body.json).toEqual(q.json);
    expect(body.json.error.type).toBe('search_phase_execution_exception');
    expect(body.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'Failed to parse query [title:(quick]',
      index: 'qs',
    });
    expect(body.json.error.failed_shards[0].reason.caused_by).toMatchObject({
      type: 'parse_exception',
      reason: expect.stringContaining("Cannot parse 'title:(quick'"),
    });
  });

  it('refuses a leading wildcard when allow_leading_wildcard is false', async () => {
    const r = await search({ query: 'title:*ox', allow_leading_wildcard: false });
    expect(r.status).toBe(400);
    expect(r.json.error.failed_shards[0].reason.caused_by.reason).toBe(
      "Cannot parse 'title:*ox': '*' or '?' not allowed as first character in WildcardQuery",
    );
    const allowed = await search({ query: 'title:*ox' });
    expect(ids(allowed)).toEqual(['1']);
  });

  it('rejects a malformed body with parsing_exception', async () => {
    const unknown = await search({ query: 'a', nope: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({
      type: 'parsing_exception',
      reason: '[query_string] query does not support [nope]',
      line: 1,
    });
    const token = await search({ query: 'a', default_field: { x: 1 } });
    expect(token.json.error.reason).toBe('[query_string] unknown token [START_OBJECT] after [default_field]');
    const missing = await search({ default_field: 'title' });
    expect(missing.json.error.reason).toBe('[query_string] must be provided with a [query]');
    const both = await search({ query: 'a', default_field: 'title', fields: ['body'] });
    expect(both.status).toBe(400);
    expect(both.json.error.root_cause[0].reason).toBe(
      'failed to create query: Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];',
    );
  });

  it('answers 501 for what Shoal cannot honour', async () => {
    for (const extra of [
      { quote_field_suffix: '.exact' },
      { analyze_wildcard: true },
      { enable_position_increments: false },
      { rewrite: 'scoring_boolean' },
    ]) {
      const r = await search({ query: 'fox', default_field: 'title', ...extra });
      expect(r.status).toBe(501);
      expect(r.json.error.type).toBe('unsupported_operation_exception');
    }
  });

  it('builds term-level pieces on every field a pattern resolves to, joined in a dis_max', async () => {
    // Every field of the index: text, keyword, numbers and dates (lenient).
    expect(ids(await search({ query: 'qui*' }))).toEqual(['1', '2', '3', '4']);
    expect(ids(await search({ query: '[2 TO 4]' }))).toEqual(['2', '3', '4']);
    // Plain text over every field reaches the numbers too.
    expect(ids(await search({ query: '3' }))).toEqual(['3']);
    expect(ids(await search({ query: 'ti\\*:bro*' }))).toEqual(['1', '4']);
    const q = await http(node.url, 'GET', '/qs/_search?q=anim*');
    expect(q.json.hits.hits.map((h: Hit) => h._id).sort()).toEqual(['1', '2']);
    // Title (boost 2) and body both match 4: the best field, plus the others times the tie breaker.
    const best = await search({ query: 'bro*', fields: ['title^2', 'body'] });
    expect([scoreOf(best, '1'), scoreOf(best, '2'), scoreOf(best, '4')]).toEqual([2, 1, 2]);
    const tie = await search({ query: 'bro*', fields: ['title^2', 'body'], tie_breaker: 0.5 });
    expect(scoreOf(tie, '4')).toBe(2.5);
    const most = await search({ query: 'bro*', fields: ['title^2', 'body'], type: 'most_fields' });
    expect(scoreOf(most, '4')).toBe(3);
  });
});
