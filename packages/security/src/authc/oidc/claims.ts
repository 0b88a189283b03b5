/**
 * From an ID token's claims to a user (OpenIdConnectRealm.buildUserFromClaims and its
 * ClaimParser): the principal, groups, name, mail and dn come from the claims the realm names,
 * each optionally cut down by its `claim_patterns` regex (group 1; values that do not match are
 * dropped); with `populate_user_metadata`, every string, number and boolean claim becomes user
 * metadata `oidc(<claim>)`. UserInfo claims are merged in with the ID token's winning.
 */
import { OidcAuthenticationFailure } from './id-token.ts';
import type { ClaimSetting, OidcRealmConfig } from './oidc-settings.ts';

export type Claims = Record<string, unknown>;

/** Claims Nimbus turns into dates, which Elasticsearch leaves out of the user metadata. */
const DATE_CLAIMS = new Set(['exp', 'iat', 'nbf']);

/** The values of one user claim: a string or a list of strings, each through the pattern. */
export function claimValues(claims: Claims, setting: ClaimSetting | undefined, settingKey: string): string[] {
  if (!setting) return [];
  const raw = claims[setting.claim];
  if (raw === undefined || raw === null) return [];
  const values = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
  if (!values?.every((v) => typeof v === 'string')) {
    throw new OidcAuthenticationFailure(
      `Setting [${settingKey}] expects a claim with String or a String Array value but found a ${Array.isArray(raw) ? 'non-string array' : typeof raw}`,
    );
  }
  if (!setting.pattern) return values;
  const out: string[] = [];
  for (const v of values) {
    const m = setting.pattern.exec(v);
    const g = m?.[1];
    if (g !== undefined && g !== '') out.push(g);
  }
  return out;
}

export interface ClaimedUser {
  principal: string;
  groups: string[];
  dn: string | null;
  name: string | null;
  mail: string | null;
  metadata: Record<string, unknown>;
}

export function userFromClaims(realm: OidcRealmConfig, claims: Claims): ClaimedUser {
  const key = (c: string) => `xpack.security.authc.realms.oidc.${realm.name}.claims.${c}`;
  const first = (c: 'principal' | 'dn' | 'name' | 'mail') =>
    claimValues(claims, realm.claims[c], key(c))[0] ?? null;
  const principal = first('principal');
  if (principal === null || principal === '') {
    throw new OidcAuthenticationFailure(
      `OpenID Connect Claim [${realm.claims.principal.claim}] for [${realm.name}] not found in ${JSON.stringify(claims)}`,
    );
  }
  const metadata: Record<string, unknown> = {};
  if (realm.populateUserMetadata) {
    for (const [k, v] of Object.entries(claims)) {
      if (DATE_CLAIMS.has(k)) continue;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        metadata[`oidc(${k})`] = v;
    }
  }
  return {
    principal,
    groups: claimValues(claims, realm.claims.groups, key('groups')),
    dn: first('dn'),
    name: first('name'),
    mail: first('mail'),
    metadata,
  };
}

/**
 * OpenIdConnectAuthenticator.mergeObjects: the UserInfo claims added to the ID token's; where
 * both have a claim, objects merge, arrays gain the values they lack, else the ID token wins.
 */
export function mergeClaims(idToken: Claims, userInfo: Claims): Claims {
  const out: Claims = { ...idToken };
  for (const [k, v] of Object.entries(userInfo)) {
    const mine = out[k];
    if (mine === undefined) out[k] = v;
    else if (Array.isArray(mine) && Array.isArray(v))
      out[k] = [...mine, ...v.filter((x) => !mine.includes(x))];
    else if (isObject(mine) && isObject(v)) out[k] = mergeClaims(mine, v);
  }
  return out;
}

function isObject(v: unknown): v is Claims {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
