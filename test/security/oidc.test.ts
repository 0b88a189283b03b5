/**
 * OpenID Connect sign-in against a local OP (test/support/oidc-provider.ts, over HTTPS with a CA
 * the node is told to trust): a facilitator holding `manage_oidc` prepares the authentication
 * request, hands back the OP's answer (a code, or an ID token in the fragment) and gets an
 * access and refresh token for the mapped user; refused answers are the realm chain's 401;
 * logout invalidates the tokens and answers the OP's end-session URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { type SigningKey, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';

let node: TestNode;
let op: TestOidcProvider;
let firstKey: SigningKey;
let dir: string;
const FACILITATOR = { authorization: basicAuth('facilitator', 'facilitator-password') };
const CALLBACK = 'https://dashboard.test/api/security/oidc/callback';
const REFUSED = {
  type: 'security_exception',
  reason:
    'unable to authenticate user [<OIDC Token>] for action [cluster:admin/ext/security/oidc/authenticate]',
};
const realm = (name: string, settings: Record<string, string>) =>
  Object.entries(settings).flatMap(([k, v]) => ['-E', `xpack.security.authc.realms.oidc.${name}.${k}=${v}`]);

beforeAll(async () => {
  op = await startOidcProvider('shoal-client', 'the client secret');
  firstKey = op.signing;
  dir = mkdtempSync(join(tmpdir(), 'shoal-oidc-'));
  writeFileSync(join(dir, 'op-ca.crt'), op.ca.pem);
  writeFileSync(join(dir, 'jwkset.json'), JSON.stringify(op.jwks()));
  node = await startTestNode({
    env: {
      SHOAL_CONFIG_DIR: dir,
      NODE_EXTRA_CA_CERTS: join(dir, 'op-ca.crt'),
      'xpack.security.authc.realms.oidc.oidc1.rp.client_secret': op.clientSecret,
    },
    args: [
      '-E',
      'xpack.security.authc.token.enabled=true',
      ...realm('oidc1', {
        order: '2',
        'rp.client_id': op.clientId,
        'rp.response_type': 'code',
        'rp.redirect_uri': CALLBACK,
        'rp.post_logout_redirect_uri': 'https://dashboard.test/logged_out',
        'rp.requested_scopes': 'email,profile',
        'op.issuer': op.issuer,
        'op.authorization_endpoint': `${op.issuer}/authorize`,
        'op.token_endpoint': `${op.issuer}/token`,
        'op.jwkset_path': `${op.issuer}/jwks`,
        'op.endsession_endpoint': `${op.issuer}/logout`,
        'op.userinfo_endpoint': `${op.issuer}/userinfo`,
        'claims.principal': 'sub',
        'claims.groups': 'groups',
        'claims.mail': 'email',
        'claims.name': 'name',
      }),
      ...realm('oidc2', {
        order: '3',
        'rp.client_id': op.clientId,
        'rp.response_type': 'id_token',
        'rp.redirect_uri': CALLBACK,
        'op.issuer': `${op.issuer}/implicit`,
        'op.authorization_endpoint': `${op.issuer}/authorize`,
        'op.jwkset_path': 'jwkset.json',
        'claims.principal': 'email',
        'claim_patterns.principal': '^([^@]+)@example\\.com$',
      }),
    ],
  });
  await http(node.url, 'PUT', '/_security/role/oidc_facilitator', {
    cluster: ['manage_oidc', 'manage_token'],
  });
  await http(node.url, 'PUT', '/_security/user/facilitator', {
    password: 'facilitator-password',
    roles: ['oidc_facilitator'],
  });
  await http(node.url, 'PUT', '/_security/role_mapping/oidc_readers', {
    roles: ['viewer'],
    rules: { all: [{ field: { 'realm.name': 'oidc1' } }, { field: { groups: 'readers' } }] },
    enabled: true,
  });
  // Matches a group only the UserInfo endpoint names.
  await http(node.url, 'PUT', '/_security/role_mapping/oidc_userinfo', {
    roles: ['monitoring_user'],
    rules: { field: { groups: 'from-userinfo' } },
    enabled: true,
  });
}, 60_000);
afterAll(async () => {
  await node?.stop();
  await op?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const prepare = (body: unknown) => http(node.url, 'POST', '/_security/oidc/prepare', body, FACILITATOR);
const authenticate = (body: unknown) =>
  http(node.url, 'POST', '/_security/oidc/authenticate', body, FACILITATOR);

/** A prepared sign-in at oidc1 and the callback URL for a code whose ID token has `claims`. */
async function codeCallback(claims: Record<string, unknown> = {}) {
  const p = (await prepare({ realm: 'oidc1' })).json;
  const code = op.code({ sub: 'alice', nonce: p.nonce, groups: ['readers'], ...claims });
  return { p, redirect_uri: `${CALLBACK}?code=${code}&state=${p.state}` };
}

