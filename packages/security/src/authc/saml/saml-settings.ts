/**
 * SAML realms as the node settings declare them (`xpack.security.authc.realms.saml.<name>.*`,
 * Elasticsearch's SamlRealmSettings), read once at start: a realm that cannot work stops the
 * node with the message Elasticsearch gives for it. Signing and encryption keys are PEM files
 * (`signing.key`/`signing.certificate`, `encryption.key`/`encryption.certificate`).
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { notImplemented, parseTimeValue } from '@shoal/protocol';
import { failSetting as fail, realmSettingsReader, realmsOfType } from '../realm-settings.ts';

export const SAML_REALM_TYPE = 'saml';

/** The user properties an attribute can give (`attributes.<name>`, `attribute_patterns.<name>`). */
export const USER_ATTRIBUTES = ['principal', 'groups', 'name', 'mail', 'dn'] as const;
export type UserAttribute = (typeof USER_ATTRIBUTES)[number];

/** The SAML messages a signing key signs (`signing.saml_messages`; `*` is all of them). */
export const SIGNED_MESSAGE_TYPES = ['AuthnRequest', 'LogoutRequest', 'LogoutResponse'] as const;
export type SignedMessageType = (typeof SIGNED_MESSAGE_TYPES)[number];

export const NAMEID_TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
export const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

export interface AttributeSetting {
  /** An attribute's Name or FriendlyName, or `nameid` / `nameid:persistent` for the Subject's NameID. */
  attribute: string;
  /** `attribute_patterns.<name>`: its first group is the value; values that do not match are dropped. */
  pattern?: RegExp;
}

/** Where the IdP's metadata is: a file (re-read when it changes) or an https URL (refreshed). */
export type MetadataLocation = { kind: 'file'; path: string } | { kind: 'url'; url: URL; refreshMs: number };

export interface KeyPair {
  key: KeyObject;
  certificate: X509Certificate;
}

export interface SamlRealmConfig {
  name: string;
  order: number;
  idp: {
    entityId: string;
    metadata: MetadataLocation;
    useSingleLogout: boolean;
  };
  sp: { entityId: string; acs: string; logout?: string };
  attributes: Partial<Record<UserAttribute, AttributeSetting>> & { principal: AttributeSetting };
  nameId: { format: string | undefined; allowCreate: boolean; spQualifier?: string };
  forceAuthn: boolean;
  allowedClockSkewMs: number;
  populateUserMetadata: boolean;
  reqAuthnContextClassRef: string[];
  signing?: KeyPair & { messages: ReadonlySet<SignedMessageType> };
  encryption?: KeyPair;
}

export interface SamlSettingsSources {
  settings: Readonly<Record<string, string>>;
  /** Secure settings (`signing.secure_key_passphrase`, `encryption.secure_key_passphrase`), by full key. */
  secureSettings: Readonly<Record<string, string>>;
  /** Where relative paths (metadata, keys) are read from. */
  configDir: string;
  /** Whether the token service is on (the realm hands out its tokens). */
  tokenServiceEnabled: boolean;
}

