/**
 * `half_float` fields: values are stored at half precision (HalfFloatPoint), sort as floats,
 * and aggregate as the doubles of those halves, as Elasticsearch does; what overflows a half
 * float is refused with Elasticsearch's reason. `scaled_float` fields: values are kept as
 * round(value × scaling_factor) / scaling_factor, sorted and aggregated as doubles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/halves', {
    settings: { number_of_shards: 2 },
    mappings: { properties: { h: { type: 'half_float', null_value: 0.5 } } },
  });
  expect(created.status).toBe(200);
});
afterAll(async () => {
  await node?.stop();
});

describe('half_float fields', () => {
  it('store half-precision values, sort and aggregate them as Elasticsearch does', async () => {
    const mapping = await http(node.url, 'GET', '/halves/_mapping');
    expect(mapping.json.halves.mappings.properties.h).toEqual({ type: 'half_float', null_value: 0.5 });
    // null_value is held as a Java Float: a whole number keeps its `.0`.
    const whole = await http(node.url, 'PUT', '/halves/_mapping', {
      properties: { w: { type: 'half_float', null_value: 2 }, l: { type: 'long', null_value: 2 } },
    });
    expect(whole.status).toBe(200);
    const printed = await http(node.url, 'GET', '/halves/_mapping');
    expect(printed.text).toContain('"l":{"type":"long","null_value":2}');
    expect(printed.text).toContain('"w":{"type":"half_float","null_value":2.0}');
    const docs = [{ h: 1.1 }, { h: '3.3' }, { h: 70000 }, { h: null }, { h: 1000.7 }];
    const bulk = await http(
      node.url,
      'POST',
      '/_bulk?refresh=true',
      ndjson(docs.flatMap((d, i) => [{ index: { _index: 'halves', _id: String(i + 1) } }, d])),
      { 'content-type': 'application/x-ndjson' },
    );
    const items = bulk.json.items.map((x: { index: { status: number } }) => x.index);
    expect(items.map((x: { status: number }) => x.status)).toEqual([201, 201, 400, 201, 201]);
    expect(items[2].error.caused_by).toMatchObject({
      type: 'illegal_argument_exception',
      reason: '[half_float] supports only finite values, but got [70000.0]',
    });

    const sorted = await http(node.url, 'POST', '/halves/_search?filter_path=hits.hits._id,hits.hits.sort', {
      sort: [{ h: 'desc' }],
    });
    expect(sorted.text).toBe(
      '{"hits":{"hits":[{"_id":"5","sort":[1000.5]},{"_id":"2","sort":[3.3007813]},{"_id":"1","sort":[1.0996094]},{"_id":"4","sort":[0.5]}]}}',
    );
    const term = await http(node.url, 'POST', '/halves/_count', { query: { term: { h: 1.1 } } });
    expect(term.json.count).toBe(1);
    // A term matches the half its value rounds to; a range compares the halves with its float
    // bounds, so 3.3 (stored as 3.30078125) is not `lte: 3.3`.
    const count = async (query: unknown) =>
      (await http(node.url, 'POST', '/halves/_count', { query })).json.count;
    expect(await count({ range: { h: { gt: 1, lte: 3.3 } } })).toBe(1);
    expect(await count({ range: { h: { gt: 1, lte: 3.31 } } })).toBe(2);
    expect(await count({ term: { h: '3.3' } })).toBe(1);
    const ranges = await http(node.url, 'POST', '/halves/_search', {
      size: 0,
      aggs: { r: { range: { field: 'h', ranges: [{ to: 3.3 }, { from: 3.3 }] } } },
    });
    expect(ranges.json.aggregations.r.buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual([2, 2]);
    const aggs = await http(node.url, 'POST', '/halves/_search', {
      size: 0,
      aggs: { sum: { sum: { field: 'h' } }, keys: { terms: { field: 'h', order: { _key: 'asc' } } } },
    });
    expect(aggs.json.aggregations.sum.value).toBe(1005.400390625);
    expect(aggs.json.aggregations.keys.buckets.map((b: { key: number }) => b.key)).toEqual([
      0.5, 1.099609375, 3.30078125, 1000.5,
    ]);
  });
});

describe('scaled_float fields', () => {
  it('need a positive scaling_factor, which a mapping update cannot change', async () => {
    const missing = await http(node.url, 'PUT', '/no-factor', {
      mappings: { properties: { p: { type: 'scaled_float' } } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({
      type: 'mapper_parsing_exception',
      caused_by: { type: 'illegal_argument_exception', reason: 'Field [scaling_factor] is required' },
    });
    const negative = await http(node.url, 'PUT', '/bad-factor', {
      mappings: { properties: { p: { type: 'scaled_float', scaling_factor: -1 } } },
    });
    expect(negative.json.error.caused_by.reason).toBe('[scaling_factor] must be a positive number, got [-1]');
    const created = await http(node.url, 'PUT', '/prices', {
      settings: { number_of_shards: 2 },
      mappings: { properties: { p: { type: 'scaled_float', scaling_factor: 100 } } },
    });
    expect(created.status).toBe(200);
    const changed = await http(node.url, 'PUT', '/prices/_mapping', {
      properties: { p: { type: 'scaled_float', scaling_factor: 10 } },
    });
    expect(changed.status).toBe(400);
    expect(changed.json.error.reason).toContain(
      'Cannot update parameter [scaling_factor] from [100.0] to [10.0]',
    );
    // The factor is a Java double: GET _mapping, the field mapping API and GET index print `100.0`.
    for (const path of ['/prices/_mapping', '/prices/_mapping/field/p', '/prices']) {
      const got = await http(node.url, 'GET', path);
      expect(got.status).toBe(200);
      expect(got.text).toContain('"scaling_factor":100.0');
    }
    const pretty = await http(node.url, 'GET', '/prices/_mapping?pretty');
    expect(pretty.text).toContain('"scaling_factor" : 100.0');
    const filtered = await http(node.url, 'GET', '/prices/_mapping?filter_path=*.mappings.properties.p');
    expect(filtered.text).toBe(
      '{"prices":{"mappings":{"properties":{"p":{"type":"scaled_float","scaling_factor":100.0}}}}}',
    );
  });

  it('keep values rounded to the factor, for sorting, queries and aggregations', async () => {
    const docs = [{ p: 1.234 }, { p: '19.995' }, { p: 0.29 }, { p: 'Infinity' }];
    const bulk = await http(
      node.url,
      'POST',
      '/_bulk?refresh=true',
      ndjson(docs.flatMap((d, i) => [{ index: { _index: 'prices', _id: String(i + 1) } }, d])),
      { 'content-type': 'application/x-ndjson' },
    );
    const items = bulk.json.items.map((x: { index: unknown }) => x.index);
    expect(items.map((x: { status: number }) => x.status)).toEqual([201, 201, 201, 400]);
    expect(items[3].error.caused_by.reason).toBe(
      '[scaled_float] only supports finite values, but got [Infinity]',
    );
    const sorted = await http(node.url, 'POST', '/prices/_search?filter_path=hits.hits._id,hits.hits.sort', {
      sort: [{ p: 'desc' }],
    });
    // 19.995 × 100 is 1999.5 in doubles, which Math.round takes up.
    expect(sorted.text).toBe(
      '{"hits":{"hits":[{"_id":"2","sort":[20.0]},{"_id":"1","sort":[1.23]},{"_id":"3","sort":[0.29]}]}}',
    );
    const count = async (query: unknown) =>
      (await http(node.url, 'POST', '/prices/_count', { query })).json.count;
    expect(await count({ term: { p: 1.23 } })).toBe(1);
    expect(await count({ term: { p: 1.234 } })).toBe(1);
    expect(await count({ range: { p: { gte: 0.29, lt: 1.23 } } })).toBe(1);
    const aggs = await http(node.url, 'POST', '/prices/_search', {
      size: 0,
      aggs: { sum: { sum: { field: 'p' } }, keys: { terms: { field: 'p', order: { _key: 'asc' } } } },
    });
    expect(aggs.json.aggregations.sum.value).toBeCloseTo(21.52, 10);
    expect(aggs.json.aggregations.keys.buckets.map((b: { key: number }) => b.key)).toEqual([0.29, 1.23, 20]);
  });
});
