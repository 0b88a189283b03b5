import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/pq', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } },
  });
  expect(created.status).toBe(200);
  const titles = ['quick brown fox', 'quick brawny dog', 'quiet brown cat', 'brown quick fox jumps'];
  const lines = titles.flatMap((title, i) => [
    { index: { _id: String(i + 1), routing: 'r' } },
    { title, tag: title.split(' ')[0] },
  ]);
  const bulk = await http(node.url, 'POST', '/pq/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown) => http(node.url, 'POST', '/pq/_search', { query });
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id).sort();

describe('search-as-you-type queries', () => {
  it('match_phrase_prefix, short and long forms', async () => {
    expect(ids(await search({ match_phrase_prefix: { title: 'quick br' } }))).toEqual(['1', '2']);
    const capped = await search({ match_phrase_prefix: { title: { query: 'quick br', max_expansions: 1 } } });
    expect(ids(capped)).toEqual(['2']);
    const slop = await search({ match_phrase_prefix: { title: { query: 'brown qu', slop: 2, _name: 'p' } } });
    expect(ids(slop)).toEqual(['1', '3', '4']);
  });

  it('match_bool_prefix with operator, minimum_should_match and fuzziness', async () => {
    expect(ids(await search({ match_bool_prefix: { title: 'quick br' } }))).toEqual(['1', '2', '3', '4']);
    const and = await search({ match_bool_prefix: { title: { query: 'quick br', operator: 'and' } } });
    expect(ids(and)).toEqual(['1', '2', '4']);
    const fuzzy = await search({
      match_bool_prefix: { title: { query: 'quikc bra', operator: 'and', fuzziness: 'AUTO' } },
    });
    expect(ids(fuzzy)).toEqual(['2']);
    const keyword = await search({ match_bool_prefix: { tag: { query: 'qui', boost: 3 } } });
    expect(
      keyword.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]).sort(),
    ).toEqual([
      ['1', 3],
      ['2', 3],
      ['3', 3],
    ]);
  });

  it('refuses what Elasticsearch refuses', async () => {
    const lenient = await search({ match_bool_prefix: { title: { query: 'x', lenient: true } } });
    expect(lenient.status).toBe(400);
    expect(lenient.json.error.root_cause[0]).toMatchObject({
      type: 'parsing_exception',
      reason: '[match_bool_prefix] query does not support [lenient]',
    });
    const fuzzy = await search({ match_phrase_prefix: { title: { query: 'x', fuzziness: 1 } } });
    expect(fuzzy.json.error.root_cause[0].reason).toBe(
      '[match_phrase_prefix] query does not support [fuzziness]',
    );
    const negative = await search({ match_phrase_prefix: { title: { query: 'x', max_expansions: -1 } } });
    expect(negative.status).toBe(400);
    expect(negative.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'No negative maxExpansions allowed.',
    });
    const noQuery = await search({ match_bool_prefix: { title: { operator: 'and' } } });
    expect(noQuery.json.error.root_cause[0].reason).toBe('[match_bool_prefix] requires query value');
  });
});
