/**
 * Delegated PKI: a proxy holding `delegate_pki` hands over a client's certificate chain; a PKI
 * realm with delegation on trusts it through its CA, role mappings give the roles, and the
 * answer is an access token for the certificate's user.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, makeSigned, type TestCertificate } from '../support/certificates.ts';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let dir: string;
let ca: TestCertificate;
let client: TestCertificate;
let stranger: TestCertificate;
const PROXY = { authorization: basicAuth('proxy', 'proxy-password') };
const DELEGATE = '/_security/delegate_pki';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shoal-pki-'));
  ca = await makeCa('O=Shoal, CN=Shoal PKI CA');
  client = await makeSigned(ca, 'O=Shoal, OU=clients, CN=Test Client');
  const otherCa = await makeCa('CN=Another CA');
  stranger = await makeSigned(otherCa, 'CN=Stranger');
  writeFileSync(join(dir, 'pki-ca.crt'), ca.pem);
  node = await startTestNode({
    env: { SHOAL_CONFIG_DIR: dir },
    args: [
      '-E',
      'xpack.security.authc.token.enabled=true',
      '-E',
      'xpack.security.authc.realms.pki.pki1.order=1',
      '-E',
      'xpack.security.authc.realms.pki.pki1.certificate_authorities=pki-ca.crt',
      '-E',
      'xpack.security.authc.realms.pki.pki1.delegation.enabled=true',
    ],
  });
  await http(node.url, 'PUT', '/_security/role/pki_proxy', { cluster: ['delegate_pki'] });
  await http(node.url, 'PUT', '/_security/user/proxy', { password: 'proxy-password', roles: ['pki_proxy'] });
  await http(node.url, 'PUT', '/_security/role/security_admin', { cluster: ['manage_security'] });
  await http(node.url, 'PUT', '/_security/user/admin', {
    password: 'admin-password',
    roles: ['security_admin'],
  });
  await http(node.url, 'PUT', '/_security/role_mapping/pki_clients', {
    roles: ['viewer'],
    rules: { all: [{ field: { 'realm.name': 'pki1' } }, { field: { dn: '*,OU=clients,O=Shoal' } }] },
    enabled: true,
  });
});
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('delegated PKI', () => {
  it("answers a trusted chain with an access token for the certificate's user", async () => {
    const r = await http(
      node.url,
      'POST',
      DELEGATE,
      { x509_certificate_chain: [client.der64, ca.der64] },
      PROXY,
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['access_token', 'type', 'expires_in', 'authentication']);
    expect(r.json).toMatchObject({ type: 'Bearer', expires_in: 1200 });
    expect(r.json.authentication).toMatchObject({
      username: 'Test Client',
      roles: ['viewer'],
      metadata: {
        pki_dn: 'CN=Test Client,OU=clients,O=Shoal',
        pki_delegated_by_user: 'proxy',
        pki_delegated_by_realm: 'default_native',
      },
      authentication_realm: { name: 'pki1', type: 'pki' },
    });
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, {
      authorization: `Bearer ${r.json.access_token}`,
    });
    expect(me.json).toMatchObject({
      username: 'Test Client',
      authentication_type: 'token',
      roles: ['viewer'],
    });
    const leafOnly = await http(
      node.url,
      'POST',
      DELEGATE,
      { x509_certificate_chain: [client.der64] },
      PROXY,
    );
    expect(leafOnly.status).toBe(200);
  });

  it('refuses a chain no realm trusts, a chain out of order, and callers without delegate_pki', async () => {
    const untrusted = await http(
      node.url,
      'POST',
      DELEGATE,
      { x509_certificate_chain: [stranger.der64] },
      PROXY,
    );
    expect(untrusted.status).toBe(401);
    expect(untrusted.json.error.reason).toBe(
      'unable to authenticate user [CN=Stranger] for action [cluster:admin/ext/security/delegate_pki]',
    );
    const unordered = await http(
      node.url,
      'POST',
      DELEGATE,
      { x509_certificate_chain: [ca.der64, client.der64] },
      PROXY,
    );
    expect(unordered.status).toBe(400);
    expect(unordered.json.error.reason).toBe(
      'Validation Failed: 1: certificates chain must be an ordered chain;',
    );
    const empty = await http(node.url, 'POST', DELEGATE, { x509_certificate_chain: [] }, PROXY);
    expect(empty.json.error.reason).toBe('Validation Failed: 1: certificates chain array must not be empty;');
    // manage_security does not include delegate_pki.
    const admin = await http(
      node.url,
      'POST',
      DELEGATE,
      { x509_certificate_chain: [client.der64, ca.der64] },
      { authorization: basicAuth('admin', 'admin-password') },
    );
    expect(admin.status).toBe(403);
    const superuser = await http(node.url, 'POST', DELEGATE, {
      x509_certificate_chain: [client.der64, ca.der64],
    });
    expect(superuser.status).toBe(200);
  });
});
