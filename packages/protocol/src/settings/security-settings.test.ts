import { describe, expect, it } from 'vitest';
import { getBool } from './getters.ts';
import { HTTP_SSL_ENABLED, isSecureRealmSetting, TOKEN_SERVICE_ENABLED } from './security-settings.ts';
import { validateSettings } from './validate.ts';

describe('security node settings', () => {
  it('accept the token, HTTP TLS and PKI realm settings, and bound the token timeout', () => {
    expect(
      validateSettings(
        {
          'xpack.security.authc.token.timeout': '30m',
          [HTTP_SSL_ENABLED]: 'true',
          'xpack.security.authc.realms.pki.pki1.delegation.enabled': 'true',
          'xpack.security.authc.realms.native.default_native.cache.ttl': '5m',
        },
        'cluster',
      ),
    ).toEqual([]);
    expect(() => validateSettings({ 'xpack.security.authc.token.timeout': '2h' }, 'cluster')).toThrow(
      'failed to parse value [2h] for setting [xpack.security.authc.token.timeout], must be <= [1h]',
    );
  });

  it('refuse unknown settings of a PKI realm, and realm types Shoal lacks with a 501', () => {
    expect(() => validateSettings({ 'xpack.security.authc.realms.pki.p.colour': 'x' }, 'cluster')).toThrow(
      /unknown setting \[xpack\.security\.authc\.realms\.pki\.p\.colour\]/,
    );
    expect(() => validateSettings({ 'xpack.security.authc.realms.ldap.l.order': '1' }, 'cluster')).toThrow(
      expect.objectContaining({ status: 501 }),
    );
    expect(() =>
      validateSettings({ 'xpack.security.authc.realms.saml.s.sp.acs': 'https://sp/acs' }, 'cluster'),
    ).not.toThrow();
    expect(() =>
      validateSettings({ 'xpack.security.authc.realms.saml.s.sp.colour': 'x' }, 'cluster'),
    ).toThrow(/unknown setting \[xpack\.security\.authc\.realms\.saml\.s\.sp\.colour\]/);
    expect(() =>
      validateSettings({ 'xpack.security.authc.realms.saml.s.signing.keystore.path': 'k.p12' }, 'cluster'),
    ).toThrow(expect.objectContaining({ status: 501 }));
  });

  it('accept OIDC realm settings, and refuse its client secret among them (a secure setting)', () => {
    const oidc = 'xpack.security.authc.realms.oidc.oidc1';
    expect(
      validateSettings(
        {
          [`${oidc}.rp.client_id`]: 'c',
          [`${oidc}.claim_patterns.groups`]: '^(.*)$',
          [`${oidc}.order`]: '2',
        },
        'cluster',
      ),
    ).toEqual([]);
    expect(() => validateSettings({ [`${oidc}.rp.client_secret`]: 's' }, 'cluster')).toThrow(
      `Setting [${oidc}.rp.client_secret] is a secure setting`,
    );
    expect(() => validateSettings({ [`${oidc}.ssl.certificate_authorities`]: 'ca.crt' }, 'cluster')).toThrow(
      expect.objectContaining({ status: 501 }),
    );
    expect(isSecureRealmSetting(`${oidc}.rp.client_secret`)).toBe(true);
    expect(isSecureRealmSetting(`${oidc}.rp.client_id`)).toBe(false);
    expect(isSecureRealmSetting('xpack.security.authc.realms.pki.p.rp.client_secret')).toBe(false);
  });

  it('turn the token service on by default exactly when HTTP has TLS', () => {
    expect(getBool({}, TOKEN_SERVICE_ENABLED)).toBe(false);
    expect(getBool({ [HTTP_SSL_ENABLED]: 'true' }, TOKEN_SERVICE_ENABLED)).toBe(true);
    expect(
      getBool({ [HTTP_SSL_ENABLED]: 'true', [TOKEN_SERVICE_ENABLED]: 'false' }, TOKEN_SERVICE_ENABLED),
    ).toBe(false);
  });
});
