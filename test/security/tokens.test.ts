/**
 * OAuth2-style tokens end to end: the grants, Bearer authentication, refresh with its
 * 30-second window, invalidation, the OAuth2 error bodies, and tokens outliving a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const TOKEN = '/_security/oauth2/token';

async function passwordGrant(username = 'token_user', password = 'token-password') {
  const r = await http(node.url, 'POST', TOKEN, { grant_type: 'password', username, password });
  expect(r.status).toBe(200);
  return r.json as { access_token: string; refresh_token: string; authentication: Record<string, unknown> };
}

beforeAll(async () => {
  node = await startTestNode({ args: ['-E', 'xpack.security.authc.token.enabled=true'] });
  await http(node.url, 'PUT', '/_security/user/token_user', {
    password: 'token-password',
    roles: ['superuser'],
    full_name: 'Token User',
  });
  await http(node.url, 'PUT', '/_security/user/other_user', {
    password: 'other-password',
    roles: ['superuser'],
  });
});
afterAll(async () => {
  await node?.stop();
});

describe('getting a token', () => {
  it('answers the password grant with a pair and the authentication, and the access token authenticates', async () => {
    const r = await http(node.url, 'POST', TOKEN, {
      grant_type: 'password',
      username: 'token_user',
      password: 'token-password',
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([
      'access_token',
      'type',
      'expires_in',
      'refresh_token',
      'authentication',
    ]);
    expect(r.json).toMatchObject({ type: 'Bearer', expires_in: 1200 });
    expect(r.json.authentication).toMatchObject({
      username: 'token_user',
      roles: ['superuser'],
      full_name: 'Token User',
      authentication_realm: { name: 'default_native', type: 'native' },
      authentication_type: 'realm',
    });
    const me = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      bearer(r.json.access_token),
    );
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      username: 'token_user',
      authentication_realm: { name: 'default_native', type: 'native' },
      lookup_realm: { name: 'default_native', type: 'native' },
      authentication_type: 'token',
    });
    const search = await http(node.url, 'GET', '/_cluster/health', undefined, bearer(r.json.access_token));
    expect(search.status).toBe(200);
  });

  it('answers client_credentials for the caller, without a refresh token, and echoes a scope as full', async () => {
    const r = await http(
      node.url,
      'POST',
      TOKEN,
      { grant_type: 'client_credentials', scope: 'anything' },
      { authorization: basicAuth('other_user', 'other-password') },
    );
    expect(r.status).toBe(200);
    expect(r.json.refresh_token).toBeUndefined();
    expect(r.json.scope).toBe('full');
    expect(r.json.authentication.username).toBe('other_user');
    const me = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      bearer(r.json.access_token),
    );
    expect(me.json.username).toBe('other_user');
  });

  it('answers mistakes in OAuth2 form, wrong passwords as a 401, and Kerberos as not implemented', async () => {
    const unsupported = await http(node.url, 'POST', TOKEN, { grant_type: 'authorization_code' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json).toEqual({
      error: 'unsupported_grant_type',
      error_description:
        'Validation Failed: 1: grant_type only supports the values: [password, _kerberos, refresh_token, client_credentials];',
    });
    const missing = await http(node.url, 'POST', TOKEN, { grant_type: 'password' });
    expect(missing.json).toEqual({
      error: 'invalid_request',
      error_description: 'Validation Failed: 1: username is missing;2: password is missing;',
    });
    // As RestGetTokenAction does, any validation message naming grant_type makes it unsupported_grant_type.
    const extra = await http(node.url, 'POST', TOKEN, {
      grant_type: 'client_credentials',
      refresh_token: 'x',
    });
    expect(extra.json).toEqual({
      error: 'unsupported_grant_type',
      error_description:
        'Validation Failed: 1: refresh_token is not supported with the client_credentials grant_type;',
    });
    const badGrant = await http(node.url, 'POST', TOKEN, {
      grant_type: 'refresh_token',
      refresh_token: 'nope',
    });
    expect(badGrant.status).toBe(400);
    expect(badGrant.json).toEqual({
      error: 'invalid_grant',
      error_description: 'could not refresh the requested token',
    });
    const wrong = await http(node.url, 'POST', TOKEN, {
      grant_type: 'password',
      username: 'token_user',
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.type).toBe('security_exception');
    const kerberos = await http(node.url, 'POST', TOKEN, {
      grant_type: '_kerberos',
      kerberos_ticket: 'dGlja2V0',
    });
    expect(kerberos.status).toBe(501);
    expect(kerberos.json.error.reason).toContain('Kerberos');
    const unknown = await http(node.url, 'POST', TOKEN, { grant_type: 'password', color: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toBe('[1:26] [token_request] unknown field [color]');
  });
});

describe('refreshing', () => {
  it('gives a new pair once, the same pair again within 30 seconds, and only to the creating client', async () => {
    const first = await passwordGrant();
    const refresh = { grant_type: 'refresh_token', refresh_token: first.refresh_token };
    const second = await http(node.url, 'POST', TOKEN, refresh);
    expect(second.status).toBe(200);
    expect(second.json.access_token).not.toBe(first.access_token);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(second.json.authentication.authentication_type).toBe('token');
    const again = await http(node.url, 'POST', TOKEN, refresh);
    expect(again.json.access_token).toBe(second.json.access_token);
    expect(again.json.refresh_token).toBe(second.json.refresh_token);
    const me = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      bearer(second.json.access_token),
    );
    expect(me.json.username).toBe('token_user');
    const third = await passwordGrant();
    const byOther = await http(
      node.url,
      'POST',
      TOKEN,
      { grant_type: 'refresh_token', refresh_token: third.refresh_token },
      { authorization: basicAuth('other_user', 'other-password') },
    );
    expect(byOther.json).toEqual({
      error: 'invalid_grant',
      error_description: 'tokens must be refreshed by the creating client',
    });
  });
  it('authorizes a refresh as the refresh action, which manage_saml grants without the create action', async () => {
    await http(node.url, 'PUT', '/_security/role/saml_service', { cluster: ['manage_saml'] });
    await http(node.url, 'PUT', '/_security/user/saml_user', {
      password: 'saml-password',
      roles: ['saml_service'],
    });
    const saml = { authorization: basicAuth('saml_user', 'saml-password') };
    const create = await http(node.url, 'POST', TOKEN, { grant_type: 'client_credentials' }, saml);
    expect(create.status).toBe(403);
    expect(create.json.error.reason).toContain('cluster:admin/ext/security/token/create');
    const t = await passwordGrant();
    const refresh = await http(
      node.url,
      'POST',
      TOKEN,
      { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      saml,
    );
    // Past authorization: the token itself is refused, as it was made for another client.
    expect(refresh.json).toEqual({
      error: 'invalid_grant',
      error_description: 'tokens must be refreshed by the creating client',
    });
  });
});

describe('invalidating', () => {
  it('invalidates an access token once, then reports it as previously invalidated; an unknown one is a 404', async () => {
    const t = await passwordGrant();
    const first = await http(node.url, 'DELETE', TOKEN, { token: t.access_token });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ invalidated_tokens: 1, previously_invalidated_tokens: 0, error_count: 0 });
    const again = await http(node.url, 'DELETE', TOKEN, { token: t.access_token });
    expect(again.json).toEqual({ invalidated_tokens: 0, previously_invalidated_tokens: 1, error_count: 0 });
    const refused = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      bearer(t.access_token),
    );
    expect(refused.status).toBe(401);
    expect(refused.json.error.reason).toBe('token expired');
    expect(refused.headers['www-authenticate']).toContain(
      'Bearer realm="security", error="invalid_token", error_description="The access token expired"',
    );
    const unknown = await http(node.url, 'DELETE', TOKEN, { token: 'bm90IGEgdG9rZW4=' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ invalidated_tokens: 0, previously_invalidated_tokens: 0, error_count: 0 });
  });

  it('invalidates a refresh token, after which it cannot refresh', async () => {
    const t = await passwordGrant();
    const r = await http(node.url, 'DELETE', TOKEN, { refresh_token: t.refresh_token });
    expect(r.json.invalidated_tokens).toBe(1);
    const refresh = await http(node.url, 'POST', TOKEN, {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(refresh.json).toEqual({ error: 'invalid_grant', error_description: 'token has been invalidated' });
  });

  it("invalidates all of a user's tokens, and validates the request", async () => {
    await http(node.url, 'PUT', '/_security/user/bulk_user', {
      password: 'bulk-password',
      roles: ['superuser'],
    });
    const a = await passwordGrant('bulk_user', 'bulk-password');
    await passwordGrant('bulk_user', 'bulk-password');
    const r = await http(node.url, 'DELETE', TOKEN, { username: 'bulk_user', realm_name: 'default_native' });
    expect(r.json).toEqual({ invalidated_tokens: 4, previously_invalidated_tokens: 0, error_count: 0 });
    expect((await http(node.url, 'GET', '/', undefined, bearer(a.access_token))).status).toBe(401);
    const none = await http(node.url, 'DELETE', TOKEN, { username: 'nobody_at_all' });
    expect(none.status).toBe(200);
    expect(none.json.invalidated_tokens).toBe(0);
    const both = await http(node.url, 'DELETE', TOKEN, { username: 'bulk_user', token: a.access_token });
    expect(both.status).toBe(400);
    expect(both.json.error.reason).toBe(
      'Validation Failed: 1: token string must not be provided when realm name or username is specified;2: token type must not be provided when realm name or username is specified;',
    );
    const empty = await http(node.url, 'DELETE', TOKEN, {});
    expect(empty.json.error.reason).toBe(
      'Validation Failed: 1: token string must be provided when not specifying a realm name or a username;',
    );
  });
});

describe('granting an API key with an access token', () => {
  const GRANT = '/_security/api_key/grant';
  const grant = (body: Record<string, unknown>) =>
    http(node.url, 'POST', GRANT, { api_key: { name: 'granted-key' }, grant_type: 'access_token', ...body });

  it("makes the key for the token's user, and for the user it runs as", async () => {
    const t = await passwordGrant();
    const r = await grant({ access_token: t.access_token });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'granted-key' });
    const encoded = Buffer.from(`${r.json.id}:${r.json.api_key}`).toString('base64');
    expect(r.json.encoded).toBe(encoded);
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, {
      authorization: `ApiKey ${encoded}`,
    });
    expect(me.json).toMatchObject({
      username: 'token_user',
      roles: [],
      authentication_realm: { name: '_es_api_key', type: '_es_api_key' },
      api_key: { id: r.json.id, name: 'granted-key' },
    });
    const key = await http(node.url, 'GET', `/_security/api_key?id=${r.json.id}`);
    expect(key.json.api_keys[0]).toMatchObject({ username: 'token_user', realm: 'default_native' });

    const ranAs = await grant({ access_token: t.access_token, run_as: 'other_user' });
    expect(ranAs.status).toBe(200);
    const other = await http(node.url, 'GET', '/_security/_authenticate', undefined, {
      authorization: `ApiKey ${ranAs.json.encoded}`,
    });
    expect(other.json.username).toBe('other_user');
  });

  it('refuses client authentication, and invalidated or unknown tokens as a 401', async () => {
    const t = await passwordGrant();
    const client = await grant({
      access_token: t.access_token,
      client_authentication: { scheme: 'SharedSecret', value: 'whatever' },
    });
    expect(client.status).toBe(400);
    expect(client.json.error).toMatchObject({
      type: 'security_exception',
      reason: '[client_authentication] not supported with the supplied access_token type',
    });
    await http(node.url, 'DELETE', TOKEN, { token: t.access_token });
    const invalidated = await grant({ access_token: t.access_token });
    expect(invalidated.status).toBe(401);
    expect(invalidated.json.error).toMatchObject({ type: 'security_exception', reason: 'token expired' });
    const forged = Buffer.concat([Buffer.from([0x00, 0x7c, 0xf8, 0xb3]), Buffer.alloc(48, 9)]).toString(
      'base64',
    );
    const unknown = await grant({ access_token: forged });
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.reason).toBe(
      'unable to authenticate with provided credentials and anonymous access is not allowed for this request',
    );
    const missing = await grant({});
    expect(missing.status).toBe(400);
    expect(missing.json.error.reason).toContain('[access_token] is required for grant_type [access_token]');
  });
});

describe('Bearer credentials', () => {
  it('still take service-account tokens, and refuse tokens nobody issued', async () => {
    const created = await http(
      node.url,
      'POST',
      '/_security/service/elastic/fleet-server/credential/token/t1',
    );
    const me = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      bearer(created.json.token.value),
    );
    expect(me.json).toMatchObject({ username: 'elastic/fleet-server', authentication_type: 'token' });
    const forged = Buffer.concat([Buffer.from([0x00, 0x7c, 0xf8, 0xb3]), Buffer.alloc(48, 7)]).toString(
      'base64',
    );
    const r = await http(node.url, 'GET', '/_security/_authenticate', undefined, bearer(forged));
    expect(r.status).toBe(401);
  });

  it('outlive a restart of the node', async () => {
    const t = await passwordGrant();
    await node.kill();
    node = await node.restart();
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, bearer(t.access_token));
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ username: 'token_user', authentication_type: 'token' });
    const refreshed = await http(node.url, 'POST', TOKEN, {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(refreshed.status).toBe(200);
  }, 60_000);
});
