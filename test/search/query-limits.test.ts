import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/ql', {
    settings: { number_of_shards: 2, 'index.max_terms_count': 3, 'index.max_regex_length': 5 },
    mappings: { properties: { tag: { type: 'keyword' } } },
  });
  expect(created.status).toBe(200);
  const lines = ['a', 'b', 'c', 'd'].flatMap((tag, i) => [{ index: { _id: String(i + 1) } }, { tag }]);
  const bulk = await http(node.url, 'POST', '/ql/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (query: unknown, path = '/ql/_search') => http(node.url, 'POST', path, { query });
const rootReason = (r: { json: { error: { root_cause: { reason: string }[] } } }) =>
  r.json.error.root_cause[0]!.reason;

const TERMS_LIMIT = (n: number, max: number) =>
  `failed to create query: The number of terms [${n}] used in the Terms Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_terms_count] index level setting.`;
const REGEX_LIMIT = (n: number, max: number) =>
  `failed to create query: The length of regex [${n}] used in the Regexp Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`;

describe('index.max_terms_count and index.max_regex_length', () => {
  it('bound terms and regexp queries by the index settings, in search and count', async () => {
    expect((await search({ terms: { tag: ['a', 'b', 'c'] } })).json.hits.total.value).toBe(3);
    const four = await search({ terms: { tag: ['a', 'b', 'c', 'd'] } });
    expect(four.status).toBe(400);
    expect(rootReason(four)).toBe(TERMS_LIMIT(4, 3));
    const count = await search({ terms: { _id: ['1', '2', '3', '4'] } }, '/ql/_count');
    expect(rootReason(count)).toBe(TERMS_LIMIT(4, 3));
    // An unmapped field is rewritten to match_none before the limit is read.
    expect((await search({ terms: { nope: ['a', 'b', 'c', 'd'] } })).status).toBe(200);

    expect((await search({ regexp: { tag: 'a|b|c' } })).json.hits.total.value).toBe(3);
    const long = await search({ regexp: { tag: 'a|b|c|d' } });
    expect(rootReason(long)).toBe(REGEX_LIMIT(7, 5));
  });

  it('follow a live settings update', async () => {
    const updated = await http(node.url, 'PUT', '/ql/_settings', {
      index: { max_terms_count: 65536, max_regex_length: 1000 },
    });
    expect(updated.status).toBe(200);
    expect((await search({ terms: { tag: ['a', 'b', 'c', 'd'] } })).json.hits.total.value).toBe(4);
    expect((await search({ regexp: { tag: 'a|b|c|d' } })).json.hits.total.value).toBe(4);
    const refused = await http(node.url, 'PUT', '/ql/_settings', { index: { max_regex_length: 0 } });
    expect(refused.status).toBe(400);
  });
});
