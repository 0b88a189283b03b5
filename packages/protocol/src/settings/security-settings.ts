/**
 * Security's node settings (Elasticsearch's XPackSettings, TokenService and the HTTP SSL
 * settings), fixed at node start-up: `-E key=value` or the config file's `settings`.
 */
import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import type { Setting, SettingGroup, SettingValue } from './setting.ts';

function node(key: string, type: Setting['type'], def: Setting['default']): Setting {
  return { key, type, default: def, scope: 'node', dynamic: false };
}

export const HTTP_SSL_ENABLED = 'xpack.security.http.ssl.enabled';
export const TOKEN_SERVICE_ENABLED = 'xpack.security.authc.token.enabled';

export const SECURITY_SETTINGS: readonly Setting[] = [
  node('xpack.security.enabled', { kind: 'bool' }, 'true'),
  node('xpack.security.authc.password_hashing.algorithm', { kind: 'string' }, 'bcrypt'),
  // XPackSettings.TOKEN_SERVICE_ENABLED_SETTING: on when HTTP has TLS, unless set.
  node(TOKEN_SERVICE_ENABLED, { kind: 'bool' }, (flat) => flat[HTTP_SSL_ENABLED] ?? 'false'),
  // TokenService.TOKEN_EXPIRATION: 20m, at least 1s and at most 1h.
  node(
    'xpack.security.authc.token.timeout',
    { kind: 'time', minMs: 1000, minText: '1s', maxMs: 3_600_000, maxText: '1h' },
    '20m',
  ),
  node(HTTP_SSL_ENABLED, { kind: 'bool' }, 'false'),
  node('xpack.security.http.ssl.key', { kind: 'string' }, ''),
  node('xpack.security.http.ssl.key_passphrase', { kind: 'string' }, ''),
  node('xpack.security.http.ssl.certificate', { kind: 'string' }, ''),
  node('xpack.security.http.ssl.certificate_authorities', { kind: 'list' }, []),
];

export const REALMS_PREFIX = 'xpack.security.authc.realms.';

/** The realm types Shoal has, and the settings of those it reads from the node settings. */
const REALM_SETTINGS: Record<string, readonly string[] | undefined> = {
  native: undefined,
  file: undefined,
  pki: ['order', 'enabled', 'certificate_authorities', 'delegation.enabled', 'username_pattern'],
  // OpenIdConnectRealmSettings (the HTTP client, proxy, TLS and delegated-authorization
  // settings are not offered: a value for them is refused as unknown).
  oidc: [
    'order',
    'enabled',
    'rp.client_id',
    'rp.response_type',
    'rp.redirect_uri',
    'rp.post_logout_redirect_uri',
    'rp.requested_scopes',
    'rp.signature_algorithm',
    'rp.client_auth_method',
    'op.issuer',
    'op.authorization_endpoint',
    'op.token_endpoint',
    'op.userinfo_endpoint',
    'op.endsession_endpoint',
    'op.jwkset_path',
    'claims.principal',
    'claims.groups',
    'claims.name',
    'claims.mail',
    'claims.dn',
    'claim_patterns.principal',
    'claim_patterns.groups',
    'claim_patterns.name',
    'claim_patterns.mail',
    'claim_patterns.dn',
    'allowed_clock_skew',
    'populate_user_metadata',
  ],
  // SamlRealmSettings, with keys and certificates as PEM files.
  saml: [
    'order',
    'enabled',
    'idp.metadata.path',
    'idp.metadata.http.refresh',
    'idp.entity_id',
    'idp.use_single_logout',
    'sp.entity_id',
    'sp.acs',
    'sp.logout',
    ...['principal', 'groups', 'name', 'mail', 'dn'].flatMap((a) => [
      `attributes.${a}`,
      `attribute_patterns.${a}`,
    ]),
    'nameid_format',
    'nameid.allow_create',
    'nameid.sp_qualifier',
    'force_authn',
    'populate_user_metadata',
    'allowed_clock_skew',
    'req_authn_context_class_ref',
    'signing.key',
    'signing.certificate',
    'signing.saml_messages',
    'encryption.key',
    'encryption.certificate',
  ],
};

/**
 * Settings Elasticsearch's realms have and Shoal's do not (yet): refused with a 501 naming
 * them, not as unknown. An OIDC realm calls its OP with the node's own HTTP client (the system
 * CAs and `NODE_EXTRA_CA_CERTS`), so it has no `ssl.*`, `http.*` or proxy settings.
 */
const REALM_SETTINGS_NOT_OFFERED: Record<string, readonly string[] | undefined> = {
  oidc: ['ssl.', 'http.', 'authorization_realms', 'rp.client_auth_jwt_signature_algorithm'],
  saml: [
    'ssl.',
    'idp.metadata.http.min_refresh',
    'idp.metadata.http.fail_on_error',
    'authorization_realms',
    'signing.keystore.',
    'encryption.keystore.',
    'exclude_roles',
    'private_attributes',
  ],
};

/**
 * Realm settings that are secure settings in Elasticsearch (kept in its keystore, never in
 * `elasticsearch.yml`). Shoal has no keystore: a node reads them from environment variables
 * named as the setting, and refuses them among the plain settings as Elasticsearch does.
 */
const SECURE_REALM_SETTINGS: Record<string, readonly string[] | undefined> = {
  oidc: ['rp.client_secret'],
  saml: ['signing.secure_key_passphrase', 'encryption.secure_key_passphrase'],
};

/** Whether `key` names a secure realm setting (`xpack.security.authc.realms.oidc.<name>.rp.client_secret`). */
export function isSecureRealmSetting(key: string): boolean {
  if (!key.startsWith(REALMS_PREFIX)) return false;
  const [type, name, ...rest] = key.slice(REALMS_PREFIX.length).split('.');
  return !!type && !!name && (SECURE_REALM_SETTINGS[type]?.includes(rest.join('.')) ?? false);
}

/** `xpack.security.authc.realms.<type>.<name>.<setting>` (RealmSettings' affix settings). */
function validateRealmSetting(key: string, _value: SettingValue): void {
  const [type, name, ...rest] = key.slice(REALMS_PREFIX.length).split('.');
  const setting = rest.join('.');
  if (!type || !name || setting === '') throw illegalArgument(`unknown setting [${key}]`);
  if (!(type in REALM_SETTINGS)) throw notImplemented(`the [${type}] realm type (setting [${key}])`);
  if (isSecureRealmSetting(key)) {
    throw illegalArgument(
      `Setting [${key}] is a secure setting and must be given as an environment variable of that name (Shoal's keystore), but was found among the node settings`,
    );
  }
  if (REALM_SETTINGS_NOT_OFFERED[type]?.some((p) => setting.startsWith(p)))
    throw notImplemented(`the setting [${key}] of the [${type}] realm`);
  const known = REALM_SETTINGS[type];
  if (known && !known.includes(setting)) {
    throw illegalArgument(
      `unknown setting [${key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
    );
  }
}

export const SECURITY_SETTING_GROUPS: readonly SettingGroup[] = [
  { prefix: REALMS_PREFIX, scope: 'node', dynamic: false, validate: validateRealmSetting },
];
