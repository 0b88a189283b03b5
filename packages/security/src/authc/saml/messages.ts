/**
 * The SAML messages the SP sends (SamlAuthnRequestBuilder, SamlLogoutRequestMessageBuilder,
 * SamlLogoutResponseBuilder) and the HTTP-Redirect binding that carries them (SamlRedirect):
 * the XML raw-DEFLATEd, base64 and URL-encoded into `SAMLRequest`/`SAMLResponse`, with
 * `RelayState`, and signed over the query string when the realm signs that message type.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SamlNameId } from './response.ts';
import type { SamlRealmConfig, SignedMessageType } from './saml-settings.ts';
import { formEncode, signRedirect } from './signature.ts';
import { isoInstant, NS, POST_BINDING, STATUS_SUCCESS, samlFailure, escapeXml as x } from './xml.ts';

/** SamlUtils.generateSecureNCName(20): an XML NCName from 20 random bytes. */
export function newMessageId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

const ROOT_NS = `xmlns:saml2p="${NS.protocol}" xmlns:saml2="${NS.assertion}"`;

function issuer(realm: SamlRealmConfig): string {
  return `<saml2:Issuer>${x(realm.sp.entityId)}</saml2:Issuer>`;
}

export function authnRequestXml(
  realm: SamlRealmConfig,
  id: string,
  destination: string,
  now: number,
): string {
  const policy = [
    `AllowCreate="${realm.nameId.allowCreate}"`,
    realm.nameId.format ? `Format="${x(realm.nameId.format)}"` : '',
    realm.nameId.spQualifier ? `SPNameQualifier="${x(realm.nameId.spQualifier)}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const context =
    realm.reqAuthnContextClassRef.length === 0
      ? ''
      : `<saml2p:RequestedAuthnContext Comparison="exact">${realm.reqAuthnContextClassRef
          .map((r) => `<saml2:AuthnContextClassRef>${x(r)}</saml2:AuthnContextClassRef>`)
          .join('')}</saml2p:RequestedAuthnContext>`;
  return (
    `<saml2p:AuthnRequest ${ROOT_NS} AssertionConsumerServiceURL="${x(realm.sp.acs)}" Destination="${x(destination)}"` +
    ` ForceAuthn="${realm.forceAuthn}" ID="${id}" IssueInstant="${isoInstant(now)}"` +
    ` ProtocolBinding="${POST_BINDING}" Version="2.0">${issuer(realm)}<saml2p:NameIDPolicy ${policy}/>${context}</saml2p:AuthnRequest>`
  );
}

export function logoutRequestXml(
  realm: SamlRealmConfig,
  id: string,
  destination: string,
  nameId: SamlNameId,
  session: string | null,
  now: number,
): string {
  const qualifiers = [
    nameId.format ? ` Format="${x(nameId.format)}"` : '',
    nameId.idpNameQualifier ? ` NameQualifier="${x(nameId.idpNameQualifier)}"` : '',
    nameId.spNameQualifier ? ` SPNameQualifier="${x(nameId.spNameQualifier)}"` : '',
    nameId.spProvidedId ? ` SPProvidedID="${x(nameId.spProvidedId)}"` : '',
  ].join('');
  return (
    `<saml2p:LogoutRequest ${ROOT_NS} Destination="${x(destination)}" ID="${id}" IssueInstant="${isoInstant(now)}" Version="2.0">` +
    `${issuer(realm)}<saml2:NameID${qualifiers}>${x(nameId.value)}</saml2:NameID>` +
    `${session ? `<saml2p:SessionIndex>${x(session)}</saml2p:SessionIndex>` : ''}</saml2p:LogoutRequest>`
  );
}

export function logoutResponseXml(
  realm: SamlRealmConfig,
  inResponseTo: string,
  destination: string,
  now: number,
): string {
  return (
    `<saml2p:LogoutResponse ${ROOT_NS} Destination="${x(destination)}" ID="${newMessageId()}" InResponseTo="${x(inResponseTo)}"` +
    ` IssueInstant="${isoInstant(now)}" Version="2.0">${issuer(realm)}<saml2p:Status><saml2p:StatusCode Value="${STATUS_SUCCESS}"/>` +
    `</saml2p:Status></saml2p:LogoutResponse>`
  );
}

/**
 * The HTTP-Redirect binding URL of a message to `endpoint` (which may have a query of its
 * own), signed when the realm signs messages of this type.
 */
export function redirectUrl(
  realm: SamlRealmConfig,
  endpoint: string,
  parameter: 'SAMLRequest' | 'SAMLResponse',
  type: SignedMessageType,
  xml: string,
  relayState?: string,
): string {
  let query = `${parameter}=${formEncode(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}`;
  if (relayState) query += `&RelayState=${formEncode(relayState)}`;
  if (realm.signing?.messages.has(type)) query = signRedirect(query, realm.signing.key);
  return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${query}`;
}

export interface RedirectMessage {
  xml: string;
  relayState?: string;
  signature?: { sigAlg: string; signature: string };
}

/** The parameters of a query string, decoded, as the redirect binding sends them. */
function queryParams(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of query.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    try {
      out.set(decodeURIComponent(k.replace(/\+/g, ' ')), decodeURIComponent(v.replace(/\+/g, ' ')));
    } catch {
      samlFailure(`Cannot URL-decode the query string parameter [${k}]`);
    }
  }
  return out;
}

/** Reads `parameter` (inflated) and the signature parameters out of a redirect-binding query string. */
export function parseRedirect(query: string, parameter: 'SAMLRequest' | 'SAMLResponse'): RedirectMessage {
  const params = queryParams(query);
  const encoded = params.get(parameter);
  if (!encoded) samlFailure(`Could not parse ${parameter} from query string: [${query}]`);
  let xml: string;
  try {
    xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  } catch (e) {
    samlFailure(`Failed to inflate the ${parameter}: ${(e as Error).message}`);
  }
  const out: RedirectMessage = { xml };
  const relayState = params.get('RelayState');
  if (relayState !== undefined) out.relayState = relayState;
  const sigAlg = params.get('SigAlg');
  const signature = params.get('Signature');
  if (sigAlg !== undefined && signature !== undefined) out.signature = { sigAlg, signature };
  else if (sigAlg !== undefined || signature !== undefined)
    samlFailure(`Query string [${query}] has only one of [SigAlg] and [Signature]`);
  return out;
}
