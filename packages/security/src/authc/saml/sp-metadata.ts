/**
 * The SP's own metadata (SamlSpMetadataBuilder, `GET /_security/saml/metadata/{realm}`): what an
 * IdP administrator imports to trust this realm — the entity id, the ACS (HTTP-POST), the single
 * logout URL (HTTP-Redirect), the requested NameID format and the certificates of the signing
 * and encryption keys.
 */
import type { X509Certificate } from 'node:crypto';
import type { SamlRealmConfig } from './saml-settings.ts';
import { NS, POST_BINDING, REDIRECT_BINDING, escapeXml as x } from './xml.ts';

function keyDescriptor(use: 'signing' | 'encryption', cert: X509Certificate): string {
  return (
    `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="${NS.dsig}"><ds:X509Data><ds:X509Certificate>` +
    `${cert.raw.toString('base64')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`
  );
}

export function spMetadataXml(realm: SamlRealmConfig): string {
  const authnRequestsSigned = realm.signing?.messages.has('AuthnRequest') ?? false;
  const parts = [
    realm.signing ? keyDescriptor('signing', realm.signing.certificate) : '',
    realm.encryption ? keyDescriptor('encryption', realm.encryption.certificate) : '',
    realm.sp.logout
      ? `<md:SingleLogoutService Binding="${REDIRECT_BINDING}" Location="${x(realm.sp.logout)}"/>`
      : '',
    realm.nameId.format ? `<md:NameIDFormat>${x(realm.nameId.format)}</md:NameIDFormat>` : '',
    `<md:AssertionConsumerService Binding="${POST_BINDING}" Location="${x(realm.sp.acs)}" index="1" isDefault="true"/>`,
  ];
  return (
    `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="${NS.metadata}" entityID="${x(realm.sp.entityId)}">` +
    `<md:SPSSODescriptor AuthnRequestsSigned="${authnRequestsSigned}" WantAssertionsSigned="true" protocolSupportEnumeration="${NS.protocol}">` +
    `${parts.join('')}</md:SPSSODescriptor></md:EntityDescriptor>`
  );
}
