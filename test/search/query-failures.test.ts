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

describe('term-level queries on a field type that does not support them', () => {
  beforeAll(async () => {
    const created = await http(node.url, 'PUT', '/tl', {
      mappings: {
        properties: {
          i: { type: 'integer' },
          d: { type: 'date' },
          ip: { type: 'ip' },
          b: { type: 'boolean' },
          kw: { type: 'keyword' },
        },
      },
    });
    expect(created.status).toBe(200);
    const lines = [
      { index: { _id: '1' } },
      { i: 1, d: '2024-01-01T10:00:00Z', ip: '10.0.0.1', b: true, kw: 'Alpha' },
      { index: { _id: '2' } },
      { i: 2, d: '2024-01-02T10:00:00Z', ip: '10.0.0.2', b: false, kw: 'beta' },
    ];
    const bulk = await http(node.url, 'POST', '/tl/_bulk?refresh=true', ndjson(lines));
    expect(bulk.json.errors).toBe(false);
  });

  /** A query_shard_exception that fails every shard, as the root cause and as the shard failure. */
  async function expectShardFailure(index: string, query: unknown, reason: string) {
    const r = await http(node.url, 'POST', `/${index}/_search`, { query });
    const f = failure(r);
    expect(f.status).toBe(400);
    expect(f.type).toBe('search_phase_execution_exception');
    const qse = { type: 'query_shard_exception', reason, index_uuid: expect.any(String), index };
    expect(f.rootCause).toEqual([qse]);
    expect(f.shardReason).toEqual(qse);
  }

  it.each([
    ['prefix', 'qf', { prefix: { n: '1' } }, 'n', 'long'],
    ['wildcard', 'qf', { wildcard: { n: '1*' } }, 'n', 'long'],
    ['prefix', 'tl', { prefix: { ip: '10.' } }, 'ip', 'ip'],
    ['wildcard', 'tl', { wildcard: { d: '2024*' } }, 'd', 'date'],
    ['prefix', 'tl', { prefix: { b: { value: 't', case_insensitive: true } } }, 'b', 'boolean'],
  ])(
    'fails a %s query on [%s] naming keyword, text and wildcard fields',
    async (kind, index, query, f, t) => {
      await expectShardFailure(
        index,
        query,
        `Can only use ${kind} queries on keyword, text and wildcard fields - not on [${f}] which is of type [${t}]`,
      );
    },
  );

  it.each([
    ['i', 'integer', 1],
    ['i', 'integer', 'abc'],
    ['d', 'date', '2024-01-01'],
    ['ip', 'ip', '10.0.0.1'],
  ])('fails a case_insensitive term on [%s] (%s)', async (field, type, value) => {
    await expectShardFailure(
      'tl',
      { term: { [field]: { value, case_insensitive: true } } },
      `[${field}] field which is of type [${type}], does not support case insensitive term queries`,
    );
  });

  it('runs a case_insensitive term on keyword and boolean fields, constant-scored', async () => {
    const kw = await http(node.url, 'POST', '/tl/_search', {
      query: { term: { kw: { value: 'ALPHA', case_insensitive: true } } },
    });
    expect(kw.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1']);
    const b = await http(node.url, 'POST', '/tl/_search', {
      query: { term: { b: { value: 'false', case_insensitive: true, boost: 2 } } },
    });
    expect(b.status).toBe(200);
    expect(b.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).toEqual([
      ['2', 2],
    ]);
  });
});

describe('a range query with a time_zone java.time does not know', () => {
  it.each([
    ['a date field', 'tl', 'd', '2024-01-01'],
    ['a numeric field', 'qf', 'n', 1],
    ['an unmapped field', 'qf', 'nope', 1],
  ])('fails the request on %s before any shard runs it', async (_, index, field, gte) => {
    const r = await http(node.url, 'POST', `/${index}/_search`, {
      query: { range: { [field]: { gte, time_zone: 'Mars/Olympus' } } },
    });
    const reason = 'java.time.zone.ZoneRulesException: Unknown time-zone ID: Mars/Olympus';
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason }],
        type: 'illegal_argument_exception',
        reason,
        caused_by: { type: 'zone_rules_exception', reason: 'Unknown time-zone ID: Mars/Olympus' },
      },
      status: 400,
    });
  });

  it.each([
    ['a date field', 'tl', 'd', '2024-01-01'],
    ['a numeric field', 'qf', 'n', 1],
    ['an unmapped field', 'qf', 'nope', 1],
  ])('fails a format that does not compile on %s before any shard runs it', async (_, index, field, gte) => {
    const r = await http(node.url, 'POST', `/${index}/_search`, {
      query: { range: { [field]: { gte, format: 'nonsense_format_xx' } } },
    });
    const reason = 'Invalid format: [nonsense_format_xx]: Unknown pattern letter: o';
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason }],
        type: 'illegal_argument_exception',
        reason,
        caused_by: { type: 'illegal_argument_exception', reason: 'Unknown pattern letter: o' },
      },
      status: 400,
    });
  });

  it('applies a known time_zone to a date field and ignores it on a numeric one', async () => {
    const d = await http(node.url, 'POST', '/tl/_search', {
      query: { range: { d: { gte: '2024-01-01T12:00:00', time_zone: '+05:00' } } },
    });
    expect(d.json.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['1', '2']);
    const n = await http(node.url, 'POST', '/qf/_search', {
      query: { range: { n: { gte: 2, time_zone: 'Europe/Paris' } } },
    });
    expect(n.json.hits.total.value).toBe(2);
  });
});
