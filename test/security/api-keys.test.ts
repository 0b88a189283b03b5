import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const PASSWORD = 'key-owner-password';
const asUser = (user: string) => ({ authorization: basicAuth(user, PASSWORD) });
const asKey = (encoded: string) => ({ authorization: `ApiKey ${encoded}` });

beforeAll(async () => {
  node = await startTestNode();
  for (const index of ['logs-1', 'other'])
    await http(node.url, 'PUT', `/${index}/_doc/1?refresh=true`, { a: 1 });
  await http(node.url, 'PUT', '/_security/role/own_keys', {
    cluster: ['manage_own_api_key'],
    indices: [{ names: ['logs-*'], privileges: ['read'] }],
  });
  await http(node.url, 'PUT', '/_security/user/kim', { password: PASSWORD, roles: ['own_keys'] });
});
afterAll(async () => {
  await node?.stop();
});

describe('API keys', () => {
  it("creates a key that authenticates as its owner, with the owner's privileges", async () => {
    const r = await http(node.url, 'POST', '/_security/api_key', {
      name: 'my-api-key',
      metadata: { app: 'x' },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['id', 'name', 'api_key', 'encoded']);
    expect(r.json.name).toBe('my-api-key');
    expect(r.json.encoded).toBe(Buffer.from(`${r.json.id}:${r.json.api_key}`).toString('base64'));
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, asKey(r.json.encoded));
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      username: 'elastic',
      roles: [],
      authentication_realm: { name: '_es_api_key', type: '_es_api_key' },
      lookup_realm: { name: '_es_api_key', type: '_es_api_key' },
      authentication_type: 'api_key',
      api_key: { id: r.json.id, name: 'my-api-key' },
    });
    expect((await http(node.url, 'GET', '/other/_search', undefined, asKey(r.json.encoded))).status).toBe(
      200,
    );
  });

  it('limits a key to its role descriptors, and a denial names the key and its owner', async () => {
    const r = await http(node.url, 'PUT', '/_security/api_key', {
      name: 'logs-only',
      role_descriptors: { reader: { indices: [{ names: ['logs-*'], privileges: ['read'] }] } },
    });
    expect((await http(node.url, 'GET', '/logs-1/_search', undefined, asKey(r.json.encoded))).status).toBe(
      200,
    );
    const denied = await http(node.url, 'GET', '/other/_search', undefined, asKey(r.json.encoded));
    expect(denied.status).toBe(403);
    expect(denied.json.error.reason).toBe(
      `action [indices:data/read/search] is unauthorized for API key id [${r.json.id}] of user [elastic] on indices [other], this action is granted by the index privileges [read,all]`,
    );
  });

  it('never lets a key do more than its owner could when it was made', async () => {
    const r = await http(
      node.url,
      'POST',
      '/_security/api_key',
      {
        name: 'greedy',
        role_descriptors: { all: { cluster: ['all'], indices: [{ names: ['*'], privileges: ['all'] }] } },
      },
      asUser('kim'),
    );
    expect(r.status).toBe(200);
    expect((await http(node.url, 'GET', '/logs-1/_search', undefined, asKey(r.json.encoded))).status).toBe(
      200,
    );
    expect((await http(node.url, 'GET', '/other/_search', undefined, asKey(r.json.encoded))).status).toBe(
      403,
    );
    expect((await http(node.url, 'PUT', '/logs-1/_doc/2', { a: 2 }, asKey(r.json.encoded))).status).toBe(403);
    expect((await http(node.url, 'GET', '/_security/user', undefined, asKey(r.json.encoded))).status).toBe(
      403,
    );
  });

  it('shows manage_own_api_key users their own keys only', async () => {
    const own = await http(
      node.url,
      'GET',
      '/_security/api_key?owner=true&with_limited_by=true',
      undefined,
      asUser('kim'),
    );
    expect(own.status).toBe(200);
    expect(own.json.api_keys.map((k: { name: string }) => k.name)).toEqual(['greedy']);
    const key = own.json.api_keys[0];
    expect(key).toMatchObject({
      type: 'rest',
      invalidated: false,
      username: 'kim',
      realm: 'default_native',
      realm_type: 'native',
      metadata: {},
    });
    expect(key.limited_by).toEqual([
      {
        own_keys: {
          cluster: ['manage_own_api_key'],
          indices: [{ names: ['logs-*'], privileges: ['read'], allow_restricted_indices: false }],
          applications: [],
          run_as: [],
          metadata: {},
          transient_metadata: { enabled: true },
        },
      },
    ]);
    expect(Object.keys(key.role_descriptors)).toEqual(['all']);
    const all = await http(node.url, 'GET', '/_security/api_key', undefined, asUser('kim'));
    expect(all.status).toBe(403);
    const byName = await http(node.url, 'GET', '/_security/api_key?name=my-*');
    expect(byName.json.api_keys.map((k: { name: string }) => k.name)).toEqual(['my-api-key']);
    expect(byName.json.api_keys[0].limited_by).toBeUndefined();
  });

  it('invalidates keys, which stop authenticating at once', async () => {
    const r = await http(node.url, 'POST', '/_security/api_key', { name: 'short-lived' });
    expect((await http(node.url, 'GET', '/', undefined, asKey(r.json.encoded))).status).toBe(200);
    const inv = await http(node.url, 'DELETE', '/_security/api_key', { ids: [r.json.id] });
    expect(inv.json).toEqual({
      invalidated_api_keys: [r.json.id],
      previously_invalidated_api_keys: [],
      error_count: 0,
    });
    const after = await http(node.url, 'GET', '/', undefined, asKey(r.json.encoded));
    expect(after.status).toBe(401);
    expect(after.json.error.additional_unsuccessful_credentials).toBe(
      'API key: api key has been invalidated',
    );
    const again = await http(node.url, 'DELETE', '/_security/api_key', { name: 'short-lived' });
    expect(again.json).toEqual({
      invalidated_api_keys: [],
      previously_invalidated_api_keys: [r.json.id],
      error_count: 0,
    });
    const got = await http(node.url, 'GET', `/_security/api_key?id=${r.json.id}`);
    expect(got.json.api_keys[0].invalidated).toBe(true);
    expect(typeof got.json.api_keys[0].invalidation).toBe('number');
  });

  it('refuses an expired key and a wrong secret', async () => {
    const r = await http(node.url, 'POST', '/_security/api_key', { name: 'blink', expiration: '1ms' });
    expect(typeof r.json.expiration).toBe('number');
    await new Promise((res) => setTimeout(res, 20));
    const expired = await http(node.url, 'GET', '/', undefined, asKey(r.json.encoded));
    expect(expired.json.error.additional_unsuccessful_credentials).toBe('API key: api key is expired');
    const good = await http(node.url, 'POST', '/_security/api_key', { name: 'guarded' });
    const wrong = await http(
      node.url,
      'GET',
      '/',
      undefined,
      asKey(Buffer.from(`${good.json.id}:nope`).toString('base64')),
    );
    expect(wrong.status).toBe(401);
  });

  it('derives keys from a key only without privileges of their own', async () => {
    const parent = await http(node.url, 'POST', '/_security/api_key', { name: 'parent' });
    const bad = await http(
      node.url,
      'POST',
      '/_security/api_key',
      { name: 'child' },
      asKey(parent.json.encoded),
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'creating derived api keys requires an explicit role descriptor that is empty (has no privileges)',
    );
    const child = await http(
      node.url,
      'POST',
      '/_security/api_key',
      { name: 'child', role_descriptors: { none: {} } },
      asKey(parent.json.encoded),
    );
    expect(child.status).toBe(200);
  });

  it('refuses bad requests with 400', async () => {
    const cases: [string, unknown, string, string][] = [
      ['POST', {}, 'action_request_validation_exception', 'Validation Failed: 1: api key name is required;'],
      [
        'POST',
        { name: '_x', metadata: { _y: 1 } },
        'action_request_validation_exception',
        'Validation Failed: 1: api key name may not begin with an underscore;2: API key metadata keys may not start with [_];',
      ],
      [
        'POST',
        { name: 'x', colour: 1 },
        'x_content_parse_exception',
        '[1:13] [api_key_request] unknown field [colour]',
      ],
      [
        'POST',
        { name: 'x', role_descriptors: { r: { cluster: ['nope'] } } },
        'action_request_validation_exception',
        '',
      ],
      [
        'DELETE',
        {},
        'action_request_validation_exception',
        'Validation Failed: 1: One of [api key id(s), api key name, username, realm name] must be specified if [owner] flag is false;',
      ],
      [
        'DELETE',
        { ids: ['a'], username: 'u' },
        'action_request_validation_exception',
        'Validation Failed: 1: username or realm name must not be specified when the api key id(s) or api key name are specified;',
      ],
    ];
    for (const [method, body, type, reason] of cases) {
      const r = await http(node.url, method, '/_security/api_key', body);
      expect(r.status).toBe(400);
      expect(r.json.error.type).toBe(type);
      if (reason) expect(r.json.error.reason).toBe(reason);
    }
    const get = await http(node.url, 'GET', '/_security/api_key?id=a&username=u');
    expect(get.status).toBe(400);
  });
});
