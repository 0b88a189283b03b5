import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const docs = Array.from({ length: 40 }, (_, i) => ({
  id: String(i),
  name: `item ${i % 7 === 0 ? 'special' : 'plain'} ${i}`,
  tag: ['red', 'green', 'blue'][i % 3],
  n: i % 5 === 0 ? undefined : (i * 37) % 11,
  when: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
}));

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/items', {
    settings: { number_of_shards: 3, max_result_window: 30 },
    mappings: {
      properties: {
        name: { type: 'text', fields: { keyword: { type: 'keyword' } } },
        tag: { type: 'keyword' },
        n: { type: 'long' },
        when: { type: 'date' },
      },
    },
  });
  const lines = docs.flatMap(({ id, ...src }) => [{ index: { _id: id } }, src]);
  const r = await http(node.url, 'POST', '/items/_bulk?refresh=true', ndjson(lines));
  expect(r.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id);

describe('from/size and sort', () => {
  it('counts and pages every document exactly once across shards', async () => {
    // The window (index.max_result_window: 30) bounds from + size; pages within it are disjoint.
    const seen: string[] = [];
    for (let from = 0; from + 6 <= 30; from += 6) {
      const r = await http(node.url, 'POST', '/items/_search', { from, size: 6, sort: [{ when: 'desc' }] });
      expect(r.json._shards).toEqual({ total: 3, successful: 3, skipped: 0, failed: 0 });
      expect(r.json.hits.total).toEqual({ value: 40, relation: 'eq' });
      seen.push(...ids(r));
    }
    const byWhenDesc = [...docs].sort((a, b) => b.when.localeCompare(a.when)).map((d) => d.id);
    expect(seen).toEqual(byWhenDesc.slice(0, 30));
    const docOrder = await http(node.url, 'POST', '/items/_search', { size: 30, sort: ['_doc'] });
    expect(new Set(ids(docOrder)).size).toBe(30);
  });

  it('sorts by a long with missing values last in both directions, with sort values', async () => {
    const asc = await http(node.url, 'POST', '/items/_search', {
      size: 30,
      sort: [{ n: 'asc' }, { when: 'asc' }],
    });
    const expected = [...docs].sort(
      (a, b) =>
        (a.n ?? Number.POSITIVE_INFINITY) - (b.n ?? Number.POSITIVE_INFINITY) || a.when.localeCompare(b.when),
    );
    expect(ids(asc)).toEqual(expected.slice(0, 30).map((d) => d.id));
    expect(asc.json.hits.max_score).toBeNull();
    expect(asc.json.hits.hits[0]._score).toBeNull();
    expect(asc.json.hits.hits[0].sort).toEqual([0, Date.parse(expected[0]!.when)]);
    const desc = await http(node.url, 'POST', '/items/_search', {
      query: { bool: { must_not: { term: { tag: 'red' } } } },
      size: 30,
      sort: [{ n: { order: 'desc' } }, 'when'],
    });
    expect(desc.json.hits.total.value).toBe(26);
    // Long.MIN_VALUE stands in for a missing value sorted desc; it is written as an exact literal.
    expect(desc.text).toContain('"sort":[-9223372036854775808,');
    expect(desc.json.hits.hits.at(-1)._id).toBe('35');
  });

  it('sorts by keyword, by _score, and through URL parameters', async () => {
    const kw = await http(node.url, 'GET', '/items/_search?sort=tag:desc,when:asc&size=3');
    expect(kw.json.hits.hits.map((h: { sort: unknown[] }) => h.sort[0])).toEqual(['red', 'red', 'red']);
    const scored = await http(node.url, 'POST', '/items/_search', { query: { match: { name: 'special' } } });
    expect(scored.json.hits.total.value).toBe(6);
    expect(scored.json.hits.max_score).toBeGreaterThan(0);
    expect(scored.json.hits.hits[0].sort).toBeUndefined();
    const q = await http(node.url, 'GET', '/items/_search?q=tag:green&size=0');
    expect(q.json.hits.total.value).toBe(13);
  });

  it('formats date sort values with format', async () => {
    const r = await http(node.url, 'POST', '/items/_search', {
      size: 1,
      sort: [{ when: { order: 'asc', format: 'strict_date_optional_time_nanos' } }],
    });
    expect(r.json.hits.hits[0].sort).toEqual(['2024-01-01T00:00:00.000Z']);
  });

  it('tracks total hits as asked', async () => {
    const capped = await http(node.url, 'POST', '/items/_search', { track_total_hits: 10, size: 0 });
    expect(capped.json.hits.total).toEqual({ value: 10, relation: 'gte' });
    const off = await http(node.url, 'POST', '/items/_search', { track_total_hits: false, size: 1 });
    expect(off.json.hits.total).toBeUndefined();
  });

  it('answers Elasticsearch errors for bad requests', async () => {
    const window = await http(node.url, 'POST', '/items/_search', { from: 25, size: 10 });
    expect(window.status).toBe(400);
    expect(window.json.error.type).toBe('search_phase_execution_exception');
    expect(window.json.error.root_cause[0].reason).toBe(
      'Result window is too large, from + size must be less than or equal to: [30] but was [35]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.',
    );
    const text = await http(node.url, 'POST', '/items/_search', { sort: ['name'] });
    expect(text.status).toBe(400);
    expect(text.json.error.root_cause[0].reason).toContain('Fielddata is disabled on [name] in [items].');
    const unmapped = await http(node.url, 'POST', '/items/_search', { sort: ['nope'] });
    expect(unmapped.status).toBe(400);
    expect(unmapped.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'No mapping found for [nope] in order to sort on',
    });
    const unknownQuery = await http(node.url, 'POST', '/items/_search', { query: { nope: {} } });
    expect(unknownQuery.status).toBe(400);
    expect(unknownQuery.json.error.type).toBe('parsing_exception');
    const negative = await http(node.url, 'POST', '/items/_search', { from: -1 });
    expect(negative.status).toBe(400);
    const missing = await http(node.url, 'GET', '/nope/_search');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    const lenient = await http(node.url, 'GET', '/nope,items/_search?ignore_unavailable=true&size=0');
    expect(lenient.json.hits.total.value).toBe(40);
  });

  it('filters _source', async () => {
    const r = await http(node.url, 'POST', '/items/_search', {
      size: 1,
      sort: ['when'],
      _source: { includes: ['tag', 'n'] },
    });
    expect(r.json.hits.hits[0]._source).toEqual({ tag: 'red' });
    const off = await http(node.url, 'POST', '/items/_search', { size: 1, _source: false });
    expect(off.json.hits.hits[0]._source).toBeUndefined();
  });
});
