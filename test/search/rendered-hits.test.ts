/**
 * A search's hits are written by one of two renderers: straight to JSON text (hits-json.ts)
 * when nothing reads the response as objects, or as objects through stringifyJson when
 * something does (`filter_path`). Both must write the same hits: every field, number format
 * and order, over several shards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/mixed', {
    settings: { number_of_shards: 3 },
    mappings: {
      properties: {
        name: { type: 'text', fields: { raw: { type: 'keyword' } } },
        n: { type: 'long' },
        f: { type: 'float' },
        d: { type: 'double' },
        at: { type: 'date', format: 'strict_date_optional_time||epoch_millis' },
        tag: { type: 'keyword' },
      },
    },
  });
  expect(created.status).toBe(200);
  const lines: unknown[] = [];
  for (let i = 0; i < 60; i++) {
    const doc: Record<string, unknown> = {
      name: `doc ${i} ${i % 3 === 0 ? 'ünïcödé' : 'plain'} text`,
      f: i / 7,
      d: i / 2,
      at: new Date(Date.UTC(2024, 0, 1 + (i % 20))).toISOString(),
      tag: ['a', 'b', 'c'][i % 3],
    };
    if (i % 4 !== 0) doc.n = (i % 9) * 2 ** 40 + 1;
    lines.push(
      {
        index: {
          _index: 'mixed',
          _id: i % 5 === 0 ? `é-${i}` : String(i),
          ...(i % 6 === 0 ? { routing: `r${i % 4}` } : {}),
        },
      },
      doc,
    );
  }
  const bulk = await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(bulk.json.errors).toBe(false);
  // A second index: one page merges hits written under two index names.
  const other = await http(
    node.url,
    'POST',
    '/mixed-2/_bulk?refresh=true',
    ndjson([
      { index: { _id: 'o1' } },
      { name: 'other plain text', d: 1.5, tag: 'a' },
      { index: { _id: 'o2' } },
      { name: 'other doc', d: 40, tag: 'b' },
    ]),
    { 'content-type': 'application/x-ndjson' },
  );
  expect(other.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const bodies: Record<string, unknown>[] = [
  { query: { match: { name: 'doc plain' } }, size: 7 },
  { query: { match_all: {} }, size: 10, version: true, seq_no_primary_term: true },
  { sort: [{ n: { order: 'desc', missing: '_first' } }, { f: 'asc' }], size: 12 },
  { sort: [{ at: { order: 'asc', format: 'yyyy-MM-dd' } }, '_doc'], size: 9, _source: ['tag', 'n'] },
  { sort: ['_score', { 'name.raw': 'desc' }], query: { term: { tag: 'a' } }, size: 5, track_scores: true },
  { query: { match: { name: 'ünïcödé' } }, size: 20, _source: { excludes: ['name'] } },
  { sort: [{ tag: 'asc' }], size: 3, _source: false },
  { query: { match_all: {} }, stored_fields: '_none_', size: 5 },
  { query: { match: { name: 'plain' } }, fields: ['tag', { field: 'at', format: 'yyyy' }], size: 6 },
  { query: { match: { name: 'plain' } }, highlight: { fields: { name: {} } }, size: 4 },
  { docvalue_fields: ['f'], sort: [{ d: 'asc' }], size: 4, version: true },
  // Past the first page, or larger than a page fetched with the query: the coordinator renders.
  { query: { match_all: {} }, from: 3, size: 5 },
  { sort: [{ d: 'desc' }], size: 55 },
];

describe('the two hit renderers', () => {
  it('write the same bytes', async () => {
    for (const body of bodies) {
      const rendered = await http(node.url, 'POST', '/mixed/_search', body);
      const objects = await http(node.url, 'POST', '/mixed/_search?filter_path=hits,_shards,timed_out', body);
      expect(rendered.status, JSON.stringify(body)).toBe(200);
      expect(objects.status).toBe(200);
      expect(rendered.json.hits.hits.length).toBeGreaterThan(0);
      // The same text, not only the same values: byte-level number and string formats.
      expect(JSON.stringify(JSON.parse(rendered.text).hits), JSON.stringify(body)).toBe(
        JSON.stringify(JSON.parse(objects.text).hits),
      );
      const hitsText = (text: string) => text.slice(text.indexOf('"hits":['));
      expect(hitsText(rendered.text)).toBe(hitsText(objects.text));
    }
  });

  it('write the same bytes for a page merged from two indices', async () => {
    const body = { query: { match: { name: 'plain other' } }, sort: [{ d: 'desc' }], size: 8 };
    const rendered = await http(node.url, 'POST', '/mixed,mixed-2/_search', body);
    const objects = await http(node.url, 'POST', '/mixed,mixed-2/_search?filter_path=hits', body);
    expect(rendered.status).toBe(200);
    const indices = (rendered.json.hits.hits as { _index: string }[]).map((h) => h._index);
    expect(indices).toContain('mixed-2');
    expect(indices).toContain('mixed');
    expect(JSON.stringify(JSON.parse(rendered.text).hits)).toBe(
      JSON.stringify(JSON.parse(objects.text).hits),
    );
  });
});

describe('a first page rendered by the shards', () => {
  it('has the same whole body as the object form, whatever the totals and terminate_after', async () => {
    const variants: [string, Record<string, unknown>][] = [
      ['', { query: { match: { name: 'plain' } }, size: 4 }],
      ['', { sort: [{ d: 'desc' }], size: 3 }],
      ['', { query: { match_all: {} }, size: 2, track_total_hits: false }],
      ['', { query: { match_all: {} }, size: 2, track_total_hits: 5 }],
      ['?rest_total_hits_as_int=true', { query: { match_all: {} }, size: 2 }],
      ['?rest_total_hits_as_int=true', { query: { match_all: {} }, size: 2, track_total_hits: false }],
      ['', { query: { match_all: {} }, size: 2, terminate_after: 1 }],
      ['', { query: { term: { tag: 'zzz' } }, size: 5 }],
      ['', { query: { match_all: {} }, size: 2, aggs: { tags: { terms: { field: 'tag' } } } }],
    ];
    for (const [query, body] of variants) {
      const rendered = await http(node.url, 'POST', `/mixed/_search${query}`, body);
      const sep = query === '' ? '?' : '&';
      const objects = await http(
        node.url,
        'POST',
        `/mixed/_search${query}${sep}filter_path=timed_out,terminated_early,_shards,hits,aggregations`,
        body,
      );
      expect(rendered.status, JSON.stringify(body)).toBe(200);
      const { took, ...rest } = JSON.parse(rendered.text) as Record<string, unknown>;
      expect(typeof took).toBe('number');
      expect(JSON.stringify(rest), `${query} ${JSON.stringify(body)}`).toBe(
        JSON.stringify(JSON.parse(objects.text)),
      );
      // Byte for byte after `took`: number formats (`max_score`) and key order included.
      const afterTook = (text: string) => text.slice(text.indexOf('"timed_out"'));
      expect(afterTook(rendered.text)).toBe(afterTook(objects.text));
    }
  });
});

describe('scores', () => {
  it('are written as Java floats, as Elasticsearch writes them, by both renderers and under pretty', async () => {
    const body = { query: { constant_score: { filter: { term: { tag: 'a' } }, boost: 3 } }, size: 2 };
    for (const query of ['', '?filter_path=hits.max_score,hits.hits._score']) {
      const r = await http(node.url, 'POST', `/mixed/_search${query}`, body);
      expect(r.text).toContain('"max_score":3.0');
      expect(r.text).toContain('"_score":3.0');
    }
    const pretty = await http(node.url, 'POST', '/mixed/_search?pretty', body);
    expect(pretty.text).toContain('"max_score" : 3.0');
    const scored = await http(node.url, 'POST', '/mixed/_search', {
      query: { match: { name: 'plain' } },
      size: 1,
    });
    expect(scored.text).toMatch(/"max_score":\d+\.\d+,/);
  });
});

describe('sort values', () => {
  it('of scores and floating-point fields are Java floats and doubles, in every renderer', async () => {
    // d is a double (59 / 2 = 29.5, then 29.0), n a long, _score a float.
    const body = {
      query: { constant_score: { filter: { range: { d: { gte: 29 } } }, boost: 3 } },
      sort: [{ d: 'desc' }, { n: 'asc' }, '_score'],
      track_scores: true,
    };
    for (const query of ['', '?filter_path=hits.hits.sort']) {
      const r = await http(node.url, 'POST', `/mixed/_search${query}`, body);
      expect(r.status).toBe(200);
      expect(r.text).toContain(`"sort":[29.5,${5 * 2 ** 40 + 1},3.0]`);
      expect(r.text).toContain(`"sort":[29.0,${4 * 2 ** 40 + 1},3.0]`);
    }
    const pretty = await http(node.url, 'POST', '/mixed/_search?pretty&filter_path=hits.hits.sort', body);
    expect(pretty.text).toContain('29.0,');
    // A scroll's later pages are rendered by the shards.
    const first = await http(node.url, 'POST', '/mixed/_search?scroll=1m', {
      sort: [{ d: 'desc' }],
      size: 1,
    });
    expect(first.text).toContain('"sort":[29.5]');
    const next = await http(node.url, 'POST', '/_search/scroll', {
      scroll: '1m',
      scroll_id: first.json._scroll_id,
    });
    expect(next.text).toContain('"sort":[29.0]');
    // A long stays an integer, and a missing double sorts as a quoted infinity.
    const longs = await http(node.url, 'POST', '/mixed/_search?filter_path=hits.hits.sort', {
      sort: [{ n: { order: 'asc', missing: '_first' } }],
      size: 1,
    });
    expect(longs.text).toBe('{"hits":{"hits":[{"sort":[-9223372036854775808]}]}}');
  });
});