function bool(key: string, value: string | undefined, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  if (value === 'true' || value === 'false') return value === 'true';
  return fail(`Failed to parse value [${value}] as only [true] or [false] are allowed. (setting [${key}])`);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The names of the SAML realms the settings mention. */
/** Every enabled SAML realm of the node settings, in `order` (then name). */
export function samlRealmConfigs(src: SamlSettingsSources): SamlRealmConfig[] {
  return realmsOfType(src.settings, SAML_REALM_TYPE, (name) => samlRealmConfig(name, src));
}

function samlRealmConfig(name: string, src: SamlSettingsSources): SamlRealmConfig | undefined {
  const { key, get, require } = realmSettingsReader(src.settings, SAML_REALM_TYPE, name);
  const path = (p: string) => (isAbsolute(p) ? p : join(src.configDir, p));
  if (!bool(key('enabled'), get('enabled'), true)) return undefined;
  if (!src.tokenServiceEnabled) {
    fail('SAML Realm requires that the token service be enabled (xpack.security.authc.token.enabled)');
  }
  const order = Number(get('order') ?? '0');
  if (!Number.isInteger(order)) fail(`Failed to parse value [${get('order')}] for setting [${key('order')}]`);
  for (const k of Object.keys(src.settings)) {
    if (k.startsWith(key('signing.keystore.')) || k.startsWith(key('encryption.keystore.')))
      throw notImplemented(
        `keystores for SAML keys (setting [${k}]); give PEM files with [.key] and [.certificate]`,
      );
  }
  const attributes: Partial<Record<UserAttribute, AttributeSetting>> = {};
  for (const a of USER_ATTRIBUTES) {
    const attribute = get(`attributes.${a}`);
    const pattern = get(`attribute_patterns.${a}`);
    if (attribute === undefined) {
      if (a === 'principal') fail(`The configuration setting [${key('attributes.principal')}] is required`);
      if (pattern !== undefined)
        fail(
          `You cannot use the [${key(`attribute_patterns.${a}`)}] setting without also setting [${key(`attributes.${a}`)}]`,
        );
      continue;
    }
    let regex: RegExp | undefined;
    if (pattern !== undefined) {
      try {
        regex = new RegExp(pattern);
      } catch (e) {
        fail(`Invalid value [${pattern}] for [${key(`attribute_patterns.${a}`)}]: ${(e as Error).message}`);
      }
    }
    attributes[a] = regex ? { attribute, pattern: regex } : { attribute };
  }
  const sp: SamlRealmConfig['sp'] = {
    entityId: require('sp.entity_id'),
    acs: url(key('sp.acs'), require('sp.acs')),
  };
  const logout = get('sp.logout');
  if (logout !== undefined) sp.logout = url(key('sp.logout'), logout);
  const nameId: SamlRealmConfig['nameId'] = {
    format: get('nameid_format'),
    allowCreate: bool(key('nameid.allow_create'), get('nameid.allow_create'), false),
  };
  const spQualifier = get('nameid.sp_qualifier');
  if (spQualifier !== undefined) nameId.spQualifier = spQualifier;
  const config: SamlRealmConfig = {
    name,
    order,
    idp: {
      entityId: require('idp.entity_id'),
      metadata: metadataLocation(key, require('idp.metadata.path'), get('idp.metadata.http.refresh'), path),
      useSingleLogout: bool(key('idp.use_single_logout'), get('idp.use_single_logout'), true),
    },
    sp,
    attributes: attributes as SamlRealmConfig['attributes'],
    nameId,
    forceAuthn: bool(key('force_authn'), get('force_authn'), false),
    allowedClockSkewMs: parseTimeValue(get('allowed_clock_skew') ?? '3m', key('allowed_clock_skew')),
    populateUserMetadata: bool(key('populate_user_metadata'), get('populate_user_metadata'), true),
    reqAuthnContextClassRef: list(get('req_authn_context_class_ref')),
  };
  const passphrase = (prefix: string) =>
    src.secureSettings[key(`${prefix}.secure_key_passphrase`)] || undefined;
  const signing = keyPair(key, 'signing', get, path, passphrase('signing'));
  if (signing) {
    const raw = list(get('signing.saml_messages') ?? '*');
    const messages = new Set<SignedMessageType>();
    for (const m of raw) {
      if (m === '*') for (const t of SIGNED_MESSAGE_TYPES) messages.add(t);
      else if ((SIGNED_MESSAGE_TYPES as readonly string[]).includes(m)) messages.add(m as SignedMessageType);
      else
        fail(
          `Invalid value [${m}] for [${key('signing.saml_messages')}]. Allowed values are [*, ${SIGNED_MESSAGE_TYPES.join(', ')}]`,
        );
    }
    config.signing = { ...signing, messages };
  }
  const encryption = keyPair(key, 'encryption', get, path, passphrase('encryption'));
  if (encryption) config.encryption = encryption;
  return config;
}

function url(key: string, value: string): string {
  try {
    new URL(value);
  } catch {
    fail(`Invalid value [${value}] for [${key}]. Not a valid URI.`);
  }
  return value;
}

function metadataLocation(
  key: (k: string) => string,
  value: string,
  refresh: string | undefined,
  path: (p: string) => string,
): MetadataLocation {
  // SamlRealm.initializeResolver: https URLs are fetched, http ones refused, anything else is a file.
  if (value.startsWith('http://'))
    fail('The [http] protocol is not supported as it is insecure. Use [https] instead');
  if (value.startsWith('https://')) {
    return {
      kind: 'url',
      url: new URL(value),
      refreshMs: parseTimeValue(refresh ?? '1h', key('idp.metadata.http.refresh')),
    };
  }
  return { kind: 'file', path: path(value) };
}

/** `<prefix>.key` (a PEM private key, RSA only as Elasticsearch allows) with `<prefix>.certificate`. */
function keyPair(
  key: (k: string) => string,
  prefix: 'signing' | 'encryption',
  get: (k: string) => string | undefined,
  path: (p: string) => string,
  passphrase: string | undefined,
): KeyPair | undefined {
  const keyPath = get(`${prefix}.key`);
  const certPath = get(`${prefix}.certificate`);
  if (keyPath === undefined && certPath === undefined) return undefined;
  if (keyPath === undefined) fail(`The configuration setting [${key(`${prefix}.key`)}] is required`);
  if (certPath === undefined) fail(`The configuration setting [${key(`${prefix}.certificate`)}] is required`);
  let privateKey: KeyObject;
  let certificate: X509Certificate;
  try {
    privateKey = createPrivateKey({
      key: readFileSync(path(keyPath)),
      ...(passphrase ? { passphrase } : {}),
    });
  } catch (e) {
    fail(`Cannot read the key of setting [${key(`${prefix}.key`)}]: ${(e as Error).message}`);
  }
  try {
    certificate = new X509Certificate(readFileSync(path(certPath)));
  } catch (e) {
    fail(`Cannot read the certificate of setting [${key(`${prefix}.certificate`)}]: ${(e as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') {
    fail(
      `The key of setting [${key(`${prefix}.key`)}] uses unsupported key algorithm type [${privateKey.asymmetricKeyType}], only RSA is supported`,
    );
  }
  return { key: privateKey, certificate };
}
