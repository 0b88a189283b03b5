/**
 * OpenID Connect realms as the node settings declare them
 * (`xpack.security.authc.realms.oidc.<name>.*`, Elasticsearch's OpenIdConnectRealmSettings),
 * read once at start: a realm that cannot work stops the node with the message Elasticsearch
 * gives for it. The client secret is a secure setting (secureSettings: environment variables).
 */
import { isAbsolute, join } from 'node:path';
import { notImplemented, parseTimeValue } from '@shoal/protocol';
import { failSetting as fail, realmSettingsReader, realmsOfType } from '../realm-settings.ts';

export const OIDC_REALM_TYPE = 'oidc';

/** Elasticsearch's OpenIdConnectRealmSettings.SUPPORTED_SIGNATURE_ALGORITHMS. */
export const SIGNATURE_ALGORITHMS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
] as const;

export const RESPONSE_TYPES = ['code', 'id_token', 'id_token token'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** `client_secret_jwt` is Elasticsearch's too; Shoal does not sign client assertions yet. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** The claims a user is built from (`claims.<name>`, `claim_patterns.<name>`). */
export const USER_CLAIMS = ['principal', 'groups', 'name', 'mail', 'dn'] as const;
export type UserClaim = (typeof USER_CLAIMS)[number];

export interface ClaimSetting {
  claim: string;
  /** `claim_patterns.<name>`: its first group is the value; values that do not match are dropped. */
  pattern?: RegExp;
}

/** Where the OP's signing keys are: a JSON file (re-read when it changes) or an https URL. */
export type JwkSetLocation = { kind: 'file'; path: string } | { kind: 'url'; url: URL };

export interface OidcRealmConfig {
  name: string;
  order: number;
  rp: {
    clientId: string;
    clientSecret?: string;
    responseType: ResponseType;
    redirectUri: string;
    postLogoutRedirectUri?: string;
    requestedScopes: string[];
    signatureAlgorithm: (typeof SIGNATURE_ALGORITHMS)[number];
    clientAuthMethod: ClientAuthMethod;
  };
  op: {
    issuer: string;
    authorizationEndpoint: string;
    tokenEndpoint?: string;
    userinfoEndpoint?: string;
    endsessionEndpoint?: string;
    jwkset: JwkSetLocation;
  };
  claims: Partial<Record<UserClaim, ClaimSetting>> & { principal: ClaimSetting };
  allowedClockSkewMs: number;
  populateUserMetadata: boolean;
}

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    fail(`Invalid value [${value}] for [${key}]. Allowed values are [${allowed.join(', ')}]`);
  return value as T;
}

function uri(key: string, value: string): string {
  try {
    new URL(value);
  } catch {
    fail(`Invalid value [${value}] for [${key}]. Not a valid URI.`);
  }
  return value;
}

