/**
 * The field types Shoal keeps in the form of another: binary, wildcard, constant_keyword,
 * match_only_text, token_count, flattened, alias and the range types, as Elasticsearch's
 * mapper suites use them (indexing, term/range/exists queries, aggregations, sort, errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

async function ids(index: string, query: unknown): Promise<string[]> {
  const res = await http(node.url, 'POST', `/${index}/_search`, { query, size: 100, sort: ['_doc'] });
  expect(res.status).toBe(200);
  return res.json.hits.hits.map((h: { _id: string }) => h._id).sort();
}

async function bulk(index: string, docs: Record<string, unknown>[]): Promise<void> {
  const lines = docs.flatMap((d, i) => [{ index: { _index: index, _id: String(i + 1) } }, d]);
  const res = await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(res.json.errors).toBe(false);
}

beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('binary', () => {
  it('keeps base64 values, finds them with exists, refuses to search them and bad base64', async () => {
    const created = await http(node.url, 'PUT', '/bin', {
      mappings: { properties: { data: { type: 'binary' }, dv: { type: 'binary', doc_values: true } } },
    });
    expect(created.status).toBe(200);
    await bulk('bin', [{ data: 'U29tZSBiaW5hcnkgYmxvYg==', dv: 'AQID' }, { other: 1 }]);
    expect(await ids('bin', { exists: { field: 'data' } })).toEqual(['1']);
    const dv = await http(node.url, 'POST', '/bin/_search', {
      docvalue_fields: ['dv'],
      query: { ids: { values: ['1'] } },
    });
    expect(dv.json.hits.hits[0].fields).toEqual({ dv: ['AQID'] });
    const term = await http(node.url, 'POST', '/bin/_search', { query: { term: { data: 'x' } } });
    expect(term.status).toBe(400);
    expect(JSON.stringify(term.json.error)).toContain('Binary fields do not support searching');
    const bad = await http(node.url, 'PUT', '/bin/_doc/3', { data: 'not base64!' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('document_parsing_exception');
    expect(bad.json.error.reason).toContain('failed to parse field [data] of type [binary]');
    expect(bad.json.error.caused_by.reason).toContain("Illegal character '!' (code 0x21) in base64 content");
    const mapping = await http(node.url, 'GET', '/bin/_mapping');
    expect(mapping.json.bin.mappings.properties.dv).toEqual({ type: 'binary', doc_values: true });
  });
});

describe('wildcard, match_only_text and token_count', () => {
  it('indexes and queries them', async () => {
    const created = await http(node.url, 'PUT', '/misc', {
      mappings: {
        properties: {
          w: { type: 'wildcard' },
          m: { type: 'match_only_text' },
          t: { type: 'text', fields: { count: { type: 'token_count', analyzer: 'standard' } } },
        },
      },
    });
    expect(created.status).toBe(200);
    await bulk('misc', [
      { w: 'error-1234-x', m: 'the quick brown fox', t: 'one two three' },
      { w: 'warning-99', m: 'lazy dog', t: 'one' },
    ]);
    expect(await ids('misc', { wildcard: { w: { value: '*1234*' } } })).toEqual(['1']);
    expect(await ids('misc', { term: { w: 'warning-99' } })).toEqual(['2']);
    expect(await ids('misc', { match_phrase: { m: 'quick brown' } })).toEqual(['1']);
    expect(await ids('misc', { range: { 't.count': { gte: 2 } } })).toEqual(['1']);
    const agg = await http(node.url, 'POST', '/misc/_search', {
      size: 0,
      aggs: { c: { terms: { field: 't.count' } }, w: { terms: { field: 'w' } } },
    });
    expect(agg.json.aggregations.c.buckets).toEqual([
      { key: 1, doc_count: 1 },
      { key: 3, doc_count: 1 },
    ]);
    expect(agg.json.aggregations.w.buckets.map((b: { key: string }) => b.key)).toEqual([
      'error-1234-x',
      'warning-99',
    ]);
    const caps = await http(node.url, 'GET', '/misc/_field_caps?fields=w,m,t.count');
    expect(Object.keys(caps.json.fields.w)).toEqual(['wildcard']);
    expect(Object.keys(caps.json.fields.m)).toEqual(['match_only_text']);
    expect(Object.keys(caps.json.fields['t.count'])).toEqual(['token_count']);
    const noAnalyzer = await http(node.url, 'PUT', '/misc2', {
      mappings: { properties: { c: { type: 'token_count' } } },
    });
    expect(noAnalyzer.status).toBe(400);
    expect(JSON.stringify(noAnalyzer.json.error)).toContain("Analyzer must be set for field [c] but wasn't.");
  });
});

describe('constant_keyword', () => {
  it('takes its value from the mapping or the first document and refuses others', async () => {
    await http(node.url, 'PUT', '/ck', { mappings: { properties: { kind: { type: 'constant_keyword' } } } });
    await http(node.url, 'PUT', '/ck/_doc/1?refresh=true', { kind: 'logs', n: 1 });
    const mapping = await http(node.url, 'GET', '/ck/_mapping');
    expect(mapping.json.ck.mappings.properties.kind).toEqual({ type: 'constant_keyword', value: 'logs' });
    await http(node.url, 'PUT', '/ck/_doc/2?refresh=true', { n: 2 });
    expect(await ids('ck', { term: { kind: 'logs' } })).toEqual(['1', '2']);
    expect(await ids('ck', { term: { kind: 'metrics' } })).toEqual([]);
    const bad = await http(node.url, 'PUT', '/ck/_doc/3', { kind: 'metrics' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.caused_by.reason).toBe(
      '[constant_keyword] field [kind] only accepts values that are equal to the value defined in the mappings [logs], but got [metrics]',
    );
    const change = await http(node.url, 'PUT', '/ck/_mapping', {
      properties: { kind: { type: 'constant_keyword', value: 'other' } },
    });
    expect(change.status).toBe(400);
  });
});

describe('flattened', () => {
  it('searches the whole object and its keys', async () => {
    await http(node.url, 'PUT', '/flat', { mappings: { properties: { labels: { type: 'flattened' } } } });
    await bulk('flat', [
      { labels: { priority: 'urgent', release: ['v1.2.5', 'v1.3.0'], owner: { team: 'search' } } },
      { labels: { priority: 'low', owner: { team: 'infra' } } },
    ]);
    expect(await ids('flat', { term: { labels: 'urgent' } })).toEqual(['1']);
    expect(await ids('flat', { term: { 'labels.release': 'v1.3.0' } })).toEqual(['1']);
    expect(await ids('flat', { term: { 'labels.owner.team': 'infra' } })).toEqual(['2']);
    expect(await ids('flat', { exists: { field: 'labels.release' } })).toEqual(['1']);
    const agg = await http(node.url, 'POST', '/flat/_search', {
      size: 0,
      aggs: { p: { terms: { field: 'labels.priority' } } },
    });
    expect(agg.json.aggregations.p.buckets.map((b: { key: string }) => b.key)).toEqual(['low', 'urgent']);
    const scalar = await http(node.url, 'PUT', '/flat/_doc/9', { labels: 'x' });
    expect(scalar.status).toBe(400);
    expect(scalar.json.error.type).toBe('document_parsing_exception');
  });
});

describe('alias', () => {
  it('queries, aggregates and sorts through the alias, refuses writes and bad paths', async () => {
    const created = await http(node.url, 'PUT', '/al', {
      mappings: {
        properties: { distance: { type: 'long' }, route_length: { type: 'alias', path: 'distance' } },
      },
    });
    expect(created.status).toBe(200);
    await bulk('al', [{ distance: 10 }, { distance: 30 }]);
    expect(await ids('al', { range: { route_length: { gte: 20 } } })).toEqual(['2']);
    const res = await http(node.url, 'POST', '/al/_search', {
      sort: [{ route_length: 'desc' }],
      aggs: { m: { max: { field: 'route_length' } } },
    });
    expect(res.json.hits.hits.map((h: { sort: number[] }) => h.sort[0])).toEqual([30, 10]);
    expect(res.json.aggregations.m.value).toBe(30);
    const fields = await http(node.url, 'POST', '/al/_search', {
      query: { ids: { values: ['2'] } },
      fields: ['route_length'],
      docvalue_fields: ['route_length'],
    });
    expect(fields.json.hits.hits[0].fields).toEqual({ route_length: [30] });
    const write = await http(node.url, 'PUT', '/al/_doc/3', { route_length: 5 });
    expect(write.status).toBe(400);
    expect(write.json.error.reason).toBe('[1:17] Cannot write to a field alias [route_length].');
    const missing = await http(node.url, 'PUT', '/al2', {
      mappings: { properties: { a: { type: 'alias', path: 'nope' } } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({
      type: 'mapper_parsing_exception',
      reason:
        'Invalid [path] value [nope] for field alias [a]: an alias must refer to an existing field in the mappings.',
    });
  });
});

describe('range types', () => {
  it('matches term and range queries with each relation', async () => {
    const created = await http(node.url, 'PUT', '/ranges', {
      mappings: {
        properties: {
          ints: { type: 'integer_range' },
          dbl: { type: 'double_range' },
          when: { type: 'date_range', format: 'yyyy-MM-dd' },
          ips: { type: 'ip_range' },
        },
      },
    });
    expect(created.status).toBe(200);
    await bulk('ranges', [
      {
        ints: { gte: 10, lte: 20 },
        dbl: { gt: 0.5, lt: 1.5 },
        when: { gte: '2024-01-01', lte: '2024-01-31' },
        ips: '10.0.0.0/8',
      },
      {
        ints: { gte: 15, lt: 16 },
        dbl: { gte: 2 },
        when: { gte: '2024-03-01' },
        ips: { gte: '192.168.0.1', lte: '192.168.0.9' },
      },
    ]);
    expect(await ids('ranges', { term: { ints: 12 } })).toEqual(['1']);
    expect(await ids('ranges', { term: { ints: 15 } })).toEqual(['1', '2']);
    expect(await ids('ranges', { term: { ints: 16 } })).toEqual(['1']);
    expect(await ids('ranges', { range: { ints: { gte: 14, lte: 17, relation: 'within' } } })).toEqual(['2']);
    expect(await ids('ranges', { range: { ints: { gte: 14, lte: 17, relation: 'contains' } } })).toEqual([
      '1',
    ]);
    expect(await ids('ranges', { range: { ints: { gte: 19, lte: 30 } } })).toEqual(['1']);
    expect(await ids('ranges', { term: { dbl: 1.5 } })).toEqual([]);
    expect(await ids('ranges', { range: { dbl: { gte: 1000 } } })).toEqual(['2']);
    expect(await ids('ranges', { term: { when: '2024-01-15' } })).toEqual(['1']);
    expect(await ids('ranges', { range: { when: { gte: '2030-01-01', relation: 'intersects' } } })).toEqual([
      '2',
    ]);
    expect(await ids('ranges', { term: { ips: '10.1.2.3' } })).toEqual(['1']);
    expect(await ids('ranges', { terms: { ips: ['192.168.0.5', '11.0.0.1'] } })).toEqual(['2']);
    const inverted = await http(node.url, 'PUT', '/ranges/_doc/3', { ints: { gte: 5, lte: 1 } });
    expect(inverted.status).toBe(400);
    expect(inverted.json.error.type).toBe('document_parsing_exception');
    const unknown = await http(node.url, 'PUT', '/ranges/_doc/3', { ints: { gte: 5, foo: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.caused_by.reason).toBe(
      'error parsing field [ints], with unknown parameter [foo]',
    );
  });
});

describe('dynamic templates', () => {
  it('map new fields by their match conditions and by the names bulk items give', async () => {
    const created = await http(node.url, 'PUT', '/dyn', {
      mappings: {
        dynamic_templates: [
          { my_location: { match: 'my*', mapping: { type: 'geo_point' } } },
          { longs_as_ints: { match_mapping_type: 'long', mapping: { type: 'integer' } } },
          { labels: { path_match: 'meta.*', match_mapping_type: 'object', mapping: { type: 'flattened' } } },
          { string: { match_mapping_type: 'string', mapping: { type: 'keyword' } } },
          { location: { mapping: { type: 'geo_point' } } },
        ],
      },
    });
    expect(created.status).toBe(200);
    const res = await http(
      node.url,
      'POST',
      '/_bulk?refresh=true',
      ndjson([
        { index: { _index: 'dyn', _id: '1' } },
        { my_location: '41.12,-71.34', count: 5, title: 'Hello World', meta: { tags: { a: 'x' } } },
        { index: { _index: 'dyn', _id: '2', dynamic_templates: { where: 'location' } } },
        { where: [-71.34, 41.12] },
        { index: { _index: 'dyn', _id: '3', dynamic_templates: { other: 'nope' } } },
        { other: 'x' },
        { index: { _index: 'dyn', _id: '4', dynamic_templates: { foo: 'string' } } },
        { 'foo.bar': 'hello world' },
      ]),
      { 'content-type': 'application/x-ndjson' },
    );
    expect(res.json.items[0].index).toMatchObject({ result: 'created' });
    expect(res.json.items[1].index).toMatchObject({ result: 'created' });
    expect(res.json.items[2].index).toMatchObject({
      status: 400,
      error: { type: 'document_parsing_exception' },
    });
    expect(res.json.items[2].index.error.reason).toContain(
      "failed to parse: Can't find dynamic template for dynamic template name [nope] of field [other]",
    );
    expect(res.json.items[3].index.error.reason).toContain(
      "failed to parse field [foo] of type [keyword] in document with id '4'. Preview of field's value: '{bar=hello world}'",
    );
    const mapping = await http(node.url, 'GET', '/dyn/_mapping');
    const props = mapping.json.dyn.mappings.properties;
    expect(props.my_location).toEqual({ type: 'geo_point' });
    expect(props.count).toEqual({ type: 'integer' });
    expect(props.title).toEqual({ type: 'keyword' });
    expect(props.meta.properties.tags).toEqual({ type: 'flattened' });
    expect(props.where).toEqual({ type: 'geo_point' });
    const box = await http(node.url, 'POST', '/dyn/_search', {
      query: {
        geo_bounding_box: { where: { top_left: { lat: 42, lon: -72 }, bottom_right: { lat: 40, lon: -74 } } },
      },
    });
    expect(box.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
    expect(await ids('dyn', { term: { 'meta.tags.a': 'x' } })).toEqual(['1']);
  });
});

describe('unsigned_long', () => {
  it('keeps whole numbers from 0, refuses negative and larger ones', async () => {
    await http(node.url, 'PUT', '/ulong', { mappings: { properties: { bytes: { type: 'unsigned_long' } } } });
    await bulk('ulong', [{ bytes: 0 }, { bytes: '9223372036854775807' }, { bytes: 42 }]);
    expect(await ids('ulong', { range: { bytes: { gt: 41 } } })).toEqual(['2', '3']);
    expect(await ids('ulong', { term: { bytes: '9223372036854775807' } })).toEqual(['2']);
    const sorted = await http(node.url, 'POST', '/ulong/_search', { sort: [{ bytes: 'desc' }] });
    // The largest value keeps every digit on the wire.
    expect(sorted.text).toContain('"sort":[9223372036854775807]');
    expect(sorted.json.hits.hits.map((h: { sort: unknown[] }) => h.sort[0]).slice(1)).toEqual([42, 0]);
    const negative = await http(node.url, 'PUT', '/ulong/_doc/9', { bytes: -1 });
    expect(negative.status).toBe(400);
    expect(negative.json.error.caused_by.reason).toBe('Value [-1] is out of range for unsigned long');
    const big = await http(node.url, 'PUT', '/ulong/_doc/9', { bytes: '18446744073709551615' });
    expect(big.status).toBe(400);
    expect(big.json.error.caused_by.reason).toContain('the largest unsigned_long value Shoal keeps');
    const caps = await http(node.url, 'GET', '/ulong/_field_caps?fields=bytes');
    expect(Object.keys(caps.json.fields.bytes)).toEqual(['unsigned_long']);
  });
});

describe('search_as_you_type', () => {
  it('finds documents by the start of their words', async () => {
    const created = await http(node.url, 'PUT', '/sayt', {
      mappings: { properties: { title: { type: 'search_as_you_type' } } },
    });
    expect(created.status).toBe(200);
    await bulk('sayt', [{ title: 'quick brown fox jump lazy dog' }, { title: 'brown dog sleeps' }]);
    const prefix = {
      multi_match: {
        query: 'brown f',
        type: 'bool_prefix',
        fields: ['title', 'title._2gram', 'title._3gram'],
      },
    };
    const res = await http(node.url, 'POST', '/sayt/_search', { query: prefix });
    expect(res.json.hits.hits[0]._id).toBe('1');
    expect(await ids('sayt', { term: { 'title._2gram': 'brown dog' } })).toEqual(['2']);
    expect(await ids('sayt', { term: { 'title._index_prefix': 'lazy d' } })).toEqual(['1']);
    const mapping = await http(node.url, 'GET', '/sayt/_mapping');
    expect(mapping.json.sayt.mappings.properties.title).toEqual({ type: 'search_as_you_type' });
    const bad = await http(node.url, 'PUT', '/sayt2', {
      mappings: { properties: { t: { type: 'search_as_you_type', max_shingle_size: 5 } } },
    });
    expect(bad.status).toBe(400);
  });
});
