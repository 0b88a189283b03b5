import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/rx', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        title: { type: 'text' },
        tag: { type: 'keyword' },
        nt: { type: 'text', index: false },
        n: { type: 'long' },
      },
    },
  });
  expect(created.status).toBe(200);
  const docs = [
    { title: 'Quick brown fox', tag: 'Fox-1' },
    { title: 'brawny dogs', tag: 'dog-22' },
    { title: 'slow fox', tag: 'fox-3' },
    { title: 'foxes everywhere', tag: 'cat' },
    { title: 'a.b literal', tag: 'a.b' },
  ];
  const lines = docs.flatMap((doc, i) => [{ index: { _id: String(i + 1) } }, { ...doc, nt: 'x', n: i }]);
  const bulk = await http(node.url, 'POST', '/rx/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

async function search(query: unknown) {
  return http(node.url, 'POST', '/rx/_search', { query, size: 20 });
}
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id).sort();

/** The root cause and the first shard failure's reason of a failed search. */
function failure(r: { status: number; json: { error: Record<string, unknown> } }) {
  const e = r.json.error as { type: string; root_cause: unknown[]; failed_shards: { reason: unknown }[] };
  return {
    status: r.status,
    type: e.type,
    rootCause: e.root_cause[0],
    shardReason: e.failed_shards[0]!.reason,
  };
}

describe('the regexp query', () => {
  it('short and long forms match whole indexed terms', async () => {
    const short = await search({ regexp: { title: 'fox.*' } });
    expect(short.status).toBe(200);
    expect(ids(short)).toEqual(['1', '3', '4']);
    const long = await search({ regexp: { tag: { value: 'fox-\\d+', case_insensitive: true, _name: 'r' } } });
    expect(ids(long)).toEqual(['1', '3']);
    // Terms, not text: `Quick` was lowercased at index time and the pattern is not analysed.
    expect(ids(await search({ regexp: { title: 'Quick' } }))).toEqual([]);
    expect(ids(await search({ regexp: { tag: '"a.b"' } }))).toEqual(['5']);
    expect(ids(await search({ regexp: { tag: 'a\\.b' } }))).toEqual(['5']);
  });

  it('scores every hit with the boost', async () => {
    const r = await search({ regexp: { title: { value: 'br.wny?', boost: 2.5 } } });
    expect(r.json.hits.hits.map((h: { _score: number }) => h._score)).toEqual([2.5, 2.5]);
  });

  it('flags choose the optional operators', async () => {
    expect(ids(await search({ regexp: { tag: { value: '[a-z]+-<1-30>', flags: 'INTERVAL' } } }))).toEqual([
      '2',
      '3',
    ]);
    expect(ids(await search({ regexp: { tag: { value: '~(fox.*)&[a-z]+-.*', flags: 'ALL' } } }))).toEqual([
      '2',
    ]);
    // Without COMPLEMENT, `~` is a plain character.
    expect(ids(await search({ regexp: { tag: { value: '~(fox.*)', flags: 'INTERSECTION' } } }))).toEqual([]);
    expect(ids(await search({ regexp: { tag: { value: 'c@', flags_value: 8 } } }))).toEqual(['4']);
  });

  it('an unknown flag is an illegal_argument_exception', async () => {
    const r = await search({ regexp: { tag: { value: 'a', flags: 'EMPTY|NOPE' } } });
    expect(r.status).toBe(400);
    expect(r.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Unknown regexp flag [NOPE]',
    });
  });

  it('a syntax error fails every shard with Lucene text', async () => {
    const f = failure(await search({ regexp: { title: 'fox(a' } }));
    expect(f.status).toBe(400);
    expect(f.type).toBe('search_phase_execution_exception');
    expect(f.shardReason).toEqual({
      type: 'query_shard_exception',
      reason: "failed to create query: expected ')' at position 5",
      index_uuid: expect.any(String),
      index: 'rx',
      caused_by: { type: 'illegal_argument_exception', reason: "expected ')' at position 5" },
    });
  });

  it('refuses a field that is not text or keyword', async () => {
    const f = failure(await search({ regexp: { n: '1' } }));
    expect(f.status).toBe(400);
    expect(f.rootCause).toEqual({
      type: 'query_shard_exception',
      reason: 'Can only use regexp queries on keyword and text fields - not on [n] which is of type [long]',
      index_uuid: expect.any(String),
      index: 'rx',
    });
  });

  it('refuses a text field that is not indexed', async () => {
    const f = failure(await search({ regexp: { nt: 'x' } }));
    expect(f.rootCause).toMatchObject({
      type: 'query_shard_exception',
      reason: 'failed to create query: Cannot search on field [nt] since it is not indexed.',
    });
  });

  it('refuses a pattern longer than index.max_regex_length', async () => {
    const f = failure(await search({ regexp: { title: 'a'.repeat(1001) } }));
    expect(f.status).toBe(400);
    expect(f.rootCause).toMatchObject({
      type: 'query_shard_exception',
      reason:
        'failed to create query: The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    });
  });
});
