import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/dm', {
    mappings: { properties: { a: { type: 'keyword' }, b: { type: 'keyword' } } },
  });
  const docs = [
    { a: 'x', b: 'x' },
    { a: 'x', b: 'y' },
    { a: 'y', b: 'x' },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', '/dm/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown) => http(node.url, 'POST', '/dm/_search', { query });
const scores = (r: { json: { hits: { hits: { _id: string; _score: number }[] } } }) =>
  Object.fromEntries(r.json.hits.hits.map((h) => [h._id, h._score]));
const a = { constant_score: { filter: { term: { a: 'x' } }, boost: 2 } };
const b = { constant_score: { filter: { term: { b: 'x' } }, boost: 1 } };

describe('dis_max', () => {
  it('scores the best clause, plus the others times the tie breaker', async () => {
    expect(scores(await search({ dis_max: { queries: [a, b] } }))).toEqual({ 1: 2, 2: 2, 3: 1 });
    expect(scores(await search({ dis_max: { queries: [a, b], tie_breaker: 0.5, boost: 2 } }))).toEqual({
      1: 5,
      2: 4,
      3: 2,
    });
    // One object is one clause.
    expect(scores(await search({ dis_max: { queries: b } }))).toEqual({ 1: 1, 3: 1 });
    expect((await search({ dis_max: { queries: [] } })).json.hits.total.value).toBe(0);
  });

  it('refuses what DisMaxQueryBuilder refuses', async () => {
    const none = await search({ dis_max: { tie_breaker: 0.5 } });
    expect(none.status).toBe(400);
    expect(none.json.error.root_cause[0]).toMatchObject({
      type: 'parsing_exception',
      reason: "[dis_max] requires 'queries' field with at least one clause",
    });
    const unknown = await search({ dis_max: { queries: [a], tie: 1 } });
    expect(unknown.json.error.root_cause[0].reason).toBe('[dis_max] query does not support [tie]');
    const range = await search({ dis_max: { queries: [a, b], tie_breaker: 2 } });
    expect(range.status).toBe(400);
    expect(range.json.error.root_cause[0].reason).toBe(
      'failed to create query: tieBreakerMultiplier must be in [0, 1]',
    );
  });
});
