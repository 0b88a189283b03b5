import { describe, expect, it } from 'vitest';
import { type OidcSettingsSources, oidcRealmConfigs } from './oidc-settings.ts';

const P = 'xpack.security.authc.realms.oidc';

function sources(settings: Record<string, string>, secret?: string): OidcSettingsSources {
  return {
    settings,
    secureSettings: secret === undefined ? {} : { [`${P}.o1.rp.client_secret`]: secret },
    configDir: '/etc/shoal',
    tokenServiceEnabled: true,
  };
}

const CODE_REALM = {
  [`${P}.o1.rp.client_id`]: 'c',
  [`${P}.o1.rp.response_type`]: 'code',
  [`${P}.o1.rp.redirect_uri`]: 'https://rp/cb',
  [`${P}.o1.op.issuer`]: 'https://op',
  [`${P}.o1.op.authorization_endpoint`]: 'https://op/auth',
  [`${P}.o1.op.token_endpoint`]: 'https://op/token',
  [`${P}.o1.op.jwkset_path`]: 'oidc/jwks.json',
  [`${P}.o1.claims.principal`]: 'sub',
};

describe('oidcRealmConfigs', () => {
  it("reads a realm with Elasticsearch's defaults", () => {
    const [r, ...rest] = oidcRealmConfigs(sources(CODE_REALM, 's3cret'));
    expect(rest).toEqual([]);
    expect(r).toMatchObject({
      name: 'o1',
      order: 0,
      rp: {
        clientId: 'c',
        clientSecret: 's3cret',
        responseType: 'code',
        requestedScopes: ['openid'],
        signatureAlgorithm: 'RS256',
        clientAuthMethod: 'client_secret_basic',
      },
      op: { issuer: 'https://op', jwkset: { kind: 'file', path: '/etc/shoal/oidc/jwks.json' } },
      claims: { principal: { claim: 'sub' } },
      allowedClockSkewMs: 60_000,
      populateUserMetadata: true,
    });
    const more = oidcRealmConfigs(
      sources(
        {
          ...CODE_REALM,
          [`${P}.o1.rp.requested_scopes`]: 'email, profile',
          [`${P}.o1.op.jwkset_path`]: 'https://op/jwks',
        },
        's',
      ),
    )[0]!;
    expect(more.rp.requestedScopes).toEqual(['email', 'profile', 'openid']);
    expect(more.op.jwkset).toEqual({ kind: 'url', url: new URL('https://op/jwks') });
    expect(oidcRealmConfigs(sources({ ...CODE_REALM, [`${P}.o1.enabled`]: 'false' }, 's'))).toEqual([]);
  });

  it('names the setting a realm lacks or has wrong', () => {
    const without = (k: string) => {
      const s: Record<string, string> = { ...CODE_REALM };
      delete s[`${P}.o1.${k}`];
      return () => oidcRealmConfigs(sources(s, 's'));
    };
    expect(without('rp.client_id')).toThrow(`The configuration setting [${P}.o1.rp.client_id] is required`);
    expect(without('op.token_endpoint')).toThrow(
      `The configuration setting [${P}.o1.op.token_endpoint] is required`,
    );
    expect(without('claims.principal')).toThrow(`Setting [${P}.o1.claims.principal] is required`);
    expect(() => oidcRealmConfigs(sources(CODE_REALM))).toThrow(
      `The configuration setting [${P}.o1.rp.client_secret] is required`,
    );
    expect(() =>
      oidcRealmConfigs(sources({ ...CODE_REALM, [`${P}.o1.rp.response_type`]: 'token' }, 's')),
    ).toThrow(
      `Invalid value [token] for [${P}.o1.rp.response_type]. Allowed values are [code, id_token, id_token token]`,
    );
    expect(() =>
      oidcRealmConfigs(sources({ ...CODE_REALM, [`${P}.o1.rp.signature_algorithm`]: 'none' }, 's')),
    ).toThrow(/Allowed values are \[HS256, HS384/);
    expect(() =>
      oidcRealmConfigs(sources({ ...CODE_REALM, [`${P}.o1.op.jwkset_path`]: 'http://op/jwks' }, 's')),
    ).toThrow('must use the https scheme');
    expect(() =>
      oidcRealmConfigs(sources({ ...CODE_REALM, [`${P}.o1.claim_patterns.groups`]: '(.*)' }, 's')),
    ).toThrow(
      `Setting [${P}.o1.claim_patterns.groups] cannot be set unless [${P}.o1.claims.groups] is also set`,
    );
    expect(() => oidcRealmConfigs({ ...sources(CODE_REALM, 's'), tokenServiceEnabled: false })).toThrow(
      'OpenID Connect Realm requires that the token service be enabled',
    );
    expect(() =>
      oidcRealmConfigs(
        sources({ ...CODE_REALM, [`${P}.o1.rp.client_auth_method`]: 'client_secret_jwt' }, 's'),
      ),
    ).toThrow(expect.objectContaining({ status: 501 }));
  });

  it('lets an implicit RS256 realm go without a secret and a token endpoint, and orders realms', () => {
    const implicit = {
      ...CODE_REALM,
      [`${P}.o1.rp.response_type`]: 'id_token',
      [`${P}.o1.order`]: '5',
      [`${P}.o2.rp.client_id`]: 'c',
      [`${P}.o2.rp.response_type`]: 'id_token token',
      [`${P}.o2.rp.redirect_uri`]: 'https://rp/cb',
      [`${P}.o2.op.issuer`]: 'https://op2',
      [`${P}.o2.op.authorization_endpoint`]: 'https://op2/auth',
      [`${P}.o2.op.jwkset_path`]: '/abs/jwks.json',
      [`${P}.o2.claims.principal`]: 'sub',
      [`${P}.o2.order`]: '1',
    };
    delete (implicit as Record<string, string>)[`${P}.o1.op.token_endpoint`];
    const realms = oidcRealmConfigs(sources(implicit));
    expect(realms.map((r) => r.name)).toEqual(['o2', 'o1']);
    expect(realms[0]!.op.jwkset).toEqual({ kind: 'file', path: '/abs/jwks.json' });
    expect(realms[1]!.rp.clientSecret).toBeUndefined();
  });
});
