/**
 * API keys after creation: update and bulk update (owner only, `limited_by` refreshed, noops),
 * grant (password grant, run_as), cross-cluster keys, and `_query/api_key` on the query engine
 * (query, paging, sort, search_after, aggregations, own keys only for manage_own_api_key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const PASSWORD = 'lifecycle-password';
const as = (user: string) => ({ authorization: basicAuth(user, PASSWORD) });
const asKey = (encoded: string) => ({ authorization: `ApiKey ${encoded}` });

async function key(body: Record<string, unknown>, user?: string) {
  const r = await http(node.url, 'POST', '/_security/api_key', body, user ? as(user) : undefined);
  expect(r.status).toBe(200);
  return r.json as { id: string; encoded: string };
}

async function getKey(id: string, limitedBy = false) {
  const r = await http(node.url, 'GET', `/_security/api_key?id=${id}&with_limited_by=${limitedBy}`);
  return r.json.api_keys[0];
}

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/_security/role/own_keys', {
    cluster: ['manage_own_api_key'],
    indices: [{ names: ['logs-*'], privileges: ['read'] }],
  });
  await http(node.url, 'PUT', '/_security/role/granter', { cluster: ['grant_api_key'] });
  await http(node.url, 'PUT', '/_security/role/runner', { cluster: ['manage_own_api_key'], run_as: ['ann'] });
  await http(node.url, 'PUT', '/_security/role/key_admin', { cluster: ['manage_api_key'] });
  for (const [user, roles] of [
    ['ann', ['own_keys']],
    ['bob', ['own_keys']],
    ['gus', ['granter']],
    ['ron', ['runner']],
    ['kay', ['key_admin']],
  ] as const) {
    await http(node.url, 'PUT', `/_security/user/${user}`, { password: PASSWORD, roles });
  }
});
afterAll(async () => {
  await node?.stop();
});

describe('updating API keys', () => {
  it("changes a key's descriptors and metadata, refreshes limited_by, and tells a noop", async () => {
    const k = await key({ name: 'upd', metadata: { v: 1 } }, 'ann');
    await http(node.url, 'PUT', '/_security/role/own_keys', {
      cluster: ['manage_own_api_key'],
      indices: [{ names: ['logs-*', 'metrics-*'], privileges: ['read'] }],
    });
    const body = {
      role_descriptors: { r: { indices: [{ names: ['logs-*'], privileges: ['read'] }] } },
      metadata: { v: 2 },
    };
    const r = await http(node.url, 'PUT', `/_security/api_key/${k.id}`, body, as('ann'));
    expect(r).toMatchObject({ status: 200, json: { updated: true } });
    const stored = await getKey(k.id, true);
    expect(stored.metadata).toEqual({ v: 2 });
    expect(Object.keys(stored.role_descriptors)).toEqual(['r']);
    expect(stored.limited_by[0].own_keys.indices[0].names).toEqual(['logs-*', 'metrics-*']);
    const again = await http(node.url, 'PUT', `/_security/api_key/${k.id}`, body, as('ann'));
    expect(again.json).toEqual({ updated: false });
    // The key still authenticates with its secret.
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, asKey(k.encoded))).status,
    ).toBe(200);
  });

  it("answers 404 for another user's key and 400 for an invalidated one or an update made with a key", async () => {
    const theirs = await key({ name: 'bobs' }, 'bob');
    const r = await http(node.url, 'PUT', `/_security/api_key/${theirs.id}`, { metadata: {} }, as('ann'));
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({
      type: 'resource_not_found_exception',
      reason: `no API key owned by requesting user found for ID [${theirs.id}]`,
    });
    const mine = await key({ name: 'gone' }, 'ann');
    await http(node.url, 'DELETE', '/_security/api_key', { ids: [mine.id] });
    const dead = await http(node.url, 'PUT', `/_security/api_key/${mine.id}`, {}, as('ann'));
    expect(dead.status).toBe(400);
    expect(dead.json.error.reason).toBe(`cannot update invalidated API key [${mine.id}]`);
    const viaKey = await http(node.url, 'PUT', `/_security/api_key/${theirs.id}`, {}, asKey(theirs.encoded));
    expect(viaKey.status).toBe(400);
    expect(viaKey.json.error.reason).toBe(
      'authentication via API key not supported: only the owner user can update an API key',
    );
    const bad = await http(
      node.url,
      'PUT',
      `/_security/api_key/${theirs.id}`,
      { metadata: { _x: 1 } },
      as('bob'),
    );
    expect(bad.json.error).toMatchObject({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: API key metadata keys may not start with [_];',
    });
  });

  it('bulk-updates keys, listing updates, noops and errors per id', async () => {
    const a = await key({ name: 'bulk-a' }, 'bob');
    const b = await key({ name: 'bulk-b', metadata: { t: 'x' } }, 'bob');
    const r = await http(
      node.url,
      'POST',
      '/_security/api_key/_bulk_update',
      { ids: [a.id, b.id, 'missing-id'], metadata: { t: 'x' } },
      as('bob'),
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      updated: [a.id],
      noops: [b.id],
      errors: {
        count: 1,
        details: {
          'missing-id': {
            type: 'resource_not_found_exception',
            reason: 'no API key owned by requesting user found for ID [missing-id]',
          },
        },
      },
    });
    const empty = await http(node.url, 'POST', '/_security/api_key/_bulk_update', { ids: [] }, as('bob'));
    expect(empty.json.error.reason).toBe('Validation Failed: 1: Field [ids] cannot be empty;');
  });
});

describe("a key's own privileges", () => {
  it('answers _has_privileges with both layers, and _privileges only for a key without descriptors', async () => {
    const plain = await key({ name: 'plain' }, 'bob');
    const mine = await http(node.url, 'GET', '/_security/user/_privileges', undefined, asKey(plain.encoded));
    expect(mine.status).toBe(200);
    expect(mine.json.cluster).toEqual(['manage_own_api_key']);
    const scoped = await key(
      { name: 'scoped', role_descriptors: { r: { indices: [{ names: ['logs-1'], privileges: ['read'] }] } } },
      'bob',
    );
    const refused = await http(
      node.url,
      'GET',
      '/_security/user/_privileges',
      undefined,
      asKey(scoped.encoded),
    );
    expect(refused.status).toBe(400);
    expect(refused.json.error.reason).toMatch(
      /^Cannot retrieve privileges for API keys with assigned role descriptors/,
    );
    const has = await http(
      node.url,
      'POST',
      '/_security/user/_has_privileges',
      { index: [{ names: ['logs-1', 'logs-2'], privileges: ['read'] }] },
      asKey(scoped.encoded),
    );
    expect(has.json.index).toEqual({ 'logs-1': { read: true }, 'logs-2': { read: false } });
  });
});

describe('granting API keys', () => {
  it("makes a key for a user whose password the caller holds, limited by that user's roles", async () => {
    const r = await http(
      node.url,
      'POST',
      '/_security/api_key/grant',
      { grant_type: 'password', username: 'ann', password: PASSWORD, api_key: { name: 'granted' } },
      as('gus'),
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['id', 'name', 'api_key', 'encoded']);
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, asKey(r.json.encoded));
    expect(me.json).toMatchObject({ username: 'ann', api_key: { id: r.json.id, name: 'granted' } });
    expect((await getKey(r.json.id)).realm).toBe('default_native');
  });

  it('refuses a wrong password (401), a bad grant (400), a run_as the roles do not allow (403)', async () => {
    const wrong = await http(
      node.url,
      'POST',
      '/_security/api_key/grant',
      { grant_type: 'password', username: 'ann', password: 'nope-nope', api_key: { name: 'x' } },
      as('gus'),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.reason).toBe(
      'unable to authenticate user [ann] for action [cluster:admin/ext/security/api_key/grant]',
    );
    const bad = await http(
      node.url,
      'POST',
      '/_security/api_key/grant',
      { grant_type: 'password', username: 'ann', access_token: 't', api_key: {} },
      as('gus'),
    );
    expect(bad.json.error.reason).toBe(
      'Validation Failed: 1: [password] is required for grant_type [password];2: [access_token] is not supported for grant_type [password];3: api key name is required;',
    );
    const runAs = (runAsUser: string) =>
      http(
        node.url,
        'POST',
        '/_security/api_key/grant',
        {
          grant_type: 'password',
          username: 'ron',
          password: PASSWORD,
          run_as: runAsUser,
          api_key: { name: 'ra' },
        },
        as('gus'),
      );
    const ok = await runAs('ann');
    expect(ok.status).toBe(200);
    expect((await getKey(ok.json.id)).username).toBe('ann');
    const denied = await runAs('bob');
    expect(denied.status).toBe(403);
    expect(denied.json.error.reason).toMatch(/because user \[ron\] is unauthorized to run as \[bob\]$/);
    // manage_own_api_key makes keys for oneself only: granting is refused, even to oneself.
    const own = await http(
      node.url,
      'POST',
      '/_security/api_key/grant',
      { grant_type: 'password', username: 'ann', password: PASSWORD, api_key: { name: 'self' } },
      as('ann'),
    );
    expect(own.status).toBe(403);
    expect(own.json.error.reason).toBe(
      'action [cluster:admin/ext/security/api_key/grant] is unauthorized for user [ann] with effective roles [own_keys], this action is granted by the cluster privileges [grant_api_key,manage_api_key,manage_security,all]',
    );
    // With the token service off (this node has no HTTP TLS), no access token authenticates.
    const token = await http(
      node.url,
      'POST',
      '/_security/api_key/grant',
      { grant_type: 'access_token', access_token: 'abc', api_key: { name: 'tk' } },
      as('gus'),
    );
    expect(token.status).toBe(401);
    expect(token.json.error.reason).toBe(
      'unable to authenticate with provided credentials and anonymous access is not allowed for this request',
    );
  });
});

describe('cross-cluster API keys', () => {
  it('stores access as one cross_cluster role descriptor, never authenticates REST, updates access', async () => {
    const r = await http(node.url, 'POST', '/_security/cross_cluster/api_key', {
      name: 'ccs',
      access: { search: [{ names: ['logs-*'] }], replication: [{ names: 'archive' }] },
      metadata: { purpose: 'ccs' },
    });
    expect(r.status).toBe(200);
    const stored = await getKey(r.json.id, true);
    expect(stored).toMatchObject({
      type: 'cross_cluster',
      access: {
        search: [{ names: ['logs-*'], allow_restricted_indices: false }],
        replication: [{ names: ['archive'], allow_restricted_indices: false }],
      },
      role_descriptors: {
        cross_cluster: {
          cluster: ['cross_cluster_search', 'monitor_enrich', 'cross_cluster_replication'],
          indices: [
            { names: ['logs-*'], privileges: ['read', 'read_cross_cluster', 'view_index_metadata'] },
            {
              names: ['archive'],
              privileges: ['cross_cluster_replication', 'cross_cluster_replication_internal'],
            },
          ],
        },
      },
    });
    expect(stored.limited_by).toBeUndefined();
    const rest = await http(node.url, 'GET', '/_security/_authenticate', undefined, asKey(r.json.encoded));
    expect(rest.status).toBe(401);
    const upd = await http(node.url, 'PUT', `/_security/cross_cluster/api_key/${r.json.id}`, {
      access: { search: [{ names: ['blogs'] }] },
    });
    expect(upd.json).toEqual({ updated: true });
    expect((await getKey(r.json.id)).access).toEqual({
      search: [{ names: ['blogs'], allow_restricted_indices: false }],
    });
    const noop = await http(node.url, 'PUT', `/_security/cross_cluster/api_key/${r.json.id}`, {
      metadata: { purpose: 'ccs' },
    });
    expect(noop.json).toEqual({ updated: false });
    const wrongApi = await http(node.url, 'PUT', `/_security/api_key/${r.json.id}`, { metadata: {} });
    expect(wrongApi.json.error.reason).toBe(
      'cannot update API key of type [cross_cluster] while expected type is [rest]',
    );
  });

  it('refuses empty access, DLS with replication, and a manage_own_api_key user', async () => {
    const empty = await http(node.url, 'POST', '/_security/cross_cluster/api_key', { name: 'e', access: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.error.reason).toBe(
      'must specify non-empty access for either [search] or [replication]',
    );
    const dls = await http(node.url, 'POST', '/_security/cross_cluster/api_key', {
      name: 'd',
      access: { replication: [{ names: ['x'], query: { match_all: {} } }] },
    });
    expect(dls.json.error.reason).toBe('replication does not support document or field level security');
    const mixed = await http(node.url, 'POST', '/_security/cross_cluster/api_key', {
      name: 'm',
      access: { search: [{ names: ['x'], query: { match_all: {} } }], replication: [{ names: ['y'] }] },
    });
    expect(mixed.json.error.reason).toBe(
      'search does not support document or field level security if replication is assigned',
    );
    // Search access may limit fields and documents: kept and shown (enforced by the remote side).
    const limited = await http(node.url, 'POST', '/_security/cross_cluster/api_key', {
      name: 'limited',
      access: {
        search: [
          {
            names: ['logs*'],
            query: { term: { category: 'shared' } },
            field_security: { grant: ['*'], except: ['private'] },
          },
        ],
      },
    });
    expect(limited.status).toBe(200);
    const shown = await getKey(limited.json.id);
    expect(shown.access).toEqual({
      search: [
        {
          names: ['logs*'],
          field_security: { grant: ['*'], except: ['private'] },
          query: '{"term":{"category":"shared"}}',
          allow_restricted_indices: false,
        },
      ],
    });
    expect(shown.role_descriptors.cross_cluster.indices[0]).toMatchObject({
      field_security: { grant: ['*'], except: ['private'] },
      query: '{"term":{"category":"shared"}}',
    });
    const denied = await http(
      node.url,
      'POST',
      '/_security/cross_cluster/api_key',
      { name: 'n', access: { search: [{ names: ['x'] }] } },
      as('ann'),
    );
    expect(denied.status).toBe(403);
  });
});

describe('invalidating cross-cluster API keys', () => {
  it('needs manage_security: manage_api_key gets an error for each such key', async () => {
    const cc = await http(node.url, 'POST', '/_security/cross_cluster/api_key', {
      name: 'cc-inv',
      access: { search: [{ names: ['x'] }] },
    });
    const refused = await http(node.url, 'DELETE', '/_security/api_key', { ids: [cc.json.id] }, as('kay'));
    expect(refused.json).toEqual({
      invalidated_api_keys: [],
      previously_invalidated_api_keys: [],
      error_count: 1,
      error_details: [
        {
          type: 'security_exception',
          reason: `Cannot invalidate cross-cluster API key [${cc.json.id}]. This requires [manage_security] cluster privilege or higher`,
        },
      ],
    });
    const done = await http(node.url, 'DELETE', '/_security/api_key', { ids: [cc.json.id] });
    expect(done.json).toEqual({
      invalidated_api_keys: [cc.json.id],
      previously_invalidated_api_keys: [],
      error_count: 0,
    });
  });
});

describe('querying API keys', () => {
  it('searches with a query, sorts, pages with search_after, and aggregates', async () => {
    for (const n of ['q-1', 'q-2', 'q-3'])
      await key({ name: n, metadata: { team: n === 'q-3' ? 'red' : 'blue' } });
    const q = {
      query: { bool: { must: [{ prefix: { name: 'q-' } }, { term: { 'metadata.team': 'blue' } }] } },
      sort: [{ name: 'desc' }],
      size: 1,
    };
    const r = await http(node.url, 'POST', '/_security/_query/api_key', q);
    expect(r.status).toBe(200);
    expect(r.json.total).toBe(2);
    expect(r.json.count).toBe(1);
    expect(r.json.api_keys[0]).toMatchObject({ name: 'q-2', type: 'rest', _sort: ['q-2'] });
    const next = await http(node.url, 'POST', '/_security/_query/api_key', { ...q, search_after: ['q-2'] });
    expect(next.json.api_keys.map((k: { name: string }) => k.name)).toEqual(['q-1']);
    const aggs = await http(node.url, 'POST', '/_security/_query/api_key', {
      size: 0,
      query: { prefix: { name: 'q-' } },
      aggs: { owners: { terms: { field: 'username' } }, live: { filter: { term: { invalidated: false } } } },
    });
    expect(aggs.json).toMatchObject({
      total: 3,
      count: 0,
      api_keys: [],
      aggregations: { owners: { buckets: [{ key: 'elastic', doc_count: 3 }] }, live: { doc_count: 3 } },
    });
  });

  it('keeps a manage_own_api_key user to its own keys, and refuses fields and queries it may not use', async () => {
    const own = await http(
      node.url,
      'POST',
      '/_security/_query/api_key',
      { query: { match_all: {} } },
      as('bob'),
    );
    expect(own.status).toBe(200);
    expect(own.json.total).toBeGreaterThan(0);
    expect(own.json.api_keys.every((k: { username: string }) => k.username === 'bob')).toBe(true);
    const secret = await http(node.url, 'POST', '/_security/_query/api_key', {
      query: { term: { api_key_hash: 'x' } },
    });
    expect(secret.status).toBe(400);
    expect(secret.json.error.reason).toBe('Field [api_key_hash] is not allowed for querying or aggregation');
    const script = await http(node.url, 'POST', '/_security/_query/api_key', {
      query: { script: { script: 'true' } },
    });
    expect(script.json.error.reason).toBe('Query type [script] is not currently supported in this context');
    const agg = await http(node.url, 'POST', '/_security/_query/api_key', {
      aggs: { h: { histogram: { field: 'creation', interval: 1 } } },
    });
    expect(agg.json.error.reason).toBe('Unsupported API Keys agg [h] of type [histogram]');
  });

  it('sorts on dates and pages after their epoch values', async () => {
    const soon = await key({ name: 'exp-soon', expiration: '1d' });
    const later = await key({ name: 'exp-later', expiration: '2d' });
    const q = { query: { prefix: { name: 'exp-' } }, sort: [{ expiration: { order: 'desc' } }], size: 1 };
    const first = await http(node.url, 'POST', '/_security/_query/api_key', q);
    expect(first.json.api_keys[0].id).toBe(later.id);
    const after = first.json.api_keys[0]._sort;
    expect(after).toEqual([first.json.api_keys[0].expiration]);
    const next = await http(node.url, 'POST', '/_security/_query/api_key', { ...q, search_after: after });
    expect(next.json.api_keys.map((k: { id: string }) => k.id)).toEqual([soon.id]);
    const ranged = await http(node.url, 'POST', '/_security/_query/api_key', {
      query: {
        bool: { filter: [{ prefix: { name: 'exp-' } }, { range: { expiration: { gt: 'now+36h' } } }] },
      },
    });
    expect(ranged.json.api_keys.map((k: { id: string }) => k.id)).toEqual([later.id]);
  });

  it('answers with limited_by when asked', async () => {
    const r = await http(node.url, 'GET', '/_security/_query/api_key?with_limited_by=true', {
      query: { term: { name: 'q-1' } },
    });
    expect(r.json.api_keys[0].limited_by).toEqual([
      expect.objectContaining({ superuser: expect.any(Object) }),
    ]);
  });
});
