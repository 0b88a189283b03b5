import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/qf', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        title: { type: 'text' },
        nt: { type: 'text', index: false },
        k: { type: 'keyword', index: false },
        n: { type: 'long' },
        m: { type: 'long', index: false },
      },
    },
  });
  expect(created.status).toBe(200);
  const lines = [1, 2, 3].flatMap((i) => [
    { index: { _id: String(i) } },
    { title: `quick fox ${i}`, nt: 'quick', k: `k${i}`, n: i, m: i },
  ]);
  const bulk = await http(node.url, 'POST', '/qf/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

/** The error body's parts a client reads, the first grouped shard failure among them. */
function failure(r: { status: number; json: { error: Record<string, unknown> } }) {
  const e = r.json.error as {
    type: string;
    root_cause: unknown[];
    failed_shards: { reason: unknown }[];
    caused_by?: unknown;
  };
  return {
    status: r.status,
    type: e.type,
    rootCause: e.root_cause,
    shardReason: e.failed_shards[0]!.reason,
    causedBy: e.caused_by,
  };
}

describe('a text field mapped with index: false', () => {
  const notIndexed = 'Cannot search on field [nt] since it is not indexed.';

  it.each([
    ['match', { match: { nt: 'quick' } }],
    ['term', { term: { nt: 'quick' } }],
    ['match_phrase', { match_phrase: { nt: 'quick fox' } }],
    ['prefix', { prefix: { nt: 'qu' } }],
  ])('fails a %s query with query_shard_exception caused by illegal_argument_exception', async (_, query) => {
    const r = await http(node.url, 'POST', '/qf/_search', { query });
    const f = failure(r);
    expect(f.status).toBe(400);
    expect(f.type).toBe('search_phase_execution_exception');
    expect(f.rootCause).toEqual([
      {
        type: 'query_shard_exception',
        reason: `failed to create query: ${notIndexed}`,
        index_uuid: expect.any(String),
        index: 'qf',
      },
    ]);
    expect(f.shardReason).toEqual({
      type: 'query_shard_exception',
      reason: `failed to create query: ${notIndexed}`,
      index_uuid: expect.any(String),
      index: 'qf',
      caused_by: { type: 'illegal_argument_exception', reason: notIndexed },
    });
  });

  it('matches nothing in a lenient match', async () => {
    const r = await http(node.url, 'POST', '/qf/_search', {
      query: { match: { nt: { query: 'quick', lenient: true } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(0);
  });

  it('is skipped by an all-fields query string, which is lenient', async () => {
    const r = await http(node.url, 'GET', '/qf/_search?q=quick');
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(3);
  });

  it('leaves keyword and numeric fields with index: false searchable through doc values', async () => {
    const k = await http(node.url, 'POST', '/qf/_search', { query: { term: { k: 'k2' } } });
    expect(k.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
    const m = await http(node.url, 'POST', '/qf/_search', { query: { range: { m: { gte: 2 } } } });
    expect(m.json.hits.total.value).toBe(2);
  });
});

describe('a value a numeric field cannot parse', () => {
  it('fails a term query with the number_format_exception as the shard failure cause', async () => {
    const r = await http(node.url, 'POST', '/qf/_search', { query: { term: { n: 'abc' } } });
    const f = failure(r);
    expect(f.status).toBe(400);
    const qse = {
      type: 'query_shard_exception',
      reason: 'failed to create query: For input string: "abc"',
      index_uuid: expect.any(String),
      index: 'qf',
    };
    expect(f.rootCause).toEqual([qse]);
    expect(f.shardReason).toEqual({
      ...qse,
      caused_by: { type: 'number_format_exception', reason: 'For input string: "abc"' },
    });
    // SearchPhaseExecutionException renders only a cause that is not already a shard failure's.
    expect(f.causedBy).toBeUndefined();
  });

  it('is lenient in q= over all fields, and strict once df names the default field', async () => {
    // QueryStringQueryBuilder: with index.query.default_field `*` the whole parser is lenient.
    const all = await http(node.url, 'GET', '/qf/_search?q=n:abc');
    expect(all.status).toBe(200);
    expect(all.json.hits.total.value).toBe(0);
    const strict = await http(node.url, 'GET', '/qf/_search?q=n:abc&df=title');
    expect(failure(strict).rootCause).toMatchObject([
      { type: 'query_shard_exception', reason: 'failed to create query: For input string: "abc"' },
    ]);
    const notLenient = await http(node.url, 'GET', '/qf/_search?q=n:abc&lenient=false');
    expect(notLenient.status).toBe(400);
    const lenient = await http(node.url, 'GET', '/qf/_search?q=n:abc&df=title&lenient=true');
    expect(lenient.status).toBe(200);
    expect(lenient.json.hits.total.value).toBe(0);
    const count = await http(node.url, 'GET', '/qf/_count?q=n:abc&df=title');
    expect(count.status).toBe(400);
  });
});

describe('a q= that does not parse', () => {
  it("has the query_shard_exception as its root cause, not Lucene's ParseException", async () => {
    const r = await http(node.url, 'GET', `/qf/_search?q=${encodeURIComponent('title:(quick')}`);
    const f = failure(r);
    expect(f.status).toBe(400);
    expect(f.type).toBe('search_phase_execution_exception');
    expect(f.rootCause).toEqual([
      {
        type: 'query_shard_exception',
        reason: 'Failed to parse query [title:(quick]',
        index_uuid: expect.any(String),
        index: 'qf',
      },
    ]);
    // The Lucene exception stays visible as the cause of the shard failure.
    expect(f.shardReason).toMatchObject({
      type: 'query_shard_exception',
      caused_by: { type: 'parse_exception', reason: expect.stringContaining("Cannot parse 'title:(quick'") },
    });
  });
});

describe('max_score of a size-0 search', () => {
  it.each([
    ['?size=0', '/qf/_search?size=0', undefined],
    ['size 0 with a scoring query', '/qf/_search', { size: 0, query: { match: { title: 'quick' } } }],
    ['an aggregation-only search', '/qf/_search', { size: 0, aggs: { top: { max: { field: 'n' } } } }],
    ['track_total_hits=false', '/qf/_search?track_total_hits=false', { size: 0 }],
  ])('is null for %s', async (_, path, body) => {
    const r = await http(node.url, body === undefined ? 'GET' : 'POST', path, body);
    expect(r.status).toBe(200);
    expect(r.json.hits.max_score).toBeNull();
    expect(r.json.hits.hits).toEqual([]);
  });

  it('is still the best score when hits are returned', async () => {
    const r = await http(node.url, 'GET', '/qf/_search?size=1');
    expect(r.json.hits.max_score).toBe(1);
  });
});
