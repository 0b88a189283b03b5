/**
 * SAML sign-in against a test IdP in this process (test/support/saml-idp.ts: a key and
 * certificate made per run, its metadata in a file the realm reads): a facilitator holding
 * `manage_saml` prepares the AuthnRequest, hands back the IdP's Response and gets an access and
 * refresh token for the mapped user; refused responses are the realm chain's 401 with the reason
 * in the node log; logout and the IdP's own logout requests invalidate the tokens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { rsaIdentity, type SigningIdentity, TestSamlIdp } from '../support/saml-idp.ts';

let node: TestNode;
let idp: TestSamlIdp;
let stranger: SigningIdentity;
let dir: string;
let spCertPem: string;
const SP = {
  entityId: 'https://dashboard.test/',
  acs: 'https://dashboard.test/api/security/saml/callback',
  logout: 'https://dashboard.test/logout',
};
const FACILITATOR = { authorization: basicAuth('facilitator', 'facilitator-password') };
const REFUSED = {
  type: 'security_exception',
  reason:
    'unable to authenticate user [<unauthenticated-saml-user>] for action [cluster:admin/ext/security/saml/authenticate]',
};
const ATTRIBUTES = {
  'urn:oid:0.9.2342.19200300.100.1.1': ['alice'],
  groups: ['readers'],
  mail: ['alice@example.com'],
};

beforeAll(async () => {
  idp = await TestSamlIdp.create('https://idp.test', SP);
  stranger = await rsaIdentity('stranger');
  const sp = await rsaIdentity('dashboard');
  spCertPem = sp.certPem;
  dir = mkdtempSync(join(tmpdir(), 'shoal-saml-'));
  writeFileSync(join(dir, 'idp-metadata.xml'), idp.metadataXml());
  writeFileSync(join(dir, 'sp.key'), sp.keyPem);
  writeFileSync(join(dir, 'sp.crt'), sp.certPem);
  const realm = {
    order: '2',
    'idp.metadata.path': 'idp-metadata.xml',
    'idp.entity_id': idp.entityId,
    'sp.entity_id': SP.entityId,
    'sp.acs': SP.acs,
    'sp.logout': SP.logout,
    'attributes.principal': 'urn:oid:0.9.2342.19200300.100.1.1',
    'attributes.groups': 'groups',
    'attributes.mail': 'mail',
    'signing.key': 'sp.key',
    'signing.certificate': 'sp.crt',
    'signing.saml_messages': 'LogoutRequest,LogoutResponse',
    'encryption.key': 'sp.key',
    'encryption.certificate': 'sp.crt',
  };
  node = await startTestNode({
    env: { SHOAL_CONFIG_DIR: dir },
    args: [
      '-E',
      'xpack.security.authc.token.enabled=true',
      ...Object.entries(realm).flatMap(([k, v]) => [
        '-E',
        `xpack.security.authc.realms.saml.saml1.${k}=${v}`,
      ]),
    ],
  });
  await http(node.url, 'PUT', '/_security/role/saml_facilitator', { cluster: ['manage_saml'] });
  await http(node.url, 'PUT', '/_security/user/facilitator', {
    password: 'facilitator-password',
    roles: ['saml_facilitator'],
  });
  await http(node.url, 'PUT', '/_security/role_mapping/saml_readers', {
    roles: ['viewer'],
    rules: { all: [{ field: { 'realm.name': 'saml1' } }, { field: { groups: 'readers' } }] },
    enabled: true,
  });
}, 60_000);
afterAll(async () => {
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  http(node.url, 'POST', `/_security/saml/${path}`, body, FACILITATOR);
const whoAmI = (token: string) =>
  http(node.url, 'GET', '/_security/_authenticate', undefined, { authorization: `Bearer ${token}` });

/** Whether the node logged, after log line `from`, a refusal whose reason contains `fragment`. */
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

async function signIn(sessionIndex = 'session-1') {
  const prepared = (await post('prepare', { realm: 'saml1' })).json;
  const content = idp.response({
    inResponseTo: prepared.id,
    attributes: ATTRIBUTES,
    sessionIndex,
    sign: 'both',
  });
  return post('authenticate', { content, ids: [prepared.id], realm: 'saml1' });
}