/**
 * Whether the node logged, after log line `from`, that a realm refused an answer for a reason
 * containing `fragment` (the 401 names no reason). The log line may reach the test's pipe after
 * the answer: waited for, up to 5 s.
 */
async function loggedRefusal(from: number, fragment: string): Promise<boolean> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = node.logs
      .slice(from)
      .some(
        (l) =>
          typeof l.msg === 'string' &&
          l.msg.startsWith('Authentication to realm') &&
          l.msg.includes(fragment),
      );
    if (found || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('prepare', () => {
  it('builds the authentication request with generated state and nonce', async () => {
    const r = await prepare({ realm: 'oidc1' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['redirect', 'state', 'nonce', 'realm']);
    expect(r.json.realm).toBe('oidc1');
    expect(r.json.state).toMatch(/^[\w-]{43}$/);
    expect(r.json.nonce).toMatch(/^[\w-]{43}$/);
    const url = new URL(r.json.redirect);
    expect(`${url.origin}${url.pathname}`).toBe(`${op.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'shoal-client',
      redirect_uri: CALLBACK,
      scope: 'email profile openid',
      state: r.json.state,
      nonce: r.json.nonce,
    });
  });

  it('finds the realm by issuer, keeps given state and nonce, passes login_hint', async () => {
    const r = await prepare({ iss: `${op.issuer}/implicit`, login_hint: 'alice', state: 's1', nonce: 'n1' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ realm: 'oidc2', state: 's1', nonce: 'n1' });
    const q = new URL(r.json.redirect).searchParams;
    expect([q.get('response_type'), q.get('login_hint'), q.get('state'), q.get('nonce')]).toEqual([
      'id_token',
      'alice',
      's1',
      'n1',
    ]);
  });

  it("answers Elasticsearch's errors", async () => {
    const none = await prepare({});
    expect(none.status).toBe(400);
    expect(none.json.error).toMatchObject({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: one of [realm, issuer] must be provided;',
    });
    const both = await prepare({ realm: 'oidc1', iss: op.issuer });
    expect(both.json.error.reason).toBe(
      'Validation Failed: 1: only one of [realm, issuer] can be provided in the same request;',
    );
    const unknown = await prepare({ realm: 'nope' });
    expect(unknown.status).toBe(500);
    expect(unknown.json.error).toMatchObject({
      type: 'security_exception',
      reason: 'Cannot find OpenID Connect realm with name [nope]',
    });
    const issuer = await prepare({ iss: 'https://elsewhere' });
    expect(issuer.json.error.reason).toBe('Cannot find OpenID Connect realm with issuer [https://elsewhere]');
    const field = await prepare({ realm: 'oidc1', bogus: 1 });
    expect(field.status).toBe(400);
    expect(field.json.error.type).toBe('x_content_parse_exception');
    const denied = await http(
      node.url,
      'POST',
      '/_security/oidc/prepare',
      { realm: 'oidc1' },
      {
        authorization: basicAuth('facilitator', 'wrong'),
      },
    );
    expect(denied.status).toBe(401);
  });
});

describe('the code flow', () => {
  it('exchanges the code and answers tokens for the mapped user', async () => {
    const { p, redirect_uri } = await codeCallback({
      email: 'alice@example.com',
      name: 'Alice A',
      locale: 'fr',
    });
    const r = await authenticate({ redirect_uri, state: p.state, nonce: p.nonce, realm: 'oidc1' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([
      'username',
      'access_token',
      'type',
      'refresh_token',
      'expires_in',
      'authentication',
    ]);
    expect(r.json).toMatchObject({ username: 'alice', type: 'Bearer', expires_in: 1200 });
    expect(r.json.authentication).toMatchObject({
      username: 'alice',
      roles: ['monitoring_user', 'viewer'],
      full_name: 'Alice A',
      email: 'alice@example.com',
      // `department` comes from the UserInfo endpoint.
      metadata: {
        'oidc(sub)': 'alice',
        'oidc(locale)': 'fr',
        'oidc(email)': 'alice@example.com',
        'oidc(department)': 'search',
      },
      authentication_realm: { name: 'oidc1', type: 'oidc' },
      authentication_type: 'realm',
    });
    // The OP saw the code, the configured redirect URI and the client's Basic credentials.
    const seen = op.tokenRequests.at(-1)!;
    expect(seen.form).toMatchObject({ grant_type: 'authorization_code', redirect_uri: CALLBACK });
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, {
      authorization: `Bearer ${r.json.access_token}`,
    });
    expect(me.json).toMatchObject({
      username: 'alice',
      authentication_type: 'token',
      roles: ['monitoring_user', 'viewer'],
    });
    const refreshed = await http(
      node.url,
      'POST',
      '/_security/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: r.json.refresh_token },
      FACILITATOR,
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.authentication).toMatchObject({ username: 'alice', authentication_type: 'token' });
  });

  it('refuses a wrong state, a wrong nonce, an unknown code and a foreign realm', async () => {
    const { p, redirect_uri } = await codeCallback();
    let from = node.logs.length;
    const state = await authenticate({ redirect_uri, state: 'other', nonce: p.nonce });
    expect(state.status).toBe(401);
    expect(state.json.error).toMatchObject(REFUSED);
    expect(await loggedRefusal(from, 'Invalid state parameter')).toBe(true);

    const nonce = await codeCallback({ nonce: 'not-the-nonce' });
    from = node.logs.length;
    const n = await authenticate({
      redirect_uri: nonce.redirect_uri,
      state: nonce.p.state,
      nonce: nonce.p.nonce,
    });
    expect(n.status).toBe(401);
    expect(n.json.error).toMatchObject(REFUSED);
    expect(await loggedRefusal(from, 'nonce')).toBe(true);

    from = node.logs.length;
    const unknown = await authenticate({
      redirect_uri: `${CALLBACK}?code=never-issued&state=${p.state}`,
      state: p.state,
      nonce: p.nonce,
    });
    expect(unknown.status).toBe(401);
    expect(await loggedRefusal(from, 'invalid_grant')).toBe(true);

    // oidc2 expects an ID token in the fragment, not a code.
    const other = await codeCallback();
    from = node.logs.length;
    const wrongRealm = await authenticate({
      redirect_uri: other.redirect_uri,
      state: other.p.state,
      nonce: other.p.nonce,
      realm: 'oidc2',
    });
    expect(wrongRealm.status).toBe(401);
    expect(await loggedRefusal(from, 'Unexpected response type [code]')).toBe(true);
  });

  it('reads a rotated signing key from the JWK set URL', async () => {
    op.rotate(await op.newKey('k2'));
    const { p, redirect_uri } = await codeCallback();
    const r = await authenticate({ redirect_uri, state: p.state, nonce: p.nonce });
    expect(r.status).toBe(200);
    expect(r.json.username).toBe('alice');
  });
});

describe('the implicit flow', () => {
  const implicit = async (
    claims: Record<string, unknown>,
    opts?: Parameters<TestOidcProvider['idToken']>[1],
  ) => {
    const p = (await prepare({ realm: 'oidc2' })).json;
    const jwt = await op.idToken(
      { iss: `${op.issuer}/implicit`, sub: 'b-1', email: 'bob@example.com', nonce: p.nonce, ...claims },
      { key: firstKey, ...opts },
    );
    return { p, jwt, redirect_uri: `${CALLBACK}#id_token=${jwt}&state=${p.state}` };
  };

  it('validates the ID token from the fragment against the JWK set file', async () => {
    const { p, redirect_uri } = await implicit({});
    const r = await authenticate({ redirect_uri, state: p.state, nonce: p.nonce, realm: 'oidc2' });
    expect(r.status).toBe(200);
    // claim_patterns.principal keeps the part before @example.com; no mapping names oidc2.
    expect(r.json.authentication).toMatchObject({
      username: 'bob',
      roles: [],
      authentication_realm: { name: 'oidc2', type: 'oidc' },
    });
  });

  it('refuses a bad signature, an expired token, a wrong audience and a token signed with the secret', async () => {
    const stranger = await op.newKey(firstKey.kid);
    const cases: [Record<string, unknown>, Parameters<TestOidcProvider['idToken']>[1], string][] = [
      [{}, { key: stranger }, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
      [
        { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 900 },
        {},
        'Expired JWT',
      ],
      [{ aud: 'someone-else' }, {}, 'Unexpected JWT audience'],
      [{}, { alg: 'HS256', secret: 'the client secret' }, 'Another algorithm expected'],
    ];
    for (const [claims, opts, logged] of cases) {
      const { p, redirect_uri } = await implicit(claims, opts);
      const from = node.logs.length;
      const r = await authenticate({ redirect_uri, state: p.state, nonce: p.nonce, realm: 'oidc2' });
      expect(r.status, logged).toBe(401);
      expect(r.json.error).toMatchObject(REFUSED);
      expect(r.headers['www-authenticate']).toBeDefined();
      expect(await loggedRefusal(from, logged), logged).toBe(true);
    }
  });

  it('validates the request body', async () => {
    const r = await authenticate({ redirect_uri: CALLBACK });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      'Validation Failed: 1: state parameter is missing;2: nonce parameter is missing;',
    );
  });
});

describe('logout', () => {
  it("invalidates the tokens and answers the OP's end-session URL", async () => {
    const { p, redirect_uri } = await codeCallback();
    const signedIn = (await authenticate({ redirect_uri, state: p.state, nonce: p.nonce })).json;
    const r = await http(
      node.url,
      'POST',
      '/_security/oidc/logout',
      { token: signedIn.access_token, refresh_token: signedIn.refresh_token },
      FACILITATOR,
    );
    expect(r.status).toBe(200);
    const url = new URL(r.json.redirect);
    expect(`${url.origin}${url.pathname}`).toBe(`${op.issuer}/logout`);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe('https://dashboard.test/logged_out');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(decodeJwt(url.searchParams.get('id_token_hint')!)).toMatchObject({ sub: 'alice', nonce: p.nonce });
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, {
      authorization: `Bearer ${signedIn.access_token}`,
    });
    expect(me.status).toBe(401);
    const refresh = await http(
      node.url,
      'POST',
      '/_security/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token },
      FACILITATOR,
    );
    expect(refresh.json).toEqual({ error: 'invalid_grant', error_description: 'token has been invalidated' });
  });

  it('answers a null redirect without an end-session endpoint, and refuses tokens of other realms', async () => {
    const p = (await prepare({ realm: 'oidc2' })).json;
    const jwt = await op.idToken(
      { iss: `${op.issuer}/implicit`, sub: 'b-1', email: 'bob@example.com', nonce: p.nonce },
      { key: firstKey },
    );
    const signedIn = await authenticate({
      redirect_uri: `${CALLBACK}#id_token=${jwt}&state=${p.state}`,
      state: p.state,
      nonce: p.nonce,
    });
    const logout = (token: string) =>
      http(node.url, 'POST', '/_security/oidc/logout', { token }, FACILITATOR);
    const r = await logout(signedIn.json.access_token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ redirect: null });
    const native = await http(node.url, 'POST', '/_security/oauth2/token', {
      grant_type: 'client_credentials',
    });
    const foreign = await logout(native.json.access_token);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Access token is not valid for an OpenID Connect realm',
    });
    const missing = await http(node.url, 'POST', '/_security/oidc/logout', {}, FACILITATOR);
    expect(missing.json.error.reason).toBe('Validation Failed: 1: token is missing;');
  });
});
