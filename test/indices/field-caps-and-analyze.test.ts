/**
 * `_field_caps` (Elasticsearch's field_caps/10_basic) and `_analyze` (indices.analyze/10_analyze)
 * end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  const put = (name: string, properties: Record<string, unknown>) =>
    http(url, 'PUT', `/${name}`, { mappings: { properties } });
  await put('fc1', {
    text: { type: 'text' },
    keyword: { type: 'keyword' },
    number: { type: 'double' },
    geo: { type: 'geo_point' },
    misc: { type: 'text' },
    object: {
      type: 'object',
      properties: { nested1: { type: 'text', index: false }, nested2: { type: 'float', doc_values: false } },
    },
    level1: {
      type: 'nested',
      properties: { level2: { type: 'object', properties: { leaf1: { type: 'text', index: false } } } },
    },
  });
  await put('fc2', {
    text: { type: 'text' },
    keyword: { type: 'keyword' },
    number: { type: 'double' },
    date: { type: 'date' },
    geo: { type: 'geo_point' },
    object: {
      type: 'object',
      properties: { nested1: { type: 'text', index: true }, nested2: { type: 'float', doc_values: true } },
    },
    level1: {
      type: 'nested',
      properties: { level2: { type: 'object', properties: { leaf1: { type: 'text', index: false } } } },
    },
  });
  await put('fc3', {
    text: { type: 'text' },
    keyword: { type: 'keyword' },
    number: { type: 'long' },
    date: { type: 'date' },
    geo: { type: 'keyword' },
    object: {
      type: 'nested',
      properties: {
        nested1: { type: 'long', index: false },
        nested2: { type: 'keyword', doc_values: false },
      },
    },
    level1: {
      type: 'object',
      properties: { level2: { type: 'object', properties: { leaf1: { type: 'text', index: false } } } },
    },
  });
});
afterAll(async () => {
  await node?.stop();
});

describe('_field_caps', () => {
  it('simple fields over three indices', async () => {
    const r = await http(url, 'GET', '/fc1,fc2,fc3/_field_caps?fields=text,keyword,number,date,geo');
    expect(r.status, r.text).toBe(200);
    const f = r.json.fields;
    expect(r.json.indices).toEqual(['fc1', 'fc2', 'fc3']);
    expect(f.text.text).toEqual({
      type: 'text',
      metadata_field: false,
      searchable: true,
      aggregatable: false,
    });
    expect(f.keyword.keyword).toMatchObject({ searchable: true, aggregatable: true });
    expect(f.number.double).toMatchObject({ searchable: true, aggregatable: true, indices: ['fc1', 'fc2'] });
    expect(f.number.long).toMatchObject({ indices: ['fc3'] });
    expect(f.date.date.indices).toBeUndefined();
    expect(f.geo.geo_point).toMatchObject({ searchable: true, aggregatable: true, indices: ['fc1', 'fc2'] });
    expect(f.geo.keyword.indices).toEqual(['fc3']);
    expect(f.no_such_field).toBeUndefined();
  });

  it('leaves, objects and nested fields, with the indices that cannot search or aggregate', async () => {
    const r = await http(url, 'POST', '/fc1,fc2,fc3/_field_caps', { fields: ['object*', 'level1*'] });
    const f = r.json.fields;
    expect(f['object.nested1'].long).toMatchObject({ aggregatable: true, indices: ['fc3'] });
    expect(f['object.nested1'].text).toMatchObject({
      searchable: false,
      aggregatable: false,
      indices: ['fc1', 'fc2'],
      non_searchable_indices: ['fc1'],
    });
    expect(f['object.nested1'].text.non_aggregatable_indices).toBeUndefined();
    expect(f['object.nested2'].float).toMatchObject({
      searchable: true,
      aggregatable: false,
      non_aggregatable_indices: ['fc1'],
    });
    expect(f.object.object).toMatchObject({
      searchable: false,
      aggregatable: false,
      indices: ['fc1', 'fc2'],
    });
    expect(f.object.nested.indices).toEqual(['fc3']);
    expect(f['level1.level2'].object.indices).toBeUndefined();
    expect(f['level1.level2.leaf1'].text).toMatchObject({ searchable: false, aggregatable: false });
  });

  it('include_unmapped, metadata fields, filters and types', async () => {
    const u = await http(url, 'GET', '/fc1,fc2,fc3/_field_caps?fields=text,misc&include_unmapped=true');
    expect(u.json.fields.misc.text.indices).toEqual(['fc1']);
    expect(u.json.fields.misc.unmapped).toMatchObject({
      searchable: false,
      aggregatable: false,
      indices: ['fc2', 'fc3'],
    });
    const meta = await http(url, 'GET', '/fc1/_field_caps?fields=_id,_index');
    expect(meta.json.fields._id._id).toEqual({
      type: '_id',
      metadata_field: true,
      searchable: true,
      aggregatable: false,
    });
    const noMeta = await http(url, 'GET', '/fc1/_field_caps?fields=*&filters=-metadata,-parent');
    expect(Object.keys(noMeta.json.fields).some((k) => k.startsWith('_'))).toBe(false);
    expect(noMeta.json.fields.object).toBeUndefined();
    const types = await http(url, 'GET', '/fc1,fc2,fc3/_field_caps?fields=*&types=keyword');
    expect(Object.keys(types.json.fields).sort()).toEqual(['geo', 'keyword', 'object.nested2']);
  });

  it('errors', async () => {
    const none = await http(url, 'GET', '/fc1/_field_caps');
    expect(none.status).toBe(400);
    expect(none.json.error.reason).toMatch(/no fields specified/);
    const missing = await http(url, 'GET', '/nope/_field_caps?fields=*');
    expect(missing.status).toBe(404);
    const filter = await http(url, 'GET', '/fc1/_field_caps?fields=*&filters=bogus');
    expect(filter.status).toBe(400);
  });
});

describe('_analyze', () => {
  it('an analyzer by name, a list of texts, and a field of an index', async () => {
    const r = await http(url, 'POST', '/_analyze', { analyzer: 'standard', text: 'Foo Bar 42' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.tokens).toEqual([
      { token: 'foo', start_offset: 0, end_offset: 3, type: '<ALPHANUM>', position: 0 },
      { token: 'bar', start_offset: 4, end_offset: 7, type: '<ALPHANUM>', position: 1 },
      { token: '42', start_offset: 8, end_offset: 10, type: '<NUM>', position: 2 },
    ]);
    const list = await http(url, 'POST', '/_analyze', { analyzer: 'whitespace', text: ['a b', 'c'] });
    expect(
      list.json.tokens.map((t: { token: string; position: number; start_offset: number }) => [
        t.token,
        t.position,
        t.start_offset,
      ]),
    ).toEqual([
      ['a', 0, 0],
      ['b', 1, 2],
      ['c', 2, 4],
    ]);
    const field = await http(url, 'POST', '/fc1/_analyze', { field: 'text', text: ['one', 'two'] });
    expect(field.json.tokens.map((t: { position: number }) => t.position)).toEqual([0, 101]);
    const kw = await http(url, 'GET', '/fc1/_analyze?field=keyword&text=Hello%20World');
    expect(kw.json.tokens).toEqual([
      { token: 'Hello World', start_offset: 0, end_offset: 11, type: 'word', position: 0 },
    ]);
  });

  it('errors: no text, an unknown analyzer, a custom chain', async () => {
    const noText = await http(url, 'POST', '/_analyze', { analyzer: 'standard' });
    expect(noText.status).toBe(400);
    expect(noText.json.error.reason).toMatch(/text is missing/);
    const unknown = await http(url, 'POST', '/_analyze', { analyzer: 'nope', text: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toBe('failed to find global analyzer [nope]');
    const chain = await http(url, 'POST', '/_analyze', { tokenizer: 'nope', text: 'x' });
    expect(chain.status).toBe(400);
    expect(chain.json.error.reason).toBe('failed to find global tokenizer under [nope]');
    const normalizer = await http(url, 'POST', '/_analyze', {
      text: 'ABc',
      explain: true,
      filter: ['word_delimiter'],
    });
    expect(normalizer.status).toBe(400);
    expect(normalizer.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Custom normalizer may not use filter [word_delimiter]',
    });
    const named = await http(url, 'POST', '/_analyze', {
      analyzer: 'standard',
      filter: ['lowercase'],
      text: 'x',
    });
    expect(named.status).toBe(400);
    expect(named.json.error.reason).toContain('cannot define extra components on a named analyzer');
  });

  it('custom chains: tokenizer, filters and char filters, inline or by name', async () => {
    const r = await http(url, 'POST', '/_analyze', {
      text: 'kimchy is the <b>dude</b>',
      char_filter: ['html_strip'],
      tokenizer: 'whitespace',
      filter: ['uppercase', { type: 'synonym', synonyms: ['DUDE => MAN'] }],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.tokens).toEqual([
      { token: 'KIMCHY', start_offset: 0, end_offset: 6, type: 'word', position: 0 },
      { token: 'IS', start_offset: 7, end_offset: 9, type: 'word', position: 1 },
      { token: 'THE', start_offset: 10, end_offset: 13, type: 'word', position: 2 },
      { token: 'MAN', start_offset: 17, end_offset: 25, type: 'SYNONYM', position: 3 },
    ]);
    const q = await http(
      url,
      'GET',
      '/_analyze?tokenizer=keyword&filter=lowercase,asciifolding&text=%C3%89t%C3%A9',
    );
    expect(q.json.tokens.map((t: { token: string }) => t.token)).toEqual(['ete']);
  });

  it('components and analyzers an index defines in its analysis settings', async () => {
    const created = await http(url, 'PUT', '/an1', {
      settings: {
        index: {
          analysis: {
            tokenizer: { trigram: { type: 'ngram', min_gram: 3, max_gram: 3 } },
            filter: {
              synonym: { type: 'synonym', synonyms: ['kimchy => shay'] },
              syn2: {
                type: 'synonym',
                synonyms: [
                  '<p>kimchy</p> => shay',
                  'dude => <html>elasticsearch</html>',
                  '<font>abides</font> => man!',
                ],
              },
            },
            analyzer: {
              withCharfilter: {
                tokenizer: 'whitespace',
                char_filter: ['html_strip'],
                filter: ['syn2'],
              },
            },
            normalizer: { folding: { type: 'custom', filter: ['lowercase', 'asciifolding'] } },
          },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const tri = await http(url, 'POST', '/an1/_analyze', {
      tokenizer: 'trigram',
      filter: ['synonym'],
      text: 'kimchy',
    });
    expect(tri.status, tri.text).toBe(200);
    expect(tri.json.tokens.map((t: { token: string }) => t.token)).toEqual(['sha', 'hay']);
    const custom = await http(url, 'POST', '/an1/_analyze', {
      analyzer: 'withCharfilter',
      text: 'kimchy is the dude <html>abides</html>',
    });
    expect(custom.json.tokens.map((t: { token: string }) => t.token)).toEqual([
      'shay',
      'is',
      'the',
      'elasticsearch',
      'man!',
    ]);
    const norm = await http(url, 'POST', '/an1/_analyze', { normalizer: 'folding', text: 'ÉtÉ' });
    expect(norm.json.tokens).toEqual([
      { token: 'ete', start_offset: 0, end_offset: 3, type: 'word', position: 0 },
    ]);
    const lower = await http(url, 'POST', '/an1/_analyze', { normalizer: 'lowercase', text: 'AbC' });
    expect(lower.json.tokens[0].token).toBe('abc');
    const noIndex = await http(url, 'POST', '/_analyze', { normalizer: 'lowercase', text: 'AbC' });
    expect(noIndex.status).toBe(400);
    expect(noIndex.json.error.reason).toBe('analysis based on a normalizer requires an index');
  });

  it('explains each step of a custom chain, with the attributes asked for', async () => {
    const r = await http(url, 'POST', '/_analyze', {
      text: 'foo bar buzz',
      tokenizer: 'standard',
      explain: true,
      filter: [{ type: 'stop', stopwords: ['foo', 'buzz'] }],
    });
    expect(r.json.detail.custom_analyzer).toBe(true);
    expect(r.json.detail.tokenizer.name).toBe('standard');
    expect(r.json.detail.tokenizer.tokens).toHaveLength(3);
    expect(r.json.detail.tokenizer.tokens[0]).toEqual({
      token: 'foo',
      start_offset: 0,
      end_offset: 3,
      type: '<ALPHANUM>',
      position: 0,
      bytes: '[66 6f 6f]',
      positionLength: 1,
      termFrequency: 1,
    });
    expect(r.json.detail.tokenfilters[0].name).toBe('__anonymous__stop');
    expect(r.json.detail.tokenfilters[0].tokens.map((t: { token: string }) => t.token)).toEqual(['bar']);
    const attrs = await http(url, 'POST', '/_analyze', {
      text: '<text>This is troubled</text>',
      char_filter: ['html_strip'],
      filter: ['snowball'],
      tokenizer: 'standard',
      explain: true,
      attributes: ['keyword'],
    });
    const d = attrs.json.detail;
    expect(d.charfilters).toEqual([{ name: 'html_strip', filtered_text: ['This is troubled'] }]);
    expect(d.tokenizer.tokens[0].token).toBe('This');
    expect(d.tokenfilters[0].name).toBe('snowball');
    expect(
      d.tokenfilters[0].tokens.map((t: { token: string; keyword: boolean }) => [t.token, t.keyword]),
    ).toEqual([
      ['This', false],
      ['is', false],
      ['troubl', false],
    ]);
    expect(d.tokenfilters[0].tokens[0].bytes).toBeUndefined();
    const norm = await http(url, 'POST', '/_analyze', { text: 'ABc', explain: true, filter: ['lowercase'] });
    expect(norm.json.detail.tokenizer).toMatchObject({ name: 'keyword', tokens: [{ token: 'ABc' }] });
    expect(norm.json.detail.tokenfilters[0]).toMatchObject({ name: 'lowercase', tokens: [{ token: 'abc' }] });
  });
});

describe('_validate/query (indices.validate_query/10_basic)', () => {
  it('a valid query, by q or body, on an index or through an alias', async () => {
    await http(url, 'POST', '/_aliases', {
      actions: [{ add: { index: 'fc1', alias: 'fc_alias', filter: { match_all: {} } } }],
    });
    for (const path of [
      '/fc1/_validate/query?q=query%20string',
      '/fc_alias/_validate/query?q=query%20string',
    ]) {
      const r = await http(url, 'GET', path);
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ valid: true, _shards: { failed: 0 } });
    }
  });

  it('an unknown query is invalid, with the reason only when explained', async () => {
    const plain = await http(url, 'POST', '/fc1/_validate/query', { query: { invalid_query: {} } });
    expect(plain.status).toBe(200);
    expect(plain.json.valid).toBe(false);
    expect(plain.json.error).toBeUndefined();
    const explained = await http(url, 'POST', '/fc1/_validate/query?explain=true', { query: { boool: {} } });
    expect(explained.json.valid).toBe(false);
    expect(explained.json.error).toMatch(/.+unknown\squery\s\[boool\]\sdid\syou\smean\s\[bool\]\?.+/);
  });

  it('a body without a query element, and a query the mapping refuses', async () => {
    const noQuery = await http(url, 'POST', '/fc1/_validate/query?explain=true', { match_all: {} });
    expect(noQuery.json).toEqual({
      valid: false,
      error: 'org.elasticsearch.common.ParsingException: request does not support [match_all]',
    });
    const refused = await http(url, 'POST', '/fc1/_validate/query?explain=true', {
      query: { range: { geo: { gte: 'x' } } },
    });
    expect(refused.json.valid).toBe(false);
    expect(refused.json.explanations[0]).toMatchObject({ index: 'fc1', valid: false });
  });

  it('explains a valid query as Lucene prints it, rewritten on shards when asked', async () => {
    const all = await http(url, 'GET', '/fc1/_validate/query?explain=true');
    expect(all.json).toMatchObject({ valid: true, _shards: { failed: 0 } });
    expect(all.json.explanations).toEqual([{ index: 'fc1', valid: true, explanation: '*:*' }]);
    const body = {
      query: {
        bool: {
          should: [{ match: { text: 'Foo Bar' } }],
          must: [{ term: { keyword: 'x' } }],
          filter: [{ range: { number: { gte: 1 } } }],
        },
      },
    };
    const r = await http(url, 'POST', '/fc1/_validate/query?explain=true', body);
    expect(r.json.explanations[0].explanation).toBe(
      '+keyword:x (text:foo text:bar) #number:[1.0 TO Infinity]',
    );
    const q = await http(url, 'GET', '/fc1/_validate/query?explain=true&q=text:hello');
    expect(q.json.explanations[0].explanation).toBe('text:hello');
    const rewritten = await http(url, 'POST', '/fc1/_validate/query?explain=true&rewrite=true', body);
    expect(rewritten.json.explanations).toEqual([
      { index: 'fc1', valid: true, explanation: '+keyword:x (text:foo text:bar) #number:[1.0 TO Infinity]' },
    ]);
    const perShard = await http(
      url,
      'POST',
      '/fc1,fc2/_validate/query?explain=true&rewrite=true&all_shards=true',
      {
        query: { match_phrase: { text: 'a b' } },
      },
    );
    expect(perShard.json._shards.total).toBe(perShard.json.explanations.length);
    expect(perShard.json.explanations[0]).toEqual({
      index: 'fc1',
      shard: 0,
      valid: true,
      explanation: 'text:"a b"',
    });
  });
});
