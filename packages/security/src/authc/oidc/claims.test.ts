import { describe, expect, it } from 'vitest';
import { claimValues, mergeClaims, userFromClaims } from './claims.ts';
import type { OidcRealmConfig } from './oidc-settings.ts';

function realm(claims: OidcRealmConfig['claims'], populate = true): OidcRealmConfig {
  return { name: 'r', claims, populateUserMetadata: populate } as OidcRealmConfig;
}

describe('claims', () => {
  it('build the user from the named claims, cut by their patterns', () => {
    const r = realm({
      principal: { claim: 'email', pattern: /^([^@]+)@example\.com$/ },
      groups: { claim: 'groups', pattern: /^team-(.*)$/ },
      mail: { claim: 'email' },
      name: { claim: 'name' },
    });
    const user = userFromClaims(r, {
      sub: 's',
      email: 'ann@example.com',
      name: 'Ann',
      groups: ['team-a', 'other', 'team-b'],
      email_verified: true,
      iat: 1,
      exp: 2,
      aud: ['x'],
    });
    expect(user).toEqual({
      principal: 'ann',
      groups: ['a', 'b'],
      dn: null,
      name: 'Ann',
      mail: 'ann@example.com',
      metadata: {
        'oidc(sub)': 's',
        'oidc(email)': 'ann@example.com',
        'oidc(name)': 'Ann',
        'oidc(email_verified)': true,
      },
    });
    expect(userFromClaims(realm({ principal: { claim: 'sub' } }, false), { sub: 's' }).metadata).toEqual({});
  });

  it('refuse a missing principal and claims that are not strings', () => {
    const r = realm({ principal: { claim: 'email', pattern: /^(.*)@example\.com$/ } });
    expect(() => userFromClaims(r, { email: 'x@elsewhere' })).toThrow(
      'OpenID Connect Claim [email] for [r] not found',
    );
    expect(() => claimValues({ g: 5 }, { claim: 'g' }, 'k')).toThrow(
      'Setting [k] expects a claim with String or a String Array value but found a number',
    );
    expect(claimValues({}, { claim: 'g' }, 'k')).toEqual([]);
  });

  it('merge UserInfo claims under the ID token', () => {
    expect(
      mergeClaims(
        { sub: 's', groups: ['a'], address: { city: 'X' }, name: 'id' },
        { name: 'info', groups: ['a', 'b'], address: { zip: '1' }, phone: '2' },
      ),
    ).toEqual({ sub: 's', groups: ['a', 'b'], address: { city: 'X', zip: '1' }, name: 'id', phone: '2' });
  });
});