describe('prepare and authenticate', () => {
  it('prepares an AuthnRequest and signs in with a signed response or a signed assertion', async () => {
    const p = await post('prepare', { acs: SP.acs, relay_state: 'back-to/app' });
    expect(p.status).toBe(200);
    expect(Object.keys(p.json)).toEqual(['realm', 'id', 'redirect']);
    expect(p.json.realm).toBe('saml1');
    const url = new URL(p.json.redirect);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('back-to/app');
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    expect(request).toContain(`ID="${p.json.id}"`);

    const bySignedResponse = await post('authenticate', {
      content: idp.response({ inResponseTo: p.json.id, attributes: ATTRIBUTES, sign: 'response' }),
      ids: [p.json.id],
    });
    expect(bySignedResponse.status).toBe(200);
    expect(bySignedResponse.json).toMatchObject({ username: 'alice', realm: 'saml1', expires_in: 1200 });
    expect(bySignedResponse.json.authentication).toMatchObject({
      username: 'alice',
      roles: ['viewer'],
      email: 'alice@example.com',
      authentication_realm: { name: 'saml1', type: 'saml' },
      metadata: { saml_nameid: 'nameid-alice', 'saml(groups)': ['readers'] },
    });
    const me = await whoAmI(bySignedResponse.json.access_token);
    expect(me.json).toMatchObject({ username: 'alice', roles: ['viewer'], authentication_type: 'token' });

    // IdP-initiated: no InResponseTo, no ids.
    const bySignedAssertion = await post('authenticate', {
      content: idp.response({ attributes: ATTRIBUTES, sign: 'assertion' }),
      ids: [],
    });
    expect(bySignedAssertion.status).toBe(200);
    expect(bySignedAssertion.json.refresh_token).toEqual(expect.any(String));
  });

  it.each([
    ['a signature by another key', { signWith: 'stranger' }, 'could not be validated'],
    ['no signature', { sign: 'none' }, 'is not signed, but a signature is required'],
    ['a wrong audience', { audience: 'https://other.test/' }, 'do not match required audience'],
    ['an expired assertion', { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }, 'is on/after'],
    ['an unknown InResponseTo', { inResponseTo: '_unknown' }, 'is in-response-to [_unknown]'],
  ] as const)('refuses a response with %s (401, reason logged)', async (_, opts, reason) => {
    const from = node.logs.length;
    const content = idp.response({
      attributes: ATTRIBUTES,
      ...opts,
      signWith: 'signWith' in opts ? stranger : undefined,
    } as never);
    const r = await post('authenticate', { content, ids: ['_expected'] });
    expect(r.status).toBe(401);
    expect(r.json.error).toMatchObject(REFUSED);
    expect(await loggedRefusal(from, reason)).toBe(true);
  });

  it('signs in with an encrypted assertion', async () => {
    const content = await idp.encryptedResponse({ attributes: ATTRIBUTES, sign: 'assertion' }, spCertPem);
    const r = await post('authenticate', { content, ids: [] });
    expect(r.status).toBe(200);
    expect(r.json.username).toBe('alice');
  });

  it('refuses a replayed response', async () => {
    const content = idp.response({ attributes: ATTRIBUTES, sign: 'both' });
    expect((await post('authenticate', { content, ids: [] })).status).toBe(200);
    const from = node.logs.length;
    const again = await post('authenticate', { content, ids: [] });
    expect(again.status).toBe(401);
    expect(again.json.error).toMatchObject(REFUSED);
    expect(await loggedRefusal(from, 'has already been used')).toBe(true);
  });

  it('validates requests', async () => {
    const none = await post('prepare', {});
    expect(none.status).toBe(400);
    expect(none.json.error.reason).toBe('Validation Failed: 1: one of [realm, acs] must be provided;');
    const unknown = await post('prepare', { realm: 'nope' });
    expect(unknown.status).toBe(500);
    expect(unknown.json.error.reason).toMatch(/^Cannot find any matching realm for \[/);
    const missing = await post('authenticate', { realm: 'saml1' });
    expect(missing.json.error.reason).toBe('Validation Failed: 1: content is missing;2: ids is missing;');
    const notBase64 = await post('authenticate', { content: '<xml/>', ids: [] });
    expect(notBase64.status).toBe(400);
    const field = await post('authenticate', { content: 'AA==', ids: [], foo: 1 });
    expect(field.json.error.reason).toMatch(/^\[1:\d+\] \[saml_authenticate\] unknown field \[foo\]$/);
  });
});

describe('logout', () => {
  it('invalidates the tokens and answers a signed LogoutRequest; the LogoutResponse completes it', async () => {
    const signedIn = await signIn();
    const r = await post('logout', {
      token: signedIn.json.access_token,
      refresh_token: signedIn.json.refresh_token,
    });
    expect(r.status).toBe(200);
    expect(r.json.id).toMatch(/^_[0-9a-f]{40}$/);
    const url = new URL(r.json.redirect);
    expect(`${url.origin}${url.pathname}`).toBe(idp.sloUrl);
    expect(url.searchParams.get('Signature')).toEqual(expect.any(String));
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    expect(request).toContain(
      'nameid-alice</saml2:NameID><saml2p:SessionIndex>session-1</saml2p:SessionIndex>',
    );
    expect((await whoAmI(signedIn.json.access_token)).status).toBe(401);

    const done = await post('complete_logout', {
      realm: 'saml1',
      ids: [r.json.id],
      query_string: idp.logoutResponseQuery(r.json.id),
    });
    expect(done.status).toBe(200);
    expect(done.json).toEqual({});
    const other = await post('complete_logout', {
      realm: 'saml1',
      ids: [r.json.id],
      query_string: idp.logoutResponseQuery('_other'),
    });
    expect(other.status).toBe(500);
    expect(other.json.error.reason).toContain('is in-response-to [_other]');
  });

  it('invalidates the tokens of the session an IdP logout request names', async () => {
    const one = await signIn('session-a');
    const two = await signIn('session-b');
    const r = await post('invalidate', {
      realm: 'saml1',
      query_string: idp.logoutRequestQuery('nameid-alice', { sessionIndex: 'session-a', relayState: 'rs' }),
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ realm: 'saml1', invalidated: 1 });
    const url = new URL(r.json.redirect);
    expect(url.searchParams.get('RelayState')).toBe('rs');
    expect(url.searchParams.get('Signature')).toEqual(expect.any(String));
    expect(inflateRawSync(Buffer.from(url.searchParams.get('SAMLResponse')!, 'base64')).toString()).toContain(
      'urn:oasis:names:tc:SAML:2.0:status:Success',
    );
    expect((await whoAmI(one.json.access_token)).status).toBe(401);
    expect((await whoAmI(two.json.access_token)).status).toBe(200);

    const unsigned = await post('invalidate', {
      acs: SP.acs,
      query_string: idp.logoutRequestQuery('nameid-alice', { sessionIndex: 'session-b', signed: false }),
    });
    expect(unsigned.status).toBe(500);
    expect(unsigned.json.error.reason).toBe('Logout request is not signed');
    expect((await whoAmI(two.json.access_token)).status).toBe(200);
  });

  it('publishes the SP metadata', async () => {
    const r = await http(node.url, 'GET', '/_security/saml/metadata/saml1', undefined, FACILITATOR);
    expect(r.status).toBe(200);
    expect(r.json.metadata).toContain(
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${SP.entityId}">`,
    );
    expect(r.json.metadata).toContain('AuthnRequestsSigned="false"');
    expect(r.json.metadata).toContain('<md:KeyDescriptor use="signing">');
    expect(r.json.metadata).toContain('<md:KeyDescriptor use="encryption">');
    const missing = await http(node.url, 'GET', '/_security/saml/metadata/nope', undefined, FACILITATOR);
    expect(missing.json.error.reason).toBe('Cannot find any matching realm for [nope]');
  });
});
