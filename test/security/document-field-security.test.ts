import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

const PASSWORD = 'dls-fls-password';
const as = (user: string) => ({ authorization: basicAuth(user, PASSWORD) });

let node: TestNode;
const docs: Record<string, Record<string, unknown>> = {
  '1': {
    owner: 'ann',
    public: true,
    title: 'alpha report',
    secret: 's1',
    n: 1,
    addr: { city: 'c1', zip: 'z1' },
  },
  '2': {
    owner: 'bob',
    public: false,
    title: 'beta report',
    secret: 's2',
    n: 2,
    addr: { city: 'c2', zip: 'z2' },
  },
  '3': {
    owner: 'ann',
    public: false,
    title: 'gamma report',
    secret: 's3',
    n: 3,
    addr: { city: 'c3', zip: 'z3' },
  },
  '4': {
    owner: 'carl',
    public: true,
    title: 'delta report',
    secret: 's4',
    n: 4,
    addr: { city: 'c4', zip: 'z4' },
  },
};

const roles: Record<string, unknown> = {
  dls_public: { indices: [{ names: ['docs'], privileges: ['read'], query: { term: { public: true } } }] },
  dls_own: {
    indices: [
      {
        names: ['docs*'],
        privileges: ['read', 'write'],
        query: { template: { source: { term: { owner: '{{_user.username}}' } } } },
      },
    ],
  },
  full_read: { indices: [{ names: ['docs'], privileges: ['read'] }] },
  fls_most: {
    indices: [
      {
        names: ['docs'],
        privileges: ['read', 'view_index_metadata'],
        field_security: { grant: ['*'], except: ['secret', 'addr.zip'] },
      },
    ],
  },
  fls_title: { indices: [{ names: ['docs'], privileges: ['read'], field_security: { grant: ['title'] } }] },
  fls_n: { indices: [{ names: ['docs'], privileges: ['read'], field_security: { grant: ['n'] } }] },
};

