import { createVerify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rsaIdentity, type SigningIdentity, TestSamlIdp } from '../../../../../test/support/saml-idp.ts';
import { SamlRealm } from './saml-realm.ts';
import { samlRealmConfigs } from './saml-settings.ts';
import { TOKEN_METADATA } from './user-attributes.ts';

const P = 'xpack.security.authc.realms.saml.s1';
const SP = { entityId: 'https://sp.test/', acs: 'https://sp.test/acs', logout: 'https://sp.test/logout' };
let idp: TestSamlIdp;
let stranger: SigningIdentity;
let dir: string;

beforeAll(async () => {
  idp = await TestSamlIdp.create('https://idp.test', SP);
  stranger = await rsaIdentity('stranger');
  dir = mkdtempSync(join(tmpdir(), 'shoal-saml-unit-'));
  writeFileSync(join(dir, 'idp.xml'), idp.metadataXml());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function realm(extra: Record<string, string> = {}, now = () => Date.now()): SamlRealm {
  const [config] = samlRealmConfigs({
    settings: {
      [`${P}.idp.metadata.path`]: 'idp.xml',
      [`${P}.idp.entity_id`]: idp.entityId,
      [`${P}.sp.entity_id`]: SP.entityId,
      [`${P}.sp.acs`]: SP.acs,
      [`${P}.sp.logout`]: SP.logout,
      [`${P}.attributes.principal`]: 'uid',
      [`${P}.attributes.groups`]: 'groups',
      ...extra,
    },
    secureSettings: {},
    configDir: dir,
    tokenServiceEnabled: true,
  });
  return new SamlRealm(config!, now);
}

const xmlOf = (redirect: string, parameter = 'SAMLRequest') =>
  inflateRawSync(Buffer.from(new URL(redirect).searchParams.get(parameter)!, 'base64')).toString('utf8');

describe('SamlRealm', () => {
  it('prepares a deflated AuthnRequest to the IdP SSO URL', async () => {
    const p = await realm({ [`${P}.force_authn`]: 'true', [`${P}.nameid_format`]: 'urn:f' }).prepare(
      'state-1',
    );
    expect(p.id).toMatch(/^_[0-9a-f]{40}$/);
    const url = new URL(p.redirect);
    expect(url.origin + url.pathname).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('state-1');
    expect(url.searchParams.has('Signature')).toBe(false);
    const xml = xmlOf(p.redirect);
    expect(xml).toContain(`ID="${p.id}"`);
    expect(xml).toContain(`AssertionConsumerServiceURL="${SP.acs}"`);
    expect(xml).toContain('ForceAuthn="true"');
    expect(xml).toContain('Format="urn:f"');
    expect(xml).toContain(`<saml2:Issuer>${SP.entityId}</saml2:Issuer>`);
  });

  it('signs the AuthnRequest over the query string when the realm signs them', async () => {
    const p = await realm({ [`${P}.signing.key`]: 'sp.key', [`${P}.signing.certificate`]: 'sp.crt' }).prepare(
      'rs',
    );
    const query = p.redirect.slice(p.redirect.indexOf('?') + 1);
    const [signed, signature] = query.split('&Signature=');
    expect(signed).toMatch(
      /^SAMLRequest=[^&]+&RelayState=rs&SigAlg=http%3A%2F%2Fwww\.w3\.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256$/,
    );
    const cert = new X509Certificate(readFileSync(join(dir, 'sp.crt')));
    const sig = Buffer.from(decodeURIComponent(signature!), 'base64');
    expect(createVerify('RSA-SHA256').update(signed!).verify(cert.publicKey, sig)).toBe(true);
  });

  it('accepts a signed response or a signed assertion, mapping attributes and NameID', async () => {
    const r = realm({ [`${P}.attribute_patterns.groups`]: '^cn=([^,]+),' });
    const attributes = { uid: ['alice'], groups: ['cn=admins,dc=x', 'other'], mail: ['a@x'] };
    for (const sign of ['response', 'assertion', 'both'] as const) {
      const xml = idp.responseXml({ inResponseTo: '_id1', attributes, sign });
      const { user, tokenMetadata } = await r.authenticate(xml, ['_id1']);
      expect(user).toMatchObject({ principal: 'alice', groups: ['admins'], name: null, mail: null });
      expect(user.metadata).toMatchObject({ 'saml(uid)': ['alice'], saml_nameid: 'nameid-alice' });
      expect(tokenMetadata).toMatchObject({
        [TOKEN_METADATA.nameIdValue]: 'nameid-alice',
        [TOKEN_METADATA.session]: 'session-1',
        [TOKEN_METADATA.realm]: 's1',
      });
    }
    const byNameId = realm({ [`${P}.attributes.principal`]: 'nameid' });
    expect((await byNameId.authenticate(idp.responseXml(), [])).user.principal).toBe('nameid-alice');
    const persistentOnly = realm({ [`${P}.attributes.principal`]: 'nameid:persistent' });
    await expect(persistentOnly.authenticate(idp.responseXml(), [])).rejects.toThrow(
      'nameid:persistent not found in saml attributes',
    );
  });

  it.each([
    ['unsigned', { sign: 'none' }, 'is not signed, but a signature is required'],
    ['signed by another key', { sign: 'assertion', signWith: 'stranger' }, 'could not be validated'],
    ['signed response, another key', { sign: 'response', signWith: 'stranger' }, 'could not be validated'],
    ['wrong audience', { audience: 'https://other/' }, 'do not match required audience [https://sp.test/]'],
    ['expired', { notOnOrAfter: new Date(Date.now() - 4 * 60_000) }, 'Rejecting SAML assertion because'],
    ['not yet valid', { notBefore: new Date(Date.now() + 4 * 60_000) }, 'is before'],
    [
      'unknown InResponseTo',
      { inResponseTo: '_other' },
      'is in-response-to [_other] but expected one of [_id1]',
    ],
    ['wrong destination', { destination: 'https://x/acs' }, 'is for destination https://x/acs'],
    ['wrong recipient', { recipient: 'https://x/acs' }, 'Recipient https://x/acs does not match'],
    ['wrong issuer', { issuer: 'https://evil' }, 'SAML Issuer [https://evil] does not match'],
    ['failed status', { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }, "not a 'success' response"],
  ] as const)('refuses a response %s', async (_, opts, message) => {
    const o = { ...opts, signWith: 'signWith' in opts ? stranger : undefined } as never;
    await expect(realm().authenticate(idp.responseXml(o), ['_id1'])).rejects.toThrow(message);
  });

  it('refuses a response changed after signing, and a DOCTYPE', async () => {
    const tampered = idp.responseXml({
      attributes: { uid: ['alice'] },
      tamper: (x) => x.replace('>alice<', '>admin<'),
    });
    await expect(realm().authenticate(tampered, [])).rejects.toThrow('could not be validated');
    // The assertion wrapped into a new, unsigned response: its signature still holds, the response's
    // own fields are checked, and a second assertion is refused.
    const wrapped = idp.responseXml({
      sign: 'assertion',
      tamper: (x) =>
        x.replace(
          '</samlp:Response>',
          `${/<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(x)![0]}</samlp:Response>`,
        ),
    });
    await expect(realm().authenticate(wrapped, [])).rejects.toThrow(
      /multiple|multiple elements with the same value/,
    );
    await expect(realm().authenticate('<!DOCTYPE x []><x/>', [])).rejects.toThrow('DOCTYPE is not allowed');
  });

  it('refuses an assertion it has already accepted', async () => {
    const r = realm();
    const xml = idp.responseXml({ attributes: { uid: ['alice'] } });
    await r.authenticate(xml, []);
    await expect(r.authenticate(xml, [])).rejects.toThrow(/SAML assertion \[_\w+\] has already been used/);
  });

  it('decrypts an encrypted assertion with the encryption key', async () => {
    const sp = await rsaIdentity('sp-encryption');
    writeFileSync(join(dir, 'enc.key'), sp.keyPem);
    writeFileSync(join(dir, 'enc.crt'), sp.certPem);
    const r = realm({ [`${P}.encryption.key`]: 'enc.key', [`${P}.encryption.certificate`]: 'enc.crt' });
    const xmlOfB64 = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
    for (const sign of ['assertion', 'response'] as const) {
      const content = await idp.encryptedResponse({ attributes: { uid: ['alice'] }, sign }, sp.certPem);
      expect(xmlOfB64(content)).toContain('<saml:EncryptedAssertion>');
      expect((await r.authenticate(xmlOfB64(content), [])).user.principal).toBe('alice');
    }
    const unsigned = await idp.encryptedResponse(
      { attributes: { uid: ['alice'] }, sign: 'none' },
      sp.certPem,
    );
    await expect(r.authenticate(xmlOfB64(unsigned), [])).rejects.toThrow('is not signed');
    const forOther = await idp.encryptedResponse({ attributes: { uid: ['alice'] } }, stranger.certPem);
    await expect(r.authenticate(xmlOfB64(forOther), [])).rejects.toThrow('Failed to decrypt SAML assertion');
    await expect(realm().authenticate(xmlOfB64(forOther), [])).rejects.toThrow(
      'is encrypted, but no decryption key is available',
    );
  });

  it('builds the LogoutRequest for a token and reads the IdP logout messages', async () => {
    const r = realm({ [`${P}.signing.key`]: 'sp.key', [`${P}.signing.certificate`]: 'sp.crt' });
    const out = await r.logoutRedirect({
      [TOKEN_METADATA.nameIdValue]: 'nameid-alice',
      [TOKEN_METADATA.nameIdFormat]: 'urn:f',
      [TOKEN_METADATA.session]: 'session-1',
    });
    const url = new URL(out!.redirect);
    expect(url.origin + url.pathname).toBe(idp.sloUrl);
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const xml = xmlOf(out!.redirect);
    expect(xml).toContain(`ID="${out!.id}"`);
    expect(xml).toContain('<saml2:NameID Format="urn:f">nameid-alice</saml2:NameID>');
    expect(xml).toContain('<saml2p:SessionIndex>session-1</saml2p:SessionIndex>');

    const request = await r.parseLogoutRequest(
      idp.logoutRequestQuery('nameid-alice', { sessionIndex: 's9', relayState: 'rs' }),
    );
    expect(request).toMatchObject({ nameId: { value: 'nameid-alice' }, session: 's9', relayState: 'rs' });
    await expect(r.parseLogoutRequest(idp.logoutRequestQuery('x', { signed: false }))).rejects.toThrow(
      'Logout request is not signed',
    );
    const tampered = idp
      .logoutRequestQuery('x')
      .replace('RelayState', 'X')
      .replace(/SAMLRequest=./, 'SAMLRequest=A');
    await expect(r.parseLogoutRequest(tampered)).rejects.toThrow();
    const answer = await r.logoutResponseRedirect(request.requestId, 'rs');
    expect(xmlOf(answer!, 'SAMLResponse')).toContain(`InResponseTo="${request.requestId}"`);

    await r.completeLogout({ queryString: idp.logoutResponseQuery(out!.id) }, [out!.id]);
    await expect(r.completeLogout({ queryString: idp.logoutResponseQuery('_x') }, [out!.id])).rejects.toThrow(
      'is in-response-to [_x]',
    );
    await expect(
      r.completeLogout({ queryString: idp.logoutResponseQuery(out!.id, { signed: false }) }, [out!.id]),
    ).rejects.toThrow('Query string is not signed');
  });

  it('describes the SP in its metadata', () => {
    const xml = realm({
      [`${P}.signing.key`]: 'sp.key',
      [`${P}.signing.certificate`]: 'sp.crt',
    }).spMetadata();
    expect(xml).toContain(`entityID="${SP.entityId}"`);
    expect(xml).toContain('AuthnRequestsSigned="true" WantAssertionsSigned="true"');
    expect(xml).toContain(
      `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SP.logout}"/>`,
    );
    expect(xml).toContain(`Location="${SP.acs}" index="1" isDefault="true"`);
    expect(xml).toContain('<md:KeyDescriptor use="signing">');
  });
});

beforeAll(async () => {
  const sp = await rsaIdentity('sp');
  writeFileSync(join(dir, 'sp.key'), sp.keyPem);
  writeFileSync(join(dir, 'sp.crt'), sp.certPem);
});
