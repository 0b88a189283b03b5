import { describe, expect, it } from 'vitest';
import { OidcRealm } from './oidc-realm.ts';
import { type OidcRealmConfig, oidcRealmConfigs } from './oidc-settings.ts';

const P = 'xpack.security.authc.realms.oidc.o1';

function config(extra: Record<string, string> = {}): OidcRealmConfig {
  return oidcRealmConfigs({
    settings: {
      [`${P}.rp.client_id`]: 'my client',
      [`${P}.rp.response_type`]: 'id_token token',
      [`${P}.rp.redirect_uri`]: 'https://rp/cb',
      [`${P}.rp.requested_scopes`]: 'email',
      [`${P}.op.issuer`]: 'https://op',
      [`${P}.op.authorization_endpoint`]: 'https://op/auth?tenant=t1',
      [`${P}.op.jwkset_path`]: '/nonexistent/jwks.json',
      [`${P}.claims.principal`]: 'sub',
      ...extra,
    },
    secureSettings: {},
    configDir: '/',
    tokenServiceEnabled: true,
  })[0]!;
}

describe('OidcRealm', () => {
  it('prepares the authentication request on the authorization endpoint', () => {
    const realm = new OidcRealm(config(), () => 0);
    const p = realm.prepare(undefined, 'n1', 'ann@example.com');
    expect(p.nonce).toBe('n1');
    expect(p.state).toMatch(/^[\w-]{43}$/);
    expect(realm.prepare().nonce).not.toBe(realm.prepare().nonce);
    const url = new URL(p.redirect);
    expect(url.origin + url.pathname).toBe('https://op/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: 't1',
      response_type: 'id_token token',
      client_id: 'my client',
      redirect_uri: 'https://rp/cb',
      scope: 'email openid',
      state: p.state,
      nonce: 'n1',
      login_hint: 'ann@example.com',
    });
    expect(realm.isIssuerValid('https://op')).toBe(true);
    expect(realm.isIssuerValid('https://op/')).toBe(false);
  });

  it('refuses an answer whose state or response type is not the expected one, before reading keys', async () => {
    const realm = new OidcRealm(config(), () => 0);
    await expect(
      realm.authenticate('https://rp/cb#id_token=a.b.c&access_token=x&state=s1', 's2', 'n'),
    ).rejects.toThrow('Invalid state parameter [s1], while [s2] was expected');
    await expect(realm.authenticate('https://rp/cb#id_token=a.b.c&state=s1', 's1', 'n')).rejects.toThrow(
      'Unexpected response type [id_token], while [id_token token] is configured',
    );
    await expect(
      realm.authenticate('https://rp/cb#id_token=a.b.c&access_token=x&token_type=mac&state=s1', 's1', 'n'),
    ).rejects.toThrow('Invalid token type [mac], while [Bearer] was expected');
    // The configured JWK set file is missing: a refusal, not a crash.
    await expect(
      realm.authenticate('https://rp/cb#id_token=a.b.c&access_token=x&token_type=Bearer&state=s1', 's1', 'n'),
    ).rejects.toThrow("Failed to get the OP's JWK set: ENOENT");
  });

  it('builds the end-session URL, or none without an endpoint', () => {
    expect(new OidcRealm(config(), () => 0).logoutRedirect('jwt')).toBeNull();
    const realm = new OidcRealm(
      config({
        [`${P}.op.endsession_endpoint`]: 'https://op/logout',
        [`${P}.rp.post_logout_redirect_uri`]: 'https://rp/out',
      }),
      () => 0,
    );
    const url = new URL(realm.logoutRedirect('the.id.token')!);
    expect(url.searchParams.get('id_token_hint')).toBe('the.id.token');
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe('https://rp/out');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
  });
});
