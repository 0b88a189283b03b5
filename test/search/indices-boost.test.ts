import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  for (const [index, ids] of [
    ['ia', ['a1', 'a2']],
    ['ib', ['b1']],
  ] as const) {
    const created = await http(node.url, 'PUT', `/${index}`, { settings: { number_of_shards: 1 } });
    expect(created.status).toBe(200);
    const lines = ids.flatMap((id) => [{ index: { _id: id } }, { tag: 'x' }]);
    const bulk = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(lines));
    expect(bulk.json.errors).toBe(false);
  }
  const alias = await http(node.url, 'POST', '/_aliases', {
    actions: [{ add: { index: 'ib', alias: 'al' } }],
  });
  expect(alias.status).toBe(200);
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown, path = '/ia,ib/_search') => http(node.url, 'POST', path, body);
type Res = { json: { hits: { hits: { _id: string; _index: string; _score: number | null }[] } } };
const hits = (r: Res) => r.json.hits.hits.map((h) => [h._id, h._score]);

describe('indices_boost', () => {
  it('multiplies the scores of each listed index', async () => {
    const r = await search({ indices_boost: [{ ib: 2.5 }, { ia: 1.5 }] });
    expect(r.status).toBe(200);
    expect(hits(r)).toEqual([
      ['b1', 2.5],
      ['a1', 1.5],
      ['a2', 1.5],
    ]);
    expect(r.json.hits.max_score).toBe(2.5);
  });

  it('folds into the query boosts, and keeps the first entry that reaches an index', async () => {
    const query = { constant_score: { filter: { term: { 'tag.keyword': 'x' } }, boost: 3 } };
    const r = await search({ query, indices_boost: [{ 'i*': 0.5 }, { ib: 4 }] });
    expect(hits(r)).toEqual([
      ['a1', 1.5],
      ['a2', 1.5],
      ['b1', 1.5],
    ]);
    const byAlias = await search({ query, indices_boost: [{ al: 4 }, { 'i*': 0.5 }] });
    expect(hits(byAlias)).toEqual([
      ['b1', 12],
      ['a1', 1.5],
      ['a2', 1.5],
    ]);
  });

  it('applies to indices a wildcard did not reach, and a boost of 0 zeroes the scores', async () => {
    const r = await search({ indices_boost: [{ 'nope*': 5 }, { ia: 0 }] });
    expect(hits(r)).toEqual([
      ['b1', 1],
      ['a1', 0],
      ['a2', 0],
    ]);
  });

  it('fails on an index name that does not exist, unless ignore_unavailable', async () => {
    const r = await search({ indices_boost: [{ nope: 5 }] });
    expect(r.status).toBe(404);
    expect(r.json.error.type).toBe('index_not_found_exception');
    expect(r.json.error.reason).toBe('no such index [nope]');
    const ok = await search(
      { indices_boost: [{ nope: 5 }, { ib: 2 }] },
      '/ia,ib/_search?ignore_unavailable=true',
    );
    expect(ok.status).toBe(200);
    expect(hits(ok)[0]).toEqual(['b1', 2]);
  });

  it('fails the shards of an index with a negative boost (Lucene BoostQuery)', async () => {
    const r = await search({ indices_boost: [{ ia: -1 }] });
    expect(r.status).toBe(200);
    expect(r.json._shards).toMatchObject({ total: 2, successful: 1, failed: 1 });
    expect(r.json._shards.failures[0].reason).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'boost must be a positive float, got -1.0',
    });
    expect(hits(r)).toEqual([['b1', 1]]);
  });

  it('refuses malformed entries as SearchSourceBuilder.IndexBoost does', async () => {
    const cases: [unknown, string][] = [
      [[{ ia: 'abc' }], 'Expected [VALUE_NUMBER] in [indices_boost] but found [VALUE_STRING]'],
      [[{ ia: { x: 1 } }], 'Expected [VALUE_NUMBER] in [indices_boost] but found [START_OBJECT]'],
      [[{ ia: 2, ib: 3 }], 'Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]'],
      [[{}], 'Expected [FIELD_NAME] in [indices_boost] but found [END_OBJECT]'],
      [['ia'], 'Expected [START_OBJECT] in [null] but found [VALUE_STRING]'],
      [{ ia: { x: 1 } }, 'Unknown key for a START_OBJECT in [ia].'],
      [{ ia: [2] }, 'Unknown key for a START_ARRAY in [ia].'],
      [{ ia: null }, 'Unknown key for a VALUE_NULL in [ia].'],
    ];
    for (const [boosts, reason] of cases) {
      const r = await search({ indices_boost: boosts });
      expect(r.status).toBe(400);
      expect(r.json.error.type).toBe('parsing_exception');
      expect(r.json.error.reason).toBe(reason);
    }
  });

  it('accepts the 7.x object form, in its key order, with its deprecation warning', async () => {
    const r = await search({ indices_boost: { ib: 2.5, ia: '1.5' } });
    expect(r.status).toBe(200);
    expect(hits(r)).toEqual([
      ['b1', 2.5],
      ['a1', 1.5],
      ['a2', 1.5],
    ]);
    expect(String(r.headers.warning)).toMatch(
      /^299 shoal-\S+ "Object format in indices_boost is deprecated, please use array format instead"/,
    );
    const plain = await search({ indices_boost: [{ ib: 2.5 }] });
    expect(plain.headers.warning).toBeUndefined();
  });
});
