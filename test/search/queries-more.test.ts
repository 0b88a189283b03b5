/**
 * The less common queries end to end, on one node: `terms` with a document lookup, `pinned`,
 * `distance_feature`, `rank_feature` (with the rank_feature and rank_features field types) and
 * `intervals`, `more_like_this`, and `collapse` with `search_after` and `inner_hits` —
 * the answers of Elasticsearch's own tests for them (170_terms_query, 250_distance_feature,
 * rank_feature/10_basic and 20_null_value, rank_features/10_basic, 230_interval_query, mlt/10_basic,
 * 20_docs and 30_unlike, 110_field_collapsing, the pinned query's docs),
 * and their errors; and request and response bodies in YAML and CBOR.
 */

import { decode as decodeCbor, encode as encodeCbor } from 'cborg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { basicAuth, http, ndjson, rawHttp, TEST_AUTH } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const search = (index: string, body: unknown, headers: Record<string, string> = {}) =>
  http(node.url, 'POST', `/${index}/_search`, body, headers);
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id);

beforeAll(async () => {
  node = await startTestNode();
  const creates: [string, unknown][] = [
    [
      'users',
      {
        settings: { number_of_shards: 1, 'index.max_terms_count': 2 },
        mappings: { properties: { user: { type: 'keyword' }, followers: { type: 'keyword' } } },
      },
    ],
    [
      'lookups',
      { settings: { number_of_shards: 2 }, mappings: { properties: { who: { type: 'keyword' } } } },
    ],
    [
      'places',
      {
        settings: { number_of_shards: 2 },
        mappings: {
          properties: {
            my_date: { type: 'date' },
            my_date_nanos: { type: 'date_nanos' },
            my_geo: { type: 'geo_point' },
            title: { type: 'text' },
            tag: { type: 'keyword' },
          },
        },
      },
    ],
    [
      'texts',
      {
        settings: { number_of_shards: 2 },
        mappings: { properties: { text: { type: 'text', analyzer: 'standard' } } },
      },
    ],
    ['mlt', { settings: { number_of_shards: 1 } }],
    [
      'groups',
      {
        settings: { number_of_shards: 2 },
        mappings: { properties: { numeric_group: { type: 'integer' }, tag: { type: 'keyword' } } },
      },
    ],
    [
      'ranks',
      {
        settings: { number_of_shards: 1 },
        mappings: {
          properties: {
            pagerank: { type: 'rank_feature', null_value: 100 },
            url_length: { type: 'rank_feature', positive_score_impact: false },
            tags: { type: 'rank_features' },
          },
        },
      },
    ],
  ];
  for (const [index, body] of creates)
    expect((await http(node.url, 'PUT', `/${index}`, body)).status).toBe(200);
  const docs: [string, string, unknown][] = [
    ['users', 'u1', { user: 'u1', followers: ['u2', 'u3'] }],
    ['users', 'u2', { user: 'u2', followers: ['u1', 'u3', 'u4'] }],
    ['users', 'u3', { user: 'u3', followers: ['u1'] }],
    ['users', 'u4', { user: 'u4', followers: ['u3'] }],
    ['lookups', 'l1', { group: { members: [{ who: 'u4' }, { who: 'u1' }] } }],
    [
      'places',
      '1',
      {
        my_date: '2018-02-01T10:00:00Z',
        my_date_nanos: '2018-02-01T00:00:00.223456789Z',
        my_geo: [-71.34, 41.13],
        title: 'quick brown fox',
        tag: 'a',
      },
    ],
    [
      'places',
      '2',
      {
        my_date: '2018-02-01T11:00:00Z',
        my_date_nanos: '2018-02-01T00:00:00.123456789Z',
        my_geo: [-71.34, 41.14],
        title: 'quick fox',
        tag: 'b',
      },
    ],
    [
      'places',
      '3',
      {
        my_date: '2018-02-01T09:00:00Z',
        my_date_nanos: '2018-02-01T00:00:00.323456789Z',
        my_geo: [-71.34, 41.12],
        title: 'lazy dog',
        tag: 'c',
      },
    ],
    ['places', '4', { title: 'the quick brown fox jumps', tag: 'd' }],
    ['texts', '1', { text: 'Some like it hot, some like it cold' }],
    ['texts', '2', { text: 'Its cold outside, theres no kind of atmosphere' }],
    ['texts', '3', { text: 'Baby its cold there outside' }],
    ['texts', '4', { text: 'Outside it is cold and wet' }],
    ['texts', '5', { text: 'the big bad wolf' }],
    ['texts', '6', { text: 'the big wolf' }],
    ['groups', '1', { numeric_group: 1, tag: 'A', sort: 10 }],
    ['groups', '2', { numeric_group: 1, tag: 'B', sort: 6 }],
    ['groups', '3', { numeric_group: 1, tag: 'A', sort: 24 }],
    ['groups', '4', { numeric_group: 25, tag: 'B', sort: 10 }],
    ['groups', '5', { numeric_group: 25, tag: 'A', sort: 5 }],
    ['groups', '6', { numeric_group: 3, tag: 'B', sort: 36 }],
    ['mlt', '1', { foo: 'bar baz selected', title: 'howdy' }],
    ['mlt', '2', { foo: 'bar' }],
    ['mlt', '3', { foo: 'bar baz' }],
    ['ranks', '1', { pagerank: 10, url_length: 50, tags: { foo: 3, bar: 5 } }],
    ['ranks', '2', { pagerank: 100, url_length: 20, tags: { bar: 6, quux: 10 } }],
    ['ranks', '3', { pagerank: null, url_length: null }],
  ];
  const bulk = await http(
    node.url,
    'POST',
    '/_bulk?refresh=true',
    ndjson(docs.flatMap(([index, id, doc]) => [{ index: { _index: index, _id: id } }, doc])),
  );
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

describe('terms lookup', () => {
  it("matches the values of the looked-up document's path, within index.max_terms_count", async () => {
    const ok = await search('users', {
      query: { terms: { user: { index: 'users', id: 'u1', path: 'followers' } } },
    });
    expect(ok.status).toBe(200);
    expect(ids(ok).sort()).toEqual(['u2', 'u3']);
    const tooMany = await search('users', {
      query: { terms: { user: { index: 'users', id: 'u2', path: 'followers' } } },
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.json.error)).toContain('has exceeded the allowed maximum of [2]');
  });

  it('reads paths through arrays of objects in another index, in _count too; a missing document matches nothing', async () => {
    const lookup = { terms: { user: { index: 'lookups', id: 'l1', path: 'group.members.who' } } };
    const r = await search('users', { query: lookup });
    expect(ids(r).sort()).toEqual(['u1', 'u4']);
    const count = await http(node.url, 'POST', '/users/_count', { query: lookup });
    expect(count.json.count).toBe(2);
    const missing = await search('users', {
      query: { terms: { user: { index: 'lookups', id: 'nope', path: 'who' } } },
    });
    expect(missing.status).toBe(200);
    expect(missing.json.hits.total.value).toBe(0);
    const noIndex = await search('users', {
      query: { terms: { user: { index: 'no-such-index', id: 'x', path: 'who' } } },
    });
    expect(noIndex.status).toBe(404);
    expect(noIndex.json.error.type).toBe('index_not_found_exception');
  });

  it("refuses a lookup without id or path, an unknown key, and a user who cannot read the lookup's index", async () => {
    const noPath = await search('users', { query: { terms: { user: { index: 'users', id: 'u1' } } } });
    expect(noPath.status).toBe(400);
    expect(noPath.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [path]',
    });
    const unknown = await search('users', {
      query: { terms: { user: { index: 'users', id: 'u1', path: 'followers', colour: 'x' } } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toContain('[terms_lookup] unknown field [colour]');
    const role = await http(node.url, 'PUT', '/_security/role/users_only', {
      indices: [{ names: ['users'], privileges: ['read'] }],
    });
    expect(role.status).toBe(200);
    const user = await http(node.url, 'PUT', '/_security/user/lookup_tester', {
      password: 'lookup-tester-pw',
      roles: ['users_only'],
    });
    expect(user.status).toBe(200);
    const denied = await search(
      'users',
      { query: { terms: { user: { index: 'lookups', id: 'l1', path: 'group.members.who' } } } },
      { authorization: basicAuth('lookup_tester', 'lookup-tester-pw') },
    );
    expect(denied.status).toBe(403);
    expect(denied.json.error.type).toBe('security_exception');
  });
});

describe('pinned', () => {
  it('puts the pinned ids first, in their order, above every organic hit', async () => {
    const r = await search('places', {
      query: { pinned: { ids: ['3', 'missing', '2'], organic: { match: { title: 'quick' } } } },
    });
    expect(r.status).toBe(200);
    expect(ids(r).slice(0, 2)).toEqual(['3', '2']);
    expect(ids(r).slice(2).sort()).toEqual(['1', '4']);
    const [first, second, third] = r.json.hits.hits;
    expect(first._score).toBeGreaterThan(second._score);
    expect(second._score).toBeGreaterThan(1e38);
    expect(third._score).toBeLessThan(10);
  });

  it('pins docs by index, leaving another index out, and refuses ids with docs or duplicates', async () => {
    const r = await search('places,users', {
      query: {
        pinned: {
          docs: [
            { _index: 'users', _id: '4' },
            { _index: 'places', _id: '4' },
          ],
          organic: { term: { tag: 'c' } },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits.map((h: { _index: string; _id: string }) => `${h._index}/${h._id}`)).toEqual([
      'places/4',
      'places/3',
    ]);
    const both = await search('places', {
      query: { pinned: { ids: ['1'], docs: [{ _id: '1' }], organic: { match_all: {} } } },
    });
    expect(both.status).toBe(400);
    expect(both.json.error).toMatchObject({
      type: 'parsing_exception',
      reason: '[pinned] ids and docs cannot both be used',
    });
    const dup = await search('places', {
      query: { pinned: { ids: ['1', '1'], organic: { match_all: {} } } },
    });
    expect(dup.json.error.reason).toBe('[pinned] duplicate id found in list: 1');
    const noOrganic = await search('places', { query: { pinned: { ids: ['1'] } } });
    expect(noOrganic.json.error.reason).toBe('Required [organic]');
  });
});

describe('distance_feature', () => {
  it('ranks dates by their distance to the origin (date and date_nanos)', async () => {
    const dates = await search('places', {
      query: { distance_feature: { field: 'my_date', pivot: '1h', origin: '2018-02-01T08:00:30Z' } },
    });
    expect(ids(dates)).toEqual(['3', '1', '2']);
    // pivot / (pivot + distance): 3600 s / (3600 s + 3570 s)
    expect(dates.json.hits.hits[0]._score).toBeCloseTo(3600 / (3600 + 3570), 7);
    const nanos = await search('places', {
      query: {
        distance_feature: {
          field: 'my_date_nanos',
          pivot: '100000000nanos',
          origin: '2018-02-01T00:00:00.323456789Z',
        },
      },
    });
    expect(ids(nanos)).toEqual(['3', '1', '2']);
    expect(nanos.json.hits.hits[0]._score).toBe(1);
    expect(nanos.json.hits.hits[1]._score).toBe(0.5);
  });

  it('ranks geo points by their distance, scales with the boost, and refuses other field types', async () => {
    const geo = await search('places', {
      query: { distance_feature: { field: 'my_geo', pivot: '1km', origin: [-71.35, 41.12], boost: 2 } },
    });
    expect(ids(geo)).toEqual(['3', '1', '2']);
    expect(geo.json.hits.hits[0]._score).toBeLessThan(2);
    expect(geo.json.hits.hits[0]._score).toBeGreaterThan(1);
    const wrongType = await search('places', {
      query: { distance_feature: { field: 'tag', pivot: '1km', origin: 'x' } },
    });
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(wrongType.json.error)).toContain(
      'Illegal data type of [keyword]![distance_feature] query can only be run on a date, date_nanos or geo_point field type!',
    );
    const missing = await search('places', {
      query: { distance_feature: { field: 'my_date', origin: 'now' } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [pivot]',
    });
  });
});

describe('rank_feature', () => {
  const rank = (field: string, fn: Record<string, unknown> = {}) =>
    search('ranks', { query: { rank_feature: { field, ...fn } } });

  it('orders by every function on a positive and a negative feature; null_value stands in for null', async () => {
    for (const fn of [
      { log: { scaling_factor: 3 } },
      { saturation: { pivot: 20 } },
      { sigmoid: { pivot: 20, exponent: 0.6 } },
      { linear: {} },
    ]) {
      const r = await search('ranks', {
        query: {
          bool: {
            filter: { ids: { values: ['1', '2'] } },
            must: { rank_feature: { field: 'pagerank', ...fn } },
          },
        },
      });
      expect(ids(r)).toEqual(['2', '1']);
    }
    for (const fn of [
      { saturation: { pivot: 20 } },
      { sigmoid: { pivot: 20, exponent: 0.6 } },
      { linear: {} },
    ]) {
      expect(ids(await rank('url_length', fn))).toEqual(['2', '1']);
    }
    const negLog = await rank('url_length', { log: { scaling_factor: 3 } });
    expect(negLog.status).toBe(400);
    expect(JSON.stringify(negLog.json.error)).toContain(
      'Cannot use the [log] function with a field that has a negative score impact',
    );
    // Doc 3's pagerank is null, indexed as its null_value 100: it ties with doc 2.
    const nulls = await rank('pagerank');
    expect(nulls.json.hits.total.value).toBe(3);
    expect(ids(nulls).slice(2)).toEqual(['1']);
  });

  it('reads the features of rank_features fields, with linear scores equal to the values', async () => {
    const r = await rank('tags.bar', { linear: {} });
    expect(r.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).toEqual([
      ['2', 6],
      ['1', 5],
    ]);
    expect(ids(await rank('tags.bar', { log: { scaling_factor: 3 } }))).toEqual(['2', '1']);
    expect((await rank('tags.nothing')).json.hits.total.value).toBe(0);
  });

  it('refuses two functions, non-positive values and null_value, and other field types', async () => {
    const two = await rank('pagerank', { linear: {}, log: { scaling_factor: 3 } });
    expect(two.status).toBe(400);
    expect(two.json.error.reason).toContain('The following fields are not allowed together: [linear, log]');
    const wrongField = await search('places', { query: { rank_feature: { field: 'tag' } } });
    expect(wrongField.status).toBe(400);
    expect(JSON.stringify(wrongField.json.error)).toContain(
      '[rank_feature] query only works on [rank_feature] fields',
    );
    const negative = await http(node.url, 'PUT', '/ranks/_doc/bad?refresh=true', { pagerank: -1 });
    expect(negative.status).toBe(400);
    expect(negative.json.error.type).toBe('document_parsing_exception');
    expect(negative.json.error.reason).toContain('failed to parse field [pagerank] of type [rank_feature]');
    const empty = await http(node.url, 'PUT', '/ranks/_doc/bad', { pagerank: '' });
    expect(empty.status).toBe(400);
    const twice = await http(node.url, 'PUT', '/ranks/_doc/bad', { pagerank: [1, 2] });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.json.error)).toContain(
      '[rank_feature] fields do not support indexing multiple values',
    );
    for (const body of [{ sort: ['pagerank'] }, { size: 0, aggs: { a: { max: { field: 'pagerank' } } } }]) {
      const refused = await search('ranks', body);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.json.error)).toContain(
        '[rank_feature] fields do not support sorting, scripting or aggregating',
      );
    }
    const caps = await http(node.url, 'GET', '/ranks/_field_caps?fields=pagerank,tags');
    expect(caps.json.fields.pagerank.rank_feature).toMatchObject({ searchable: true, aggregatable: false });
    expect(caps.json.fields.tags.rank_features).toMatchObject({ aggregatable: false });
    const badNull = await http(node.url, 'PUT', '/ranks-bad', {
      mappings: { properties: { pagerank: { type: 'rank_feature', null_value: -3 } } },
    });
    expect(badNull.status).toBe(400);
    expect(JSON.stringify(badNull.json.error)).toContain(
      '[null_value] must be a positive normal float for field of type [rank_feature]',
    );
  });
});

describe('intervals', () => {
  const intervals = (rule: unknown) => search('texts', { query: { intervals: { text: rule } } });

  it('counts the matches of ordered, gapped and filtered rules across shards', async () => {
    const total = async (rule: unknown) => (await intervals(rule)).json.hits.total.value;
    expect(await total({ match: { query: 'cold outside', ordered: true } })).toBe(2);
    expect(await total({ match: { query: 'cold outside' } })).toBe(3);
    expect(await total({ match: { query: 'cold outside', ordered: true, max_gaps: 0 } })).toBe(1);
    expect(
      await total({ match: { query: 'cold', filter: { before: { match: { query: 'outside' } } } } }),
    ).toBe(2);
    expect(
      await total({ all_of: { intervals: [{ fuzzy: { term: 'cald' } }, { prefix: { prefix: 'out' } }] } }),
    ).toBe(3);
  });

  it('ranks the narrower of two matches first, and refuses a script filter with a 501', async () => {
    const r = await intervals({
      all_of: {
        intervals: [
          { match: { query: 'the' } },
          { any_of: { intervals: [{ match: { query: 'big' } }, { match: { query: 'big bad' } }] } },
          { match: { query: 'wolf' } },
        ],
        max_gaps: 0,
        ordered: true,
      },
    });
    expect(ids(r)).toEqual(['6', '5']);
    const script = await intervals({ match: { query: 'cold', filter: { script: { source: 'true' } } } });
    expect(script.status).toBe(501);
    const unknown = await intervals({ near: { query: 'cold' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('parsing_exception');
  });
});

describe('more_like_this', () => {
  const mlt = (body: Record<string, unknown>) => search('mlt', { query: { more_like_this: body } });

  it('likes stored and artificial documents, fetched by the coordinator, and drops the unliked terms', async () => {
    const docs = await mlt({
      like: [{ _index: 'mlt', doc: { foo: 'bar' } }, { _index: 'mlt', _id: '2' }, { _id: '3' }],
      include: true,
      min_doc_freq: 0,
      min_term_freq: 0,
    });
    expect(docs.status).toBe(200);
    expect(docs.json.hits.total.value).toBe(3);
    const unlike = await mlt({
      like: { _index: 'mlt', _id: '1' },
      unlike: { _index: 'mlt', _id: '3' },
      include: true,
      min_doc_freq: 0,
      min_term_freq: 0,
    });
    expect(ids(unlike)).toEqual(['1']);
    // Without include, the liked document itself is left out.
    const excluded = await mlt({ like: { _id: '1' }, min_doc_freq: 0, min_term_freq: 0 });
    expect(ids(excluded).sort()).toEqual(['2', '3']);
    // mlt/10_basic: a field the liked document's terms are too rare in matches nothing.
    expect((await mlt({ like: [{ _id: '1' }], fields: ['title'] })).json.hits.total.value).toBe(0);
  });

  it('refuses a query without like, and items with both _id and doc', async () => {
    const noLike = await mlt({ fields: ['foo'] });
    expect(noLike.status).toBe(400);
    expect(noLike.json.error.reason).toBe("more_like_this requires 'like' to be specified");
    const both = await mlt({ like: [{ _id: '1', doc: { foo: 'x' } }] });
    expect(both.status).toBe(400);
    expect(both.json.error.type).toBe('parse_exception');
  });
});

describe('collapse', () => {
  it('pages with search_after on the collapse field, and refuses another sort', async () => {
    const first = await search('groups', {
      collapse: { field: 'numeric_group' },
      sort: [{ numeric_group: 'desc' }],
      size: 1,
    });
    expect(first.json.hits.total.value).toBe(6);
    expect(first.json.hits.hits.map((h: { sort: number[] }) => h.sort[0])).toEqual([25]);
    const next = await search('groups', {
      collapse: { field: 'numeric_group' },
      sort: [{ numeric_group: 'desc' }],
      search_after: [25],
      size: 2,
    });
    expect(next.json.hits.total.value).toBe(6);
    expect(
      next.json.hits.hits.map((h: { fields: { numeric_group: number[] } }) => h.fields.numeric_group),
    ).toEqual([[3], [1]]);
    const bad = await search('groups', {
      collapse: { field: 'numeric_group' },
      search_after: [6],
      sort: [{ sort: 'desc' }],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.error)).toContain(
      'Cannot use [collapse] in conjunction with [search_after] unless the search is sorted on the same field. Multiple sort fields are not allowed.',
    );
  });

  it("gives each group's inner hits, several definitions, with their own sort, size and version", async () => {
    const r = await http(node.url, 'POST', '/groups/_search?rest_total_hits_as_int=true', {
      collapse: {
        field: 'numeric_group',
        inner_hits: [
          { name: 'sub_hits_asc', size: 2, sort: [{ sort: 'asc' }], version: true, fields: ['tag'] },
          { name: 'sub_hits_desc', size: 1, sort: [{ sort: 'desc' }] },
        ],
      },
      sort: [{ sort: 'desc' }],
    });
    expect(r.status).toBe(200);
    const hits = r.json.hits.hits as {
      _id: string;
      inner_hits: Record<
        string,
        { hits: { total: number; hits: { _id: string; fields?: { tag: string[] } }[] } }
      >;
    }[];
    expect(hits.map((h) => h._id)).toEqual(['6', '3', '4']);
    const asc = hits.map((h) => h.inner_hits.sub_hits_asc!.hits);
    expect(asc.map((x) => x.total)).toEqual([1, 3, 2]);
    expect(asc.map((x) => x.hits.map((h) => h._id))).toEqual([['6'], ['2', '1'], ['5', '4']]);
    expect(asc[1]!.hits.map((h) => h.fields?.tag)).toEqual([['B'], ['A']]);
    expect(hits.map((h) => h.inner_hits.sub_hits_desc!.hits.hits.map((x) => x._id))).toEqual([
      ['6'],
      ['3'],
      ['4'],
    ]);
    const dup = await search('groups', {
      collapse: { field: 'numeric_group', inner_hits: [{ name: 'a' }, { name: 'a' }] },
    });
    expect(dup.status).toBe(400);
    const none = await search('groups', {
      size: 0,
      collapse: { field: 'numeric_group', inner_hits: { name: 'sub', size: 1 } },
    });
    expect(none.json.hits.max_score).toBeNull();
  });
});

describe('YAML and CBOR bodies', () => {
  it('takes a YAML search and answers in YAML, or in JSON when Accept asks for it', async () => {
    const body = 'query:\n  terms:\n    user: [u1, u2]\nsort: [user]\n';
    const yaml = await rawHttp(node.url, 'POST', '/users/_search', body, {
      'content-type': 'application/yaml',
    });
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(yaml.text.startsWith('---\n')).toBe(true);
    const parsed = parseYaml(yaml.text);
    expect(parsed.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['u1', 'u2']);
    const json = await rawHttp(node.url, 'POST', '/users/_search', body, {
      'content-type': 'application/yaml',
      accept: 'application/json',
    });
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.json.hits.total.value).toBe(2);
    const bad = await rawHttp(node.url, 'POST', '/users/_search', 'query: [1,', {
      'content-type': 'application/yaml',
    });
    expect(bad.status).toBe(400);
    expect(parseYaml(bad.text).error.type).toBe('x_content_parse_exception');
  });

  it('takes a CBOR document and search, answers CBOR, and honours format=yaml', async () => {
    const doc = Buffer.from(encodeCbor({ user: 'u9', followers: ['u1'] }));
    const put = await rawHttp(node.url, 'PUT', '/users/_doc/u9?refresh=true', doc, {
      'content-type': 'application/cbor',
      accept: 'application/json',
    });
    expect(put.status).toBe(201);
    const search = Buffer.from(encodeCbor({ query: { term: { user: 'u9' } } }));
    const r = await rawHttpBytes('/users/_search', search, { 'content-type': 'application/cbor' });
    expect(r.contentType).toBe('application/cbor');
    const answer = decodeCbor(r.bytes) as { hits: { hits: { _source: unknown }[] } };
    expect(answer.hits.hits[0]!._source).toEqual({ user: 'u9', followers: ['u1'] });
    const asYaml = await http(node.url, 'GET', '/users/_doc/u9?format=yaml');
    expect(asYaml.headers['content-type']).toBe('application/yaml');
    expect(parseYaml(asYaml.text)._source.user).toBe('u9');
    const cat = await http(node.url, 'GET', '/_cat/indices/users?format=yaml&h=index');
    expect(parseYaml(cat.text)).toEqual([{ index: 'users' }]);
  });
});

/** A POST whose answer is kept as bytes (CBOR is not text). */
async function rawHttpBytes(path: string, body: Buffer, headers: Record<string, string>) {
  const res = await fetch(new URL(path, node.url), {
    method: 'POST',
    body,
    headers: { ...headers, authorization: basicAuth(TEST_AUTH.username, TEST_AUTH.password) },
  });
  return { contentType: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}
