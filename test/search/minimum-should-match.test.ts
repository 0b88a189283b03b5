import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/msm', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } },
  });
  expect(created.status).toBe(200);
  const lines = [
    ['1', 'quick brown fox', 'a'],
    ['2', 'quick dog', 'b'],
    ['3', 'lazy fox', 'a'],
  ].flatMap(([id, title, tag]) => [{ index: { _id: id } }, { title, tag }]);
  const bulk = await http(node.url, 'POST', '/msm/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown) => http(node.url, 'POST', '/msm/_search', { query });
const hitIds = (r: { json: { hits: { hits: { _id: string }[] } } }) =>
  r.json.hits.hits.map((h) => h._id).sort();

describe('a minimum_should_match that Integer.parseInt cannot read', () => {
  it.each([
    ['bool', { bool: { must: [{ match_all: {} }], minimum_should_match: 'abc' } }, 'abc'],
    [
      'bool with a space before %',
      { bool: { should: [{ term: { tag: 'a' } }], minimum_should_match: '75 %' } },
      '75 ',
    ],
    [
      'match of several terms',
      { match: { title: { query: 'quick fox', minimum_should_match: 'abc' } } },
      'abc',
    ],
    [
      'multi_match cross_fields',
      {
        multi_match: {
          query: 'quick fox',
          fields: ['title'],
          type: 'cross_fields',
          minimum_should_match: 'x',
        },
      },
      'x',
    ],
    [
      'simple_query_string',
      { simple_query_string: { query: 'quick fox', fields: ['title'], minimum_should_match: 'abc' } },
      'abc',
    ],
  ])(
    'fails a %s on every shard with query_shard_exception caused by number_format_exception',
    async (_, query, input) => {
      const r = await search(query);
      expect(r.status).toBe(400);
      const e = r.json.error;
      expect(e.type).toBe('search_phase_execution_exception');
      expect(e.phase).toBe('query');
      const qse = {
        type: 'query_shard_exception',
        reason: `failed to create query: For input string: "${input}"`,
        index_uuid: expect.any(String),
        index: 'msm',
      };
      expect(e.root_cause).toEqual([qse]);
      expect(e.failed_shards[0].reason).toEqual({
        ...qse,
        caused_by: { type: 'number_format_exception', reason: `For input string: "${input}"` },
      });
      expect(e.caused_by).toBeUndefined();
    },
  );

  it('fails a condition without a value past its bound as Java indexes past the array', async () => {
    const should = [{ term: { tag: 'a' } }, { match: { title: 'quick' } }, { match: { title: 'fox' } }];
    const r = await search({ bool: { should, minimum_should_match: '2<' } });
    expect(r.status).toBe(400);
    expect(r.json.error.failed_shards[0].reason).toEqual({
      type: 'query_shard_exception',
      reason: 'failed to create query: Index 1 out of bounds for length 1',
      index_uuid: expect.any(String),
      index: 'msm',
      caused_by: {
        type: 'array_index_out_of_bounds_exception',
        reason: 'Index 1 out of bounds for length 1',
      },
    });
    // Within the bound the condition is never read.
    const within = await search({ bool: { should: should.slice(0, 2), minimum_should_match: '2<' } });
    expect(hitIds(within)).toEqual(['1']);
  });

  it('is not read by a match of one term', async () => {
    const r = await search({ match: { title: { query: 'quick', minimum_should_match: 'abc' } } });
    expect(r.status).toBe(200);
    expect(hitIds(r)).toEqual(['1', '2']);
  });

  it('accepts a sign and any spaces around <', async () => {
    const r = await search({
      bool: {
        should: [{ term: { tag: 'a' } }, { match: { title: 'quick' } }, { match: { title: 'fox' } }],
        minimum_should_match: '1 <  +2',
      },
    });
    expect(r.status).toBe(200);
    expect(hitIds(r)).toEqual(['1', '3']);
  });
});

describe('a minimum_should_match above the number of should clauses', () => {
  it('makes a bool with must clauses only match nothing', async () => {
    const r = await search({ bool: { must: [{ term: { tag: 'a' } }], minimum_should_match: 1 } });
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(0);
  });

  it('makes a match with operator and and an integer spec match nothing', async () => {
    const and = (msm: string) =>
      search({ match: { title: { query: 'quick fox', operator: 'and', minimum_should_match: msm } } });
    expect((await and('1')).json.hits.total.value).toBe(0);
    expect(hitIds(await and('100%'))).toEqual(['1']);
  });

  it('is counted the same way by _count', async () => {
    const r = await http(node.url, 'POST', '/msm/_count', {
      query: { bool: { filter: [{ term: { tag: 'a' } }], minimum_should_match: '1' } },
    });
    expect(r.json.count).toBe(0);
  });
});