const users: Record<string, string[]> = {
  ann: ['dls_own'],
  bob: ['dls_public', 'dls_own'],
  both: ['dls_public', 'full_read'],
  fred: ['fls_most'],
  fay: ['fls_title', 'fls_n'],
};

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/docs', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: {
        owner: { type: 'keyword' },
        public: { type: 'boolean' },
        title: { type: 'text' },
        secret: { type: 'keyword' },
        n: { type: 'long' },
        addr: { properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } } },
      },
    },
  });
  const lines = Object.entries(docs).flatMap(([id, d]) => [{ index: { _index: 'docs', _id: id } }, d]);
  await http(node.url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  for (const [name, body] of Object.entries(roles)) {
    const r = await http(node.url, 'PUT', `/_security/role/${name}`, body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
  for (const [name, rs] of Object.entries(users)) {
    await http(node.url, 'PUT', `/_security/user/${name}`, { password: PASSWORD, roles: rs });
  }
}, 60_000);
afterAll(async () => {
  await node?.stop();
});

const ids = (body: { hits: { hits: { _id: string }[] } }) => body.hits.hits.map((h) => h._id).sort();

describe('document-level security', () => {
  it('limits search, count, aggregations (global ones too) and msearch to the role query', async () => {
    const search = (user: string, body: unknown = {}) =>
      http(node.url, 'POST', '/docs/_search', body, as(user)).then((r) => r.json);
    expect(ids(await search('ann'))).toEqual(['1', '3']);
    // Several roles on one index: the OR of their queries; one without a query: everything.
    expect(ids(await search('bob'))).toEqual(['1', '2', '4']);
    expect(ids(await search('both'))).toEqual(['1', '2', '3', '4']);
    expect((await http(node.url, 'GET', '/docs/_count', undefined, as('ann'))).json.count).toBe(2);
    const aggs = await search('ann', {
      size: 0,
      query: { match: { title: 'report' } },
      aggs: { owners: { terms: { field: 'owner' } }, all: { global: {} } },
    });
    expect(aggs.hits.total.value).toBe(2);
    expect(aggs.aggregations.owners.buckets).toEqual([{ key: 'ann', doc_count: 2 }]);
    expect(aggs.aggregations.all.doc_count).toBe(2);
    const m = await http(
      node.url,
      'POST',
      '/_msearch',
      ndjson([{ index: 'docs' }, { query: { match_all: {} } }]),
      { ...as('ann'), 'content-type': 'application/x-ndjson' },
    );
    expect(ids(m.json.responses[0])).toEqual(['1', '3']);
  });

  it('hides documents from get, mget and explain', async () => {
    const hidden = await http(node.url, 'GET', '/docs/_doc/2', undefined, as('ann'));
    expect(hidden.status).toBe(404);
    expect(hidden.json).toEqual({ _index: 'docs', _id: '2', found: false });
    expect((await http(node.url, 'GET', '/docs/_doc/1', undefined, as('ann'))).json._source.owner).toBe(
      'ann',
    );
    const m = await http(node.url, 'POST', '/docs/_mget', { ids: ['1', '2'] }, as('ann'));
    expect(m.json.docs.map((d: { found: boolean }) => d.found)).toEqual([true, false]);
    // Realtime: a document not refreshed yet is judged too (and may be written: not an update).
    const put = await http(node.url, 'PUT', '/docs/_doc/5', { owner: 'ann', n: 5 }, as('ann'));
    expect(put.status).toBe(201);
    expect((await http(node.url, 'GET', '/docs/_doc/5', undefined, as('ann'))).json.found).toBe(true);
    await http(node.url, 'PUT', '/docs/_doc/6', { owner: 'bob', n: 6 });
    expect((await http(node.url, 'GET', '/docs/_doc/6', undefined, as('ann'))).json.found).toBe(false);
    await http(node.url, 'DELETE', '/docs/_doc/5?refresh=true');
    await http(node.url, 'DELETE', '/docs/_doc/6?refresh=true');
    const explain = await http(node.url, 'POST', '/docs/_explain/2', { query: { match_all: {} } }, as('ann'));
    expect(explain.json.matched).toBe(false);
    // A search's explained hits are explained on the documents the role lets it see, as `_explain`.
    const query = { match: { title: 'report' } };
    const searched = await http(node.url, 'POST', '/docs/_search', { query, explain: true }, as('ann'));
    expect(ids(searched.json).sort()).toEqual(['1', '3']);
    for (const hit of searched.json.hits.hits) {
      const one = await http(node.url, 'POST', `/docs/_explain/${hit._id}`, { query }, as('ann'));
      expect(hit._explanation).toEqual(one.json.explanation);
      expect(Math.fround(hit._explanation.value)).toBe(Math.fround(hit._score));
    }
  });

  it('keeps the restriction on every scroll page and point-in-time search', async () => {
    const first = await http(node.url, 'POST', '/docs/_search?scroll=1m', { size: 1 }, as('ann'));
    const seen = ids(first.json);
    const next = await http(
      node.url,
      'POST',
      '/_search/scroll',
      { scroll_id: first.json._scroll_id },
      as('ann'),
    );
    expect(next.status, JSON.stringify(next.json)).toBe(200);
    seen.push(...ids(next.json));
    expect(first.json.hits.total.value).toBe(2);
    expect(seen.sort()).toEqual(['1', '3']);
    const pit = await http(node.url, 'POST', '/docs/_pit?keep_alive=1m', undefined, as('ann'));
    const paged = await http(node.url, 'POST', '/_search', { pit: { id: pit.json.id } }, as('ann'));
    expect(ids(paged.json)).toEqual(['1', '3']);
  });

  it('refuses updates, alone and in a bulk, where a role query applies', async () => {
    const update = await http(node.url, 'POST', '/docs/_update/1', { doc: { n: 10 } }, as('ann'));
    expect(update.status).toBe(400);
    expect(update.json.error.type).toBe('security_exception');
    expect(update.json.error.reason).toBe(
      "Can't execute an update request if field or document level security is enabled",
    );
    const bulk = await http(
      node.url,
      'POST',
      '/_bulk',
      ndjson([{ update: { _index: 'docs', _id: '1' } }, { doc: { n: 10 } }]),
      { ...as('ann'), 'content-type': 'application/x-ndjson' },
    );
    expect(bulk.json.items[0].update.status).toBe(400);
    expect(bulk.json.items[0].update.error.reason).toBe(
      "Can't execute a bulk item request with update requests embedded if field or document level security is enabled",
    );
    expect((await http(node.url, 'GET', '/docs/_doc/1')).json._source.n).toBe(1);
  });
});

describe('field-level security', () => {
  it('hides fields from _source, fields, docvalue_fields, queries, sorts and aggregations', async () => {
    const r = await http(
      node.url,
      'POST',
      '/docs/_search',
      {
        query: { ids: { values: ['1'] } },
        fields: ['*'],
        docvalue_fields: ['secret', 'owner'],
        aggs: { s: { terms: { field: 'secret' } }, top: { top_hits: { size: 1 } } },
      },
      as('fred'),
    );
    const hit = r.json.hits.hits[0];
    expect(hit._source).toEqual({
      owner: 'ann',
      public: true,
      title: 'alpha report',
      n: 1,
      addr: { city: 'c1' },
    });
    expect(Object.keys(hit.fields).sort()).toEqual(['addr.city', 'n', 'owner', 'public', 'title']);
    expect(r.json.aggregations.s.buckets).toEqual([]);
    expect(r.json.aggregations.top.hits.hits[0]._source).toEqual(hit._source);
    const bySecret = await http(
      node.url,
      'POST',
      '/docs/_search',
      { query: { term: { secret: 's1' } } },
      as('fred'),
    );
    expect(bySecret.json.hits.total.value).toBe(0);
    const sorted = await http(
      node.url,
      'POST',
      '/docs/_search',
      { sort: [{ secret: 'desc' }, { n: 'asc' }] },
      as('fred'),
    );
    // Every document reads as missing the hidden field (the superuser's order would be 4, 3, 2, 1).
    expect(sorted.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1', '2', '3', '4']);
    const highlighted = await http(
      node.url,
      'POST',
      '/docs/_search',
      {
        query: { query_string: { query: 'alpha OR s1' } },
        highlight: { fields: { '*': {} } },
      },
      as('fred'),
    );
    expect(highlighted.json.hits.hits.map((h: { highlight: object }) => h.highlight)).toEqual([
      { title: ['<em>alpha</em> report'] },
    ]);
    const got = await http(node.url, 'GET', '/docs/_doc/2', undefined, as('fred'));
    expect(got.json._source.secret).toBeUndefined();
    expect(got.json._source.addr).toEqual({ city: 'c2' });
  });

  it('lists only the visible fields in _field_caps and the mapping', async () => {
    const mapping = await http(node.url, 'GET', '/docs/_mapping', undefined, as('fred'));
    expect(mapping.status, mapping.text).toBe(200);
    const props = mapping.json.docs.mappings.properties;
    expect(Object.keys(props).sort()).toEqual(['addr', 'n', 'owner', 'public', 'title']);
    expect(props.addr).toEqual({ properties: { city: { type: 'keyword' } } });
    const caps = await http(
      node.url,
      'GET',
      '/docs/_field_caps?fields=*&filters=-metadata',
      undefined,
      as('fred'),
    );
    expect(Object.keys(caps.json.fields).sort()).toEqual([
      'addr',
      'addr.city',
      'n',
      'owner',
      'public',
      'title',
    ]);
    const fay = await http(
      node.url,
      'GET',
      '/docs/_field_caps?fields=*&filters=-metadata',
      undefined,
      as('fay'),
    );
    expect(Object.keys(fay.json.fields).sort()).toEqual(['n', 'title']);
  });

  it('grants the union of the fields of several roles', async () => {
    const r = await http(node.url, 'POST', '/docs/_search', { query: { ids: { values: ['4'] } } }, as('fay'));
    expect(r.json.hits.hits[0]._source).toEqual({ title: 'delta report', n: 4 });
  });

  it('refuses an except that is not within grant, as Elasticsearch does', async () => {
    const bad = await http(node.url, 'PUT', '/_security/role/bad', {
      indices: [
        { names: ['docs'], privileges: ['read'], field_security: { grant: ['field*'], except: ['other'] } },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('parse_exception');
    expect(bad.json.error.reason).toBe(
      'failed to parse indices privileges for role [bad] - Exceptions for field permissions must be a subset of the granted fields but other is not a subset of field*',
    );
    const noGrant = await http(node.url, 'PUT', '/_security/role/bad', {
      indices: [{ names: ['docs'], privileges: ['read'], field_security: { except: ['x'] } }],
    });
    expect(noGrant.status).toBe(400);
    const badQuery = await http(node.url, 'PUT', '/_security/role/bad', {
      indices: [{ names: ['docs'], privileges: ['read'], query: { no_such_query: {} } }],
    });
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.error.reason).toBe(
      "failed to parse field 'query' for indices [docs] at index privilege [0] of role descriptor",
    );
  });
});

describe('the privilege APIs', () => {
  it('show each entry’s field_security and query', async () => {
    const role = await http(node.url, 'GET', '/_security/role/fls_most');
    expect(role.json.fls_most.indices[0].field_security).toEqual({
      grant: ['*'],
      except: ['secret', 'addr.zip'],
    });
    const bob = await http(node.url, 'GET', '/_security/user/_privileges', undefined, as('bob'));
    expect(bob.json.indices).toEqual([
      {
        names: ['docs'],
        privileges: ['read'],
        query: ['{"term":{"public":true}}'],
        allow_restricted_indices: false,
      },
      {
        names: ['docs*'],
        privileges: ['read', 'write'],
        query: ['{"template":{"source":{"term":{"owner":"{{_user.username}}"}}}}'],
        allow_restricted_indices: false,
      },
    ]);
    const fred = await http(node.url, 'GET', '/_security/user/_privileges', undefined, as('fred'));
    expect(fred.json.indices[0].field_security).toEqual([{ grant: ['*'], except: ['secret', 'addr.zip'] }]);
  });
});