function bool(value: string | undefined, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  if (value === 'true' || value === 'false') return value === 'true';
  return fail(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** The names of the OIDC realms the settings mention. */
function jwksetLocation(key: string, value: string, configDir: string): JwkSetLocation {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    const url = new URL(value);
    // OpenIdConnectAuthenticator reads a remote JWK set over https only.
    if (url.protocol !== 'https:')
      fail(`Invalid value [${value}] for [${key}]. The JWK set URL must use the https scheme.`);
    return { kind: 'url', url };
  }
  return { kind: 'file', path: isAbsolute(value) ? value : join(configDir, value) };
}

export interface OidcSettingsSources {
  settings: Readonly<Record<string, string>>;
  /** Secure settings (`rp.client_secret`), by full key. */
  secureSettings: Readonly<Record<string, string>>;
  /** Where a relative `op.jwkset_path` is read from. */
  configDir: string;
  /** Whether the token service is on (the realm hands out its tokens). */
  tokenServiceEnabled: boolean;
}

function clientAuthMethod(key: string, value: string | undefined): ClientAuthMethod {
  if (value === 'client_secret_jwt')
    throw notImplemented(`the [client_secret_jwt] client authentication method (setting [${key}])`);
  return oneOf(key, value ?? 'client_secret_basic', CLIENT_AUTH_METHODS);
}

/** Every enabled OIDC realm of the node settings, in `order` (then name). */
export function oidcRealmConfigs(src: OidcSettingsSources): OidcRealmConfig[] {
  return realmsOfType(src.settings, OIDC_REALM_TYPE, (name) => oidcRealmConfig(name, src));
}

function oidcRealmConfig(name: string, src: OidcSettingsSources): OidcRealmConfig | undefined {
  const { key, get, require } = realmSettingsReader(src.settings, OIDC_REALM_TYPE, name);
  if (!bool(get('enabled'), true)) return undefined;
  if (!src.tokenServiceEnabled) {
    fail(
      'OpenID Connect Realm requires that the token service be enabled (xpack.security.authc.token.enabled)',
    );
  }
  const order = Number(get('order') ?? '0');
  if (!Number.isInteger(order)) fail(`Failed to parse value [${get('order')}] for setting [${key('order')}]`);
  const responseType = oneOf(key('rp.response_type'), require('rp.response_type'), RESPONSE_TYPES);
  const signatureAlgorithm = oneOf(
    key('rp.signature_algorithm'),
    get('rp.signature_algorithm') ?? 'RS256',
    SIGNATURE_ALGORITHMS,
  );
  const clientSecret = src.secureSettings[key('rp.client_secret')] || undefined;
  if (clientSecret === undefined && (responseType === 'code' || signatureAlgorithm.startsWith('HS')))
    fail(`The configuration setting [${key('rp.client_secret')}] is required`);
  const scopes = (get('rp.requested_scopes') ?? 'openid')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!scopes.includes('openid')) scopes.push('openid');
  const tokenEndpoint = get('op.token_endpoint');
  if (responseType === 'code' && tokenEndpoint === undefined)
    fail(`The configuration setting [${key('op.token_endpoint')}] is required`);
  const claims: Partial<Record<UserClaim, ClaimSetting>> = {};
  for (const c of USER_CLAIMS) {
    const claim = get(`claims.${c}`);
    const pattern = get(`claim_patterns.${c}`);
    if (claim === undefined) {
      if (c === 'principal') fail(`Setting [${key('claims.principal')}] is required`);
      if (pattern !== undefined)
        fail(
          `Setting [${key(`claim_patterns.${c}`)}] cannot be set unless [${key(`claims.${c}`)}] is also set`,
        );
      continue;
    }
    let regex: RegExp | undefined;
    if (pattern !== undefined) {
      try {
        regex = new RegExp(pattern);
      } catch (e) {
        fail(`Invalid value [${pattern}] for [${key(`claim_patterns.${c}`)}]: ${(e as Error).message}`);
      }
    }
    claims[c] = regex ? { claim, pattern: regex } : { claim };
  }
  const skewKey = key('allowed_clock_skew');
  const op: OidcRealmConfig['op'] = {
    issuer: require('op.issuer'),
    authorizationEndpoint: uri(key('op.authorization_endpoint'), require('op.authorization_endpoint')),
    jwkset: jwksetLocation(key('op.jwkset_path'), require('op.jwkset_path'), src.configDir),
  };
  if (tokenEndpoint !== undefined) op.tokenEndpoint = uri(key('op.token_endpoint'), tokenEndpoint);
  const userinfo = get('op.userinfo_endpoint');
  if (userinfo !== undefined) op.userinfoEndpoint = uri(key('op.userinfo_endpoint'), userinfo);
  const endsession = get('op.endsession_endpoint');
  if (endsession !== undefined) op.endsessionEndpoint = uri(key('op.endsession_endpoint'), endsession);
  const rp: OidcRealmConfig['rp'] = {
    clientId: require('rp.client_id'),
    responseType,
    redirectUri: uri(key('rp.redirect_uri'), require('rp.redirect_uri')),
    requestedScopes: scopes,
    signatureAlgorithm,
    clientAuthMethod: clientAuthMethod(key('rp.client_auth_method'), get('rp.client_auth_method')),
  };
  if (clientSecret !== undefined) rp.clientSecret = clientSecret;
  const postLogout = get('rp.post_logout_redirect_uri');
  if (postLogout !== undefined)
    rp.postLogoutRedirectUri = uri(key('rp.post_logout_redirect_uri'), postLogout);
  return {
    name,
    order,
    rp,
    op,
    claims: claims as OidcRealmConfig['claims'],
    allowedClockSkewMs: parseTimeValue(get('allowed_clock_skew') ?? '60s', skewKey),
    populateUserMetadata: bool(get('populate_user_metadata'), true),
  };
}
