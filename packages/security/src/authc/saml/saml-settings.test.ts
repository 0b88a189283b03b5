import { describe, expect, it } from 'vitest';
import { samlRealmConfigs } from './saml-settings.ts';

const P = 'xpack.security.authc.realms.saml';
const BASE = {
  'idp.metadata.path': 'saml/idp.xml',
  'idp.entity_id': 'https://idp/',
  'sp.entity_id': 'https://sp/',
  'sp.acs': 'https://sp/acs',
  'attributes.principal': 'uid',
};

function configs(realms: Record<string, Record<string, string>>, tokenServiceEnabled = true) {
  const settings: Record<string, string> = {};
  for (const [name, s] of Object.entries(realms))
    for (const [k, v] of Object.entries(s)) settings[`${P}.${name}.${k}`] = v;
  return samlRealmConfigs({ settings, secureSettings: {}, configDir: '/etc/shoal', tokenServiceEnabled });
}

describe('samlRealmConfigs', () => {
  it('reads a realm with its defaults, sorted by order', () => {
    const [b, a] = configs({
      b: { ...BASE, order: '1' },
      a: { ...BASE, order: '3', 'idp.metadata.path': 'https://idp/md' },
    });
    expect(b!.name).toBe('b');
    expect(b).toMatchObject({
      order: 1,
      idp: {
        entityId: 'https://idp/',
        metadata: { kind: 'file', path: '/etc/shoal/saml/idp.xml' },
        useSingleLogout: true,
      },
      sp: { entityId: 'https://sp/', acs: 'https://sp/acs' },
      attributes: { principal: { attribute: 'uid' } },
      nameId: { format: undefined, allowCreate: false },
      forceAuthn: false,
      allowedClockSkewMs: 180_000,
      populateUserMetadata: true,
    });
    expect(a!.idp.metadata).toEqual({ kind: 'url', url: new URL('https://idp/md'), refreshMs: 3_600_000 });
    expect(configs({ c: { ...BASE, enabled: 'false' } })).toEqual([]);
  });

  it.each([
    [
      'The configuration setting [xpack.security.authc.realms.saml.r.sp.acs] is required',
      { 'sp.acs': undefined },
    ],
    [
      '[xpack.security.authc.realms.saml.r.attributes.principal] is required',
      { 'attributes.principal': undefined },
    ],
    ['The [http] protocol is not supported as it is insecure', { 'idp.metadata.path': 'http://idp/md' }],
    [
      'without also setting [xpack.security.authc.realms.saml.r.attributes.mail]',
      { 'attribute_patterns.mail': '(.*)' },
    ],
    ['Invalid value [(]', { 'attribute_patterns.principal': '(' }],
    ['[xpack.security.authc.realms.saml.r.signing.certificate] is required', { 'signing.key': 'k.pem' }],
    ['keystores for SAML keys', { 'signing.keystore.path': 'x.p12' }],
    ['Failed to parse value [yes]', { force_authn: 'yes' }],
    ['allowed_clock_skew', { allowed_clock_skew: 'soon' }],
  ])('refuses: %s', (message, change) => {
    const s: Record<string, string> = { ...BASE };
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete s[k];
      else s[k] = v;
    }
    expect(() => configs({ r: s })).toThrow(message);
  });

  it('needs the token service', () => {
    expect(() => configs({ r: BASE }, false)).toThrow(
      'SAML Realm requires that the token service be enabled',
    );
  });
});
