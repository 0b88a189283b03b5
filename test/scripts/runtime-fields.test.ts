/**
 * Runtime fields end to end (Elasticsearch's runtime_fields yamlRestTests: 20_long,
 * 30_double, 31_double_from_source, 41_date_from_source, 50_ip, 61_boolean_from_source,
 * 80_multiple_indices): `runtime_mappings` in a search and the `runtime` section of a mapping,
 * with a script that emits values or read from `_source`; in queries, aggregations, sort and
 * `fields`; shown by `_mapping` and `_field_caps`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let url: string;

const SENSOR_MAPPING = {
  runtime: {
    tomorrow: {
      type: 'date',
      script: {
        source:
          "for (def dt : doc['timestamp']) { emit(dt.toInstant().toEpochMilli() + params.days * 86400000L) }",
        params: { days: 1 },
      },
    },
    voltage_times_ten: {
      type: 'long',
      script: {
        source: "for (double v : doc['voltage']) { emit((long)(v * params.multiplier)) }",
        params: { multiplier: 10 },
      },
    },
    voltage_percent: { type: 'double', script: "emit(doc['voltage'].value / 5.8)" },
    day_of_week: { type: 'keyword', script: "emit(doc['timestamp'].value.getDayOfWeek() + '')" },
    over_v: { type: 'boolean', script: "emit(doc['voltage'].value > 5.5)" },
    ip_from_source: { type: 'ip' },
    loc: { type: 'geo_point', script: 'emit(params._source.lat, params._source.lon)' },
  },
  properties: {
    timestamp: { type: 'date' },
    temperature: { type: 'long' },
    voltage: { type: 'double' },
    node: { type: 'keyword' },
  },
};

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  const created = await http(url, 'PUT', '/sensor', {
    settings: { number_of_shards: 1 },
    mappings: SENSOR_MAPPING,
  });
  expect(created.status, created.text).toBe(200);
  const docs = [
    {
      timestamp: 1516729294000,
      temperature: 200,
      voltage: 5.2,
      node: 'a',
      ip_from_source: '192.168.0.1',
      lat: 1,
      lon: 2,
    },
    {
      timestamp: 1516642894000,
      temperature: 201,
      voltage: 5.8,
      node: 'b',
      ip_from_source: '10.0.0.1',
      lat: 3,
      lon: 4,
    },
    {
      timestamp: 1516556494000,
      temperature: 202,
      voltage: 5.1,
      node: 'a',
      ip_from_source: 'not an ip',
      lat: 5,
      lon: 6,
    },
    { timestamp: 1516470094000, temperature: 198, voltage: 5.6, node: 'b', lat: 7, lon: 8 },
    { timestamp: 1516383694000, temperature: 200, voltage: 4.2, node: 'c', lat: 9, lon: 10 },
    { timestamp: 1516297294000, temperature: 202, voltage: 4.0, node: 'c', lat: 11, lon: 12 },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _index: 'sensor', _id: String(i + 1) } }, d]);
  const r = await http(url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors, r.text).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown, index = 'sensor') => http(url, 'POST', `/${index}/_search`, body);

describe('runtime fields in a mapping', () => {
  it('GET _mapping shows the runtime section, sorted, with the scripts', async () => {
    const r = await http(url, 'GET', '/sensor/_mapping');
    const runtime = r.json.sensor.mappings.runtime;
    expect(Object.keys(runtime)).toEqual([
      'day_of_week',
      'ip_from_source',
      'loc',
      'over_v',
      'tomorrow',
      'voltage_percent',
      'voltage_times_ten',
    ]);
    expect(runtime.voltage_times_ten).toEqual({
      type: 'long',
      script: {
        source: "for (double v : doc['voltage']) { emit((long)(v * params.multiplier)) }",
        lang: 'painless',
        params: { multiplier: 10 },
      },
    });
    expect(runtime.ip_from_source).toEqual({ type: 'ip' });
  });

  it('fields, sort and range on a long runtime field', async () => {
    const r = await search({
      query: { range: { voltage_times_ten: { gte: 50 } } },
      sort: [{ voltage_times_ten: 'desc' }],
      fields: ['voltage_times_ten', 'day_of_week', 'tomorrow'],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.total.value).toBe(4);
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2', '4', '1', '3']);
    expect(r.json.hits.hits[0].sort).toEqual([58]);
    expect(r.json.hits.hits[0].fields).toEqual({
      voltage_times_ten: [58],
      day_of_week: ['1'],
      tomorrow: ['2018-01-23T17:41:34.000Z'],
    });
  });

  it('term, terms, exists, match and aggregations on keyword, boolean, double and ip fields', async () => {
    const total = async (query: unknown) => (await search({ query })).json.hits.total.value;
    const scored = await search({ query: { term: { day_of_week: { value: '2', boost: 2 } } } });
    expect(scored.json.hits.hits[0]._score).toBe(2);
    expect(await total({ term: { day_of_week: '2' } })).toBe(1);
    expect(await total({ terms: { day_of_week: ['1', '2'] } })).toBe(2);
    expect(await total({ match: { day_of_week: '7' } })).toBe(1);
    expect(await total({ term: { over_v: true } })).toBe(2);
    expect(await total({ exists: { field: 'ip_from_source' } })).toBe(2);
    expect(await total({ term: { ip_from_source: '10.0.0.1' } })).toBe(1);
    expect(await total({ range: { voltage_percent: { gte: 1 } } })).toBe(1);
    const aggs = await search({
      size: 0,
      aggs: {
        days: { terms: { field: 'day_of_week', order: { _key: 'asc' } } },
        avg_ten: { avg: { field: 'voltage_times_ten' } },
        over: { terms: { field: 'over_v' } },
        per_day: { date_histogram: { field: 'tomorrow', calendar_interval: 'day', min_doc_count: 1 } },
      },
    });
    expect(aggs.status, aggs.text).toBe(200);
    expect(aggs.json.aggregations.days.buckets.map((b: { key: string }) => b.key)).toEqual([
      '1',
      '2',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(aggs.json.aggregations.avg_ten.value).toBeCloseTo((52 + 58 + 51 + 56 + 42 + 40) / 6);
    expect(aggs.json.aggregations.per_day.buckets[0]).toEqual({
      key_as_string: '2018-01-19T00:00:00.000Z',
      key: 1516320000000,
      doc_count: 1,
    });
    expect(aggs.json.aggregations.per_day.buckets).toHaveLength(6);
    expect(aggs.json.aggregations.over.buckets).toEqual([
      { key: 0, key_as_string: 'false', doc_count: 4 },
      { key: 1, key_as_string: 'true', doc_count: 2 },
    ]);
  });

  it('geo_point runtime fields answer geo queries; fields print as GeoJSON, booleans and ips as such', async () => {
    const r = await search({
      query: {
        geo_bounding_box: { loc: { top_left: { lat: 4, lon: 0 }, bottom_right: { lat: 0, lon: 5 } } },
      },
      sort: [{ timestamp: 'desc' }],
      fields: ['loc', 'over_v', 'ip_from_source'],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.hits.map((h: { _id: string; fields: unknown }) => [h._id, h.fields])).toEqual([
      [
        '1',
        { loc: [{ type: 'Point', coordinates: [2, 1] }], over_v: [false], ip_from_source: ['192.168.0.1'] },
      ],
      ['2', { loc: [{ type: 'Point', coordinates: [4, 3] }], over_v: [true], ip_from_source: ['10.0.0.1'] }],
    ]);
  });

  it('PUT _mapping replaces and removes runtime fields', async () => {
    await http(url, 'PUT', '/rt-upd', {
      mappings: { runtime: { a: { type: 'keyword' }, b: { type: 'long' } } },
    });
    const put = await http(url, 'PUT', '/rt-upd/_mapping', { runtime: { a: { type: 'long' }, b: null } });
    expect(put.status, put.text).toBe(200);
    expect((await http(url, 'GET', '/rt-upd/_mapping')).json['rt-upd'].mappings.runtime).toEqual({
      a: { type: 'long' },
    });
  });
});

describe('dynamic: runtime', () => {
  it('maps new fields as runtime fields of their detected type, read from _source', async () => {
    const created = await http(url, 'PUT', '/rt-dyn', {
      settings: { number_of_shards: 1 },
      mappings: { dynamic: 'runtime', properties: { title: { type: 'text' } } },
    });
    expect(created.status, created.text).toBe(200);
    const docs = [
      { title: 'one', tag: 'a', n: 1, when: '2021-01-01', meta: { on: true } },
      { title: 'two', tag: 'b', n: 2.5, when: '2021-06-01', meta: { on: false } },
      { title: 'three', tag: 'a', n: 3 },
    ];
    const lines = docs.flatMap((d, i) => [{ index: { _index: 'rt-dyn', _id: String(i + 1) } }, d]);
    const r = await http(url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
      'content-type': 'application/x-ndjson',
    });
    expect(r.json.errors, r.text).toBe(false);
    const mapping = (await http(url, 'GET', '/rt-dyn/_mapping')).json['rt-dyn'].mappings;
    expect(mapping).toEqual({
      dynamic: 'runtime',
      runtime: {
        'meta.on': { type: 'boolean' },
        n: { type: 'long' },
        tag: { type: 'keyword' },
        when: { type: 'date' },
      },
      properties: { title: { type: 'text' } },
    });
    const found = await search(
      {
        query: { bool: { filter: [{ term: { tag: 'a' } }, { range: { when: { gte: '2020-12-01' } } }] } },
        aggs: { tags: { terms: { field: 'tag' } }, on: { terms: { field: 'meta.on' } } },
      },
      'rt-dyn',
    );
    expect(found.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1']);
    expect(found.json.aggregations.tags.buckets).toEqual([{ key: 'a', doc_count: 1 }]);
    const all = await search({ size: 0, aggs: { tags: { terms: { field: 'tag' } } } }, 'rt-dyn');
    expect(all.json.aggregations.tags.buckets).toEqual([
      { key: 'a', doc_count: 2 },
      { key: 'b', doc_count: 1 },
    ]);
  });
});

describe('runtime_mappings in a search', () => {
  it('defines fields for one search, shadowing mapped ones, usable everywhere', async () => {
    const r = await search({
      runtime_mappings: {
        node: { type: 'keyword', script: 'emit(params._source.node.toUpperCase())' },
        temp_f: { type: 'double', script: "emit(doc['temperature'].value * 9.0 / 5 + 32)" },
      },
      query: { term: { node: 'A' } },
      sort: [{ temp_f: 'asc' }],
      fields: ['temp_f', 'node'],
      aggs: { max_f: { max: { field: 'temp_f' } } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.hits.map((h: { _id: string; fields: unknown }) => [h._id, h.fields])).toEqual([
      ['1', { temp_f: [392], node: ['A'] }],
      ['3', { temp_f: [395.6], node: ['A'] }],
    ]);
    expect(r.json.aggregations.max_f.value).toBeCloseTo(395.6);
    // The mapped field is untouched for other searches.
    expect((await search({ query: { term: { node: 'a' } } })).json.hits.total.value).toBe(2);
  });

  it('keeps the runtime fields for the later pages of a scroll', async () => {
    const body = {
      size: 2,
      runtime_mappings: { neg: { type: 'long', script: "emit(-doc['temperature'].value)" } },
      sort: [{ neg: 'asc' }, { timestamp: 'asc' }],
      fields: ['neg'],
    };
    const first = await http(url, 'POST', '/sensor/_search?scroll=1m', body);
    expect(first.status, first.text).toBe(200);
    const pages = [first.json.hits.hits];
    let id = first.json._scroll_id;
    for (let i = 0; i < 3; i++) {
      const next = await http(url, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: id });
      expect(next.status, next.text).toBe(200);
      pages.push(next.json.hits.hits);
      id = next.json._scroll_id;
    }
    await http(url, 'DELETE', '/_search/scroll', { scroll_id: id });
    const values = pages.flat().map((h: { fields: { neg: number[] } }) => h.fields.neg[0]);
    expect(values).toEqual([-202, -202, -201, -200, -200, -198]);
  });

  it('reads _source without a script, leaving out values that do not parse', async () => {
    const r = await search({
      runtime_mappings: { ip_copy: { type: 'ip', script: null }, lat: { type: 'double' } },
      query: { range: { lat: { lte: 5 } } },
      sort: [{ lat: 'desc' }],
      fields: ['ip_copy', 'lat'],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['3', '2', '1']);
  });

  it('bad definitions: mapper_parsing_exception; a failing script: script_exception', async () => {
    let r = await search({ runtime_mappings: { x: { script: 'emit(1)' } } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'mapper_parsing_exception',
      reason: 'No type specified for runtime field [x]',
    });
    r = await search({ runtime_mappings: { x: { type: 'text' } } });
    expect(r.json.error.reason).toBe('No handler for type [text] declared on runtime field [x]');
    r = await search({ runtime_mappings: { x: { type: 'long', format: 'yyyy' } } });
    expect(r.json.error.reason).toBe('unknown parameter [format] on runtime field [x] of type [long]');
    r = await search({
      runtime_mappings: { x: { type: 'long', script: "emit(doc['node'].value)" } },
      query: { exists: { field: 'x' } },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('script_exception');
    expect(r.text).toContain('Cannot cast java.lang.String to java.lang.Long');
    r = await search({
      runtime_mappings: {
        a: { type: 'long', script: "emit(doc['b'].value)" },
        b: { type: 'long', script: "emit(doc['a'].value)" },
      },
      query: { exists: { field: 'a' } },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('Cyclic dependency detected while resolving runtime fields: a -> b -> a');
  });
});

describe('composite runtime fields and lambdas in scripts', () => {
  const COMPOSITE = {
    type: 'composite',
    script: {
      source:
        "emit(['node': params._source.node.toUpperCase(), 'temp': ['c': doc['temperature'].value], 'tags': params.tags.stream().filter(t -> t.length() > 1).collect(Collectors.toList())])",
      params: { tags: ['x', 'hot', 'dry'] },
    },
    fields: { node: { type: 'keyword' }, 'temp.c': { type: 'long' }, tags: { type: 'keyword' } },
  };

  it('a composite field in a mapping: its sub-fields in GET _mapping, _field_caps, queries, aggs and fields', async () => {
    const created = await http(url, 'PUT', '/sensor-composite', {
      settings: { number_of_shards: 1 },
      mappings: { runtime: { info: COMPOSITE }, properties: SENSOR_MAPPING.properties },
    });
    expect(created.status, created.text).toBe(200);
    const copied = await http(url, 'POST', '/_reindex?refresh=true', {
      source: { index: 'sensor' },
      dest: { index: 'sensor-composite' },
    });
    expect(copied.status, copied.text).toBe(200);
    const mapping = (await http(url, 'GET', '/sensor-composite/_mapping')).json['sensor-composite'].mappings;
    expect(mapping.runtime.info).toMatchObject({
      type: 'composite',
      fields: { node: { type: 'keyword' }, tags: { type: 'keyword' }, 'temp.c': { type: 'long' } },
    });
    const caps = await http(url, 'GET', '/sensor-composite/_field_caps?fields=info.*');
    expect(Object.keys(caps.json.fields).sort()).toEqual(['info.node', 'info.tags', 'info.temp.c']);
    expect(caps.json.fields['info.temp.c'].long.type).toBe('long');
    const r = await search(
      {
        query: { term: { 'info.node': 'C' } },
        sort: [{ 'info.temp.c': 'desc' }],
        fields: ['info.*'],
        aggs: { nodes: { terms: { field: 'info.node' } } },
      },
      'sensor-composite',
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.hits.map((h: { _id: string; fields: unknown }) => [h._id, h.fields])).toEqual([
      ['6', { 'info.node': ['C'], 'info.temp.c': [202], 'info.tags': ['dry', 'hot'] }],
      ['5', { 'info.node': ['C'], 'info.temp.c': [200], 'info.tags': ['dry', 'hot'] }],
    ]);
    expect(r.json.aggregations.nodes.buckets).toEqual([{ key: 'C', doc_count: 2 }]);
  });

  it('a composite field in runtime_mappings, and its definition errors', async () => {
    const r = await search({
      runtime_mappings: { info: COMPOSITE },
      size: 0,
      aggs: { t: { sum: { field: 'info.temp.c' } } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.aggregations.t.value).toBe(200 + 201 + 202 + 198 + 200 + 202);
    const bad = async (def: unknown) => (await search({ runtime_mappings: { info: def } })).json.error;
    expect(await bad({ type: 'composite', fields: { a: { type: 'long' } } })).toMatchObject({
      type: 'mapper_parsing_exception',
      reason: 'composite runtime field [info] must declare a [script]',
    });
    expect((await bad({ type: 'composite', script: 'emit([:])' })).reason).toBe(
      'composite runtime field [info] must declare its [fields]',
    );
    expect(
      (
        await bad({
          type: 'composite',
          script: 'emit([:])',
          fields: { a: { type: 'long', script: 'emit(1)' } },
        })
      ).reason,
    ).toBe('Cannot use [script] parameter on sub-field [a] of composite field [info]');
  });

  it('runs lambdas, streams and map.forEach in a runtime field script', async () => {
    const r = await search({
      runtime_mappings: {
        summary: {
          type: 'keyword',
          script:
            "def m = ['t': doc['temperature'].value, 'v': doc['voltage'].value]; def parts = []; m.forEach((k, v) -> parts.add(k + '=' + v)); parts.sort((a, b) -> b.compareTo(a)); emit(String.join(',', parts))",
        },
      },
      query: { term: { node: 'a' } },
      sort: [{ timestamp: 'desc' }],
      fields: ['summary'],
      _source: false,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.hits.hits.map((h: { fields: { summary: string[] } }) => h.fields.summary[0])).toEqual([
      'v=5.2,t=200',
      'v=5.1,t=202',
    ]);
  });
});

describe('_field_caps', () => {
  it('lists runtime fields with their types, from the mapping and from runtime_mappings', async () => {
    const r = await http(url, 'POST', '/sensor/_field_caps?fields=day_of_week,voltage_times_ten,extra', {
      runtime_mappings: { extra: { type: 'ip' } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.fields.day_of_week).toEqual({
      keyword: { type: 'keyword', metadata_field: false, searchable: true, aggregatable: true },
    });
    expect(r.json.fields.voltage_times_ten.long).toMatchObject({
      type: 'long',
      searchable: true,
      aggregatable: true,
    });
    expect(r.json.fields.extra.ip).toMatchObject({ type: 'ip', searchable: true, aggregatable: true });
  });
});
