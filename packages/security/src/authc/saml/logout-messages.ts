/**
 * The logout messages the IdP sends the SP: a LogoutRequest (IdP-initiated single logout,
 * SamlLogoutRequestHandler) and the LogoutResponse that ends an SP-initiated logout
 * (SamlLogoutResponseHandler). Each must be signed, over the redirect query string or in the
 * XML, by a key of the IdP's metadata; its Issuer is the IdP and its Destination `sp.logout`.
 */
import type { Element } from '@xmldom/xmldom';
import type { IdpDescriptor } from './idp-metadata.ts';
import { parseRedirect } from './messages.ts';
import { idList, nameIdOf, type SamlNameId } from './response.ts';
import type { SamlRealmConfig } from './saml-settings.ts';
import { signatureOf, validateRedirectSignature, validateSignature } from './signature.ts';
import { attr, child, children, is, NS, parseXml, STATUS_SUCCESS, samlFailure, text } from './xml.ts';

export interface LogoutRequestResult {
  requestId: string;
  nameId: SamlNameId | null;
  session: string | null;
  relayState?: string;
}

interface Parties {
  realm: SamlRealmConfig;
  idp: IdpDescriptor;
}

function rootOf(xml: string, tag: string): Element {
  const root = parseXml(xml);
  if (!is(root, NS.protocol, tag)) {
    samlFailure(
      `SAML content [${root.localName}] should have a root element of Namespace=[${NS.protocol}] Tag=[${tag}]`,
    );
  }
  return root;
}

function checkIssuerAndDestination(root: Element, p: Parties): void {
  const issuer = child(root, NS.assertion, 'Issuer');
  if (!issuer) samlFailure(`Element ${root.localName} has no Issuer`);
  if (text(issuer) !== p.idp.entityId)
    samlFailure(`SAML Issuer [${text(issuer)}] does not match expected value [${p.idp.entityId}]`);
  const destination = attr(root, 'Destination');
  const expected = p.realm.sp.logout;
  if (destination !== expected) {
    samlFailure(
      `SAML message [${attr(root, 'ID') ?? ''}] is for destination [${destination ?? 'null'}] but this realm uses [${expected ?? 'null'}]`,
    );
  }
}

/** `POST /_security/saml/invalidate`: the IdP's LogoutRequest from the redirect query string. */
export function parseLogoutRequest(queryString: string, p: Parties): LogoutRequestResult {
  const message = parseRedirect(queryString, 'SAMLRequest');
  if (message.signature)
    validateRedirectSignature(
      queryString,
      message.signature.sigAlg,
      message.signature.signature,
      p.idp.signingCertificates,
    );
  const root = rootOf(message.xml, 'LogoutRequest');
  if (signatureOf(root)) validateSignature(root, message.xml, p.idp.signingCertificates);
  else if (!message.signature) samlFailure('Logout request is not signed');
  checkIssuerAndDestination(root, p);
  const result: LogoutRequestResult = {
    requestId: attr(root, 'ID') ?? '',
    nameId: nameIdOf(root),
    session: text(children(root, NS.protocol, 'SessionIndex')[0]) ?? null,
  };
  if (message.relayState !== undefined) result.relayState = message.relayState;
  return result;
}

/**
 * `POST /_security/saml/complete_logout`: the IdP's LogoutResponse, from the redirect query
 * string (signed in the query) or the POSTed `content` (signed in the XML).
 */
export function validateLogoutResponse(
  payload: { queryString: string } | { content: string },
  ids: readonly string[],
  p: Parties,
): void {
  let root: Element;
  if ('queryString' in payload) {
    const message = parseRedirect(payload.queryString, 'SAMLResponse');
    if (!message.signature)
      samlFailure('Query string is not signed, but is required for HTTP-Redirect binding');
    validateRedirectSignature(
      payload.queryString,
      message.signature.sigAlg,
      message.signature.signature,
      p.idp.signingCertificates,
    );
    root = rootOf(message.xml, 'LogoutResponse');
  } else {
    const xml = Buffer.from(payload.content.replace(/\s+/g, ''), 'base64').toString('utf8');
    root = rootOf(xml, 'LogoutResponse');
    if (!signatureOf(root)) samlFailure('Logout response is not signed');
    validateSignature(root, xml, p.idp.signingCertificates);
  }
  const inResponseTo = attr(root, 'InResponseTo');
  if (inResponseTo && !ids.includes(inResponseTo))
    samlFailure(`SAML content is in-response-to [${inResponseTo}] but expected one of ${idList(ids)} `);
  const status = child(root, NS.protocol, 'Status');
  const code = attr(status ? child(status, NS.protocol, 'StatusCode') : undefined, 'Value');
  if (!code) samlFailure('SAML Response has no status code');
  if (code !== STATUS_SUCCESS) samlFailure(`SAML Response is not a 'success' response: Code=${code}`);
  checkIssuerAndDestination(root, p);
}
