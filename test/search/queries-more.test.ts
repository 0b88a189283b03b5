/**
 * The less common queries end to end, on one node: `terms` with a document lookup, `pinned`
 * and `distance_feature` — the answers of Elasticsearch's own tests for them (170_terms_query,
 * 250_distance_feature, the pinned query's docs), and their parse errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http, ndjson } from '../support/http.ts';
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
