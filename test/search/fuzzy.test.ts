import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/fz', {
    settings: { number_of_shards: 1 },
    mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } },
  });
  expect(created.status).toBe(200);
  const docs = ['brown fox', 'brawn', 'brown dog', 'crown jewels', 'quick brown', 'borwn'];
  const lines = docs.flatMap((title, i) => [
    { index: { _id: String(i + 1) } },
    { title, tag: title.split(' ')[0], n: i },
  ]);
  const bulk = await http(node.url, 'POST', '/fz/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

async function search(query: unknown) {
  return http(node.url, 'POST', '/fz/_search', { query, size: 20 });
}
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id).sort();

describe('fuzzy matching', () => {
  it('the fuzzy query, in its short and long forms', async () => {
    const short = await search({ fuzzy: { title: 'brwn' } });
    expect(short.status).toBe(200);
    expect(ids(short)).toEqual(['1', '2', '3', '5', '6']);
    const long = await search({
      fuzzy: { title: { value: 'brown', fuzziness: 1, prefix_length: 3, transpositions: false, _name: 'f' } },
    });
    expect(ids(long)).toEqual(['1', '3', '5']);
    const constant = await search({
      fuzzy: { title: { value: 'brwn', rewrite: 'constant_score', boost: 2 } },
    });
    expect(constant.json.hits.hits.map((h: { _score: number }) => h._score)).toEqual([2, 2, 2, 2, 2]);
  });

  it('match and multi_match with fuzziness', async () => {
    const match = await search({
      match: { title: { query: 'Brwn fix', fuzziness: 'AUTO', operator: 'and' } },
    });
    expect(ids(match)).toEqual(['1']);
    const capped = await search({ match: { title: { query: 'brown', fuzziness: 1, max_expansions: 1 } } });
    expect(ids(capped)).toEqual(['1', '3', '5']);
    const multi = await search({
      multi_match: { query: 'crwn', fields: ['title', 'tag'], fuzziness: 'AUTO' },
    });
    expect(ids(multi)).toEqual(['4']);
    const most = await search({
      multi_match: { query: 'brwn', fields: ['title', 'tag'], fuzziness: 'AUTO', type: 'most_fields' },
    });
    expect(ids(most)).toEqual(['1', '2', '3', '5', '6']);
    // Both fields match in 1, only the title in 5.
    const scoreOf = (id: string) => most.json.hits.hits.find((h: { _id: string }) => h._id === id)._score;
    expect(scoreOf('1')).toBeGreaterThan(scoreOf('5'));
    const sqs = await search({
      simple_query_string: { query: 'brown~1', fields: ['title'], fuzzy_prefix_length: 2 },
    });
    expect(ids(sqs)).toEqual(['1', '2', '3', '5']);
  });

  it('fails a fuzzy query on a long field as Elasticsearch does, unless lenient', async () => {
    const reason =
      'Can only use fuzzy queries on keyword and text fields - not on [n] which is of type [long]';
    const r = await search({ match: { n: { query: 2, fuzziness: 1 } } });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    expect(r.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: `failed to create query: ${reason}`,
      index: 'fz',
    });
    expect(r.json.error.failed_shards[0].reason.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason,
    });
    const lenient = await search({ match: { n: { query: 2, fuzziness: 1, lenient: true } } });
    expect(lenient.status).toBe(200);
    expect(lenient.json.hits.total.value).toBe(0);
  });

  it('refuses an unknown rewrite method and bad query bodies', async () => {
    const rewrite = await search({
      match: { title: { query: 'brwn', fuzziness: 1, fuzzy_rewrite: 'sometimes' } },
    });
    expect(rewrite.status).toBe(400);
    expect(rewrite.json.error.root_cause[0].reason).toBe(
      'failed to create query: Failed to parse rewrite_method [sometimes]',
    );
    const unknown = await search({ fuzzy: { title: { value: 'x', fuzzy: 1 } } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.root_cause[0]).toMatchObject({
      type: 'parsing_exception',
      reason: '[fuzzy] query does not support [fuzzy]',
    });
    const twoFields = await search({ fuzzy: { title: 'x', tag: 'y' } });
    expect(twoFields.json.error.root_cause[0].reason).toBe(
      "[fuzzy] query doesn't support multiple fields, found [title] and [tag]",
    );
    const noValue = await search({ fuzzy: { title: { fuzziness: 1 } } });
    expect(noValue.status).toBe(400);
    expect(noValue.json.error.root_cause[0].reason).toBe('query value cannot be null');
  });
});
