/**
 * From a validated assertion to a user (SamlRealm.buildUser with its AttributeParsers): the
 * principal, groups, name, mail and dn come from the attributes the realm names (by Name or
 * FriendlyName), or from the NameID (`nameid`, `nameid:persistent`), each optionally cut down
 * by its `attribute_patterns` regex (group 1; values that do not match are dropped). With
 * `populate_user_metadata`, every attribute becomes user metadata `saml(<name>)` (and
 * `saml_<friendlyName>`); the NameID is always `saml_nameid` (with `saml_nameid_format`).
 */
import type { SamlAttributes } from './response.ts';
import {
  type AttributeSetting,
  NAMEID_PERSISTENT,
  type SamlRealmConfig,
  type UserAttribute,
} from './saml-settings.ts';
import { SamlException } from './xml.ts';

export interface SamlUser {
  principal: string;
  groups: string[];
  dn: string | null;
  name: string | null;
  mail: string | null;
  metadata: Record<string, unknown>;
}

/** The values of one user property, each through its pattern. */
export function attributeValues(attrs: SamlAttributes, setting: AttributeSetting | undefined): string[] {
  if (!setting) return [];
  let values: string[];
  if (setting.attribute === 'nameid') values = attrs.nameId ? [attrs.nameId.value] : [];
  else if (setting.attribute === 'nameid:persistent')
    values = attrs.nameId?.format === NAMEID_PERSISTENT ? [attrs.nameId.value] : [];
  else {
    values = attrs.attributes
      .filter((a) => a.name === setting.attribute || a.friendlyName === setting.attribute)
      .flatMap((a) => a.values);
  }
  if (!setting.pattern) return values;
  const out: string[] = [];
  for (const v of values) {
    const g = setting.pattern.exec(v)?.[1];
    if (g !== undefined && g !== '') out.push(g);
  }
  return out;
}

export function userFromAttributes(realm: SamlRealmConfig, attrs: SamlAttributes): SamlUser {
  const first = (a: UserAttribute) => attributeValues(attrs, realm.attributes[a])[0] ?? null;
  const principal = first('principal');
  if (principal === null || principal === '') {
    const listed = attrs.attributes.map((a) => `${a.name}(${a.friendlyName ?? ''})=${a.values.join(',')}`);
    throw new SamlException(
      `${realm.attributes.principal.attribute} not found in saml attributes[${listed.join(', ')}] or NameID [${attrs.nameId?.value ?? 'null'}]`,
    );
  }
  const metadata: Record<string, unknown> = {};
  if (realm.populateUserMetadata) {
    for (const a of attrs.attributes) {
      metadata[`saml(${a.name})`] = a.values;
      if (a.friendlyName) metadata[`saml_${a.friendlyName}`] = a.values;
    }
  }
  if (attrs.nameId) {
    metadata.saml_nameid = attrs.nameId.value;
    if (attrs.nameId.format !== null) metadata.saml_nameid_format = attrs.nameId.format;
  }
  return {
    principal,
    groups: attributeValues(attrs, realm.attributes.groups),
    dn: first('dn'),
    name: first('name'),
    mail: first('mail'),
    metadata,
  };
}

/** The token metadata keys SamlRealm.createTokenMetadata writes: what logout and invalidate match on. */
export const TOKEN_METADATA = {
  nameIdValue: 'saml_nameid_val',
  nameIdFormat: 'saml_nameid_fmt',
  nameIdQualifier: 'saml_nameid_qual',
  nameIdSpQualifier: 'saml_nameid_sp_qual',
  nameIdSpProvidedId: 'saml_nameid_sp_id',
  session: 'saml_session',
  realm: 'saml_realm',
} as const;

export function tokenMetadata(
  realmName: string,
  nameId: SamlAttributes['nameId'],
  session: string | null,
): Record<string, string | null> {
  return {
    [TOKEN_METADATA.nameIdValue]: nameId?.value ?? null,
    [TOKEN_METADATA.nameIdFormat]: nameId?.format ?? null,
    [TOKEN_METADATA.nameIdQualifier]: nameId?.idpNameQualifier ?? null,
    [TOKEN_METADATA.nameIdSpQualifier]: nameId?.spNameQualifier ?? null,
    [TOKEN_METADATA.nameIdSpProvidedId]: nameId?.spProvidedId ?? null,
    [TOKEN_METADATA.session]: session,
    [TOKEN_METADATA.realm]: realmName,
  };
}
