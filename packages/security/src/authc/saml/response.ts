/**
 * The IdP's `<samlp:Response>` to an AuthnRequest, validated as Elasticsearch's SamlAuthenticator
 * does, in its order: the signature of the Response (else the Assertion must be signed),
 * InResponseTo among the request ids handed back by prepare, a success status, the Issuer,
 * the Destination, one Assertion with its own signature, audience and time conditions (with
 * `allowed_clock_skew`), Issuer, one bearer SubjectConfirmation for the ACS, one AuthnStatement;
 * then the NameID, the session index and the attributes.
 */
import type { Element } from '@xmldom/xmldom';
import { decryptAssertion } from './decryption.ts';
import type { IdpDescriptor } from './idp-metadata.ts';
import type { SamlRealmConfig } from './saml-settings.ts';
import { signatureOf, validateSignature } from './signature.ts';
import {
  attr,
  BEARER,
  child,
  children,
  instant,
  is,
  isoInstant,
  NS,
  parseXml,
  STATUS_SUCCESS,
  samlFailure,
  text,
} from './xml.ts';

export interface SamlNameId {
  value: string;
  format: string | null;
  idpNameQualifier: string | null;
  spNameQualifier: string | null;
  spProvidedId: string | null;
}

export interface SamlAttribute {
  name: string;
  friendlyName: string | null;
  values: string[];
}

export interface SamlAttributes {
  nameId: SamlNameId | null;
  session: string | null;
  attributes: SamlAttribute[];
}

/** A validated Response: what it says of the user, and the assertion it was (for replay checks). */
export interface ValidatedResponse extends SamlAttributes {
  assertionId: string;
  /** Until when the assertion would still be accepted (its earliest NotOnOrAfter plus the skew), if it says. */
  acceptedUntil: number | undefined;
}

export interface ValidationContext {
  realm: SamlRealmConfig;
  idp: IdpDescriptor;
  now: number;
}

const A = NS.assertion;
const P = NS.protocol;

/** The request ids as Elasticsearch lists them in its messages (`[a, b]`). */
export function idList(ids: readonly string[]): string {
  return `[${ids.join(', ')}]`;
}

export async function validateResponse(
  xml: string,
  ids: readonly string[],
  ctx: ValidationContext,
): Promise<ValidatedResponse> {
  const root = parseXml(xml);
  if (!is(root, P, 'Response')) {
    samlFailure(
      `SAML content [${root.localName}] should have a root element of Namespace=[${P}] Tag=[Response]`,
    );
  }
  const signed = signatureOf(root) !== undefined;
  if (signed) validateSignature(root, xml, ctx.idp.signingCertificates);
  const inResponseTo = attr(root, 'InResponseTo');
  if (inResponseTo && !ids.includes(inResponseTo))
    samlFailure(`SAML content is in-response-to [${inResponseTo}] but expected one of ${idList(ids)} `);
  checkStatus(root);
  checkIssuer(child(root, A, 'Issuer'), ctx, 'Response');
  const destination = attr(root, 'Destination');
  if (destination !== ctx.realm.sp.acs && (signed || destination)) {
    samlFailure(
      `SAML response ${attr(root, 'ID') ?? ''} is for destination ${destination ?? 'null'} but this realm uses ${ctx.realm.sp.acs}`,
    );
  }
  const assertions = children(root, A, 'Assertion');
  const encrypted = children(root, A, 'EncryptedAssertion');
  const count = assertions.length + encrypted.length;
  if (count > 1) samlFailure(`Expecting only 1 assertion, but response contains multiple (${count})`);
  let assertion = assertions[0];
  // A decrypted assertion is a document of its own: its signature is checked against that text.
  let assertionXml = xml;
  if (encrypted.length > 0) {
    if (!ctx.realm.encryption)
      samlFailure('SAML assertion [EncryptedAssertion] is encrypted, but no decryption key is available');
    ({ assertion, xml: assertionXml } = await decryptAssertion(encrypted[0]!, ctx.realm.encryption.key));
  }
  if (!assertion) samlFailure('No assertions found in SAML response');
  const attributes = processAssertion(assertion, assertionXml, !signed, ids, ctx);
  const nameId = nameIdOf(child(assertion, A, 'Subject'));
  const session =
    children(assertion, A, 'AuthnStatement')
      .map((s) => attr(s, 'SessionIndex'))
      .find((s) => s !== undefined) ?? null;
  if (attributes.length === 0 && nameId === null)
    samlFailure(`Could not process any SAML attributes in {${P}}Response`);
  const limits = [
    attr(child(assertion, A, 'Conditions'), 'NotOnOrAfter'),
    ...children(child(assertion, A, 'Subject')!, A, 'SubjectConfirmation').map((c) =>
      attr(child(c, A, 'SubjectConfirmationData'), 'NotOnOrAfter'),
    ),
  ]
    .filter((v) => v !== undefined)
    .map((v) => instant(v, 'NotOnOrAfter'));
  return {
    nameId,
    session,
    attributes,
    assertionId: attr(assertion, 'ID') ?? '',
    acceptedUntil: limits.length === 0 ? undefined : Math.min(...limits) + ctx.realm.allowedClockSkewMs,
  };
}

function checkStatus(response: Element): void {
  const status = child(response, P, 'Status');
  const code = status ? child(status, P, 'StatusCode') : undefined;
  const value = attr(code, 'Value');
  if (!value) samlFailure('SAML Response has no status code');
  if (value !== STATUS_SUCCESS) {
    const sub = code ? attr(child(code, P, 'StatusCode'), 'Value') : undefined;
    const message = text(status ? child(status, P, 'StatusMessage') : undefined) ?? null;
    samlFailure(
      `SAML Response is not a 'success' response: Code=${value}${sub ? ` SubCode=${sub}` : ''} Message=${message} Detail=null`,
    );
  }
}

function checkIssuer(issuer: Element | undefined, ctx: ValidationContext, parent: string): void {
  if (!issuer) samlFailure(`Element ${parent} has no Issuer`);
  const value = text(issuer);
  if (value !== ctx.idp.entityId)
    samlFailure(`SAML Issuer [${value}] does not match expected value [${ctx.idp.entityId}]`);
}

function processAssertion(
  assertion: Element,
  xml: string,
  requireSignature: boolean,
  ids: readonly string[],
  ctx: ValidationContext,
): SamlAttribute[] {
  if (signatureOf(assertion)) validateSignature(assertion, xml, ctx.idp.signingCertificates);
  else if (requireSignature)
    samlFailure(`Assertion [{${A}}Assertion] is not signed, but a signature is required`);
  const conditions = child(assertion, A, 'Conditions');
  if (conditions) checkConditions(conditions, ctx);
  checkIssuer(child(assertion, A, 'Issuer'), ctx, 'Assertion');
  checkSubject(assertion, ids, ctx);
  checkAuthnStatement(assertion, ctx);
  const out: SamlAttribute[] = [];
  for (const statement of children(assertion, A, 'AttributeStatement')) {
    // EncryptedAttributes are skipped, as Elasticsearch does when it cannot decrypt them.
    for (const a of children(statement, A, 'Attribute')) {
      out.push({
        name: attr(a, 'Name') ?? '',
        friendlyName: attr(a, 'FriendlyName') ?? null,
        values: children(a, A, 'AttributeValue').map((v) => text(v) ?? ''),
      });
    }
  }
  return out;
}

function checkConditions(conditions: Element, ctx: ValidationContext): void {
  const sp = ctx.realm.sp.entityId;
  const restrictions = children(conditions, A, 'AudienceRestriction');
  const allMatch = restrictions.every((r) => children(r, A, 'Audience').some((a) => text(a) === sp));
  if (!allMatch) {
    const described = restrictions
      .map((r) =>
        children(r, A, 'Audience')
          .map((a) => text(a))
          .join(','),
      )
      .join(' | ');
    samlFailure(`Conditions [${described}] do not match required audience [${sp}]`);
  }
  const skew = ctx.realm.allowedClockSkewMs;
  const notBefore = attr(conditions, 'NotBefore');
  if (notBefore !== undefined && ctx.now + skew < instant(notBefore, 'NotBefore'))
    samlFailure(`Rejecting SAML assertion because [${isoInstant(ctx.now + skew)}] is before [${notBefore}]`);
  const notOnOrAfter = attr(conditions, 'NotOnOrAfter');
  if (notOnOrAfter !== undefined && !(ctx.now - skew < instant(notOnOrAfter, 'NotOnOrAfter')))
    samlFailure(
      `Rejecting SAML assertion because [${isoInstant(ctx.now - skew)}] is on/after [${notOnOrAfter}]`,
    );
}

function checkSubject(assertion: Element, ids: readonly string[], ctx: ValidationContext): void {
  const subject = child(assertion, A, 'Subject');
  if (!subject) samlFailure(`SAML Assertion (${attr(assertion, 'ID') ?? ''}) has no Subject`);
  const data = children(subject, A, 'SubjectConfirmation')
    .filter((c) => attr(c, 'Method') === BEARER)
    .map((c) => child(c, A, 'SubjectConfirmationData'))
    .filter((d) => d !== undefined);
  if (data.length !== 1) {
    samlFailure(
      `SAML Assertion subject contains ${data.length} bearer SubjectConfirmation, while exactly one was expected.`,
    );
  }
  const confirmation = data[0]!;
  const recipient = attr(confirmation, 'Recipient');
  if (recipient !== ctx.realm.sp.acs) {
    samlFailure(
      `SAML Assertion SubjectConfirmationData Recipient ${recipient ?? 'null'} does not match expected value ${ctx.realm.sp.acs}`,
    );
  }
  const notOnOrAfter = attr(confirmation, 'NotOnOrAfter');
  const pastNow = ctx.now - ctx.realm.allowedClockSkewMs;
  if (notOnOrAfter !== undefined && !(pastNow < instant(notOnOrAfter, 'NotOnOrAfter')))
    samlFailure(`Rejecting SAML assertion because [${isoInstant(pastNow)}] is on/after [${notOnOrAfter}]`);
  const inResponseTo = attr(confirmation, 'InResponseTo');
  if (inResponseTo && !ids.includes(inResponseTo)) {
    samlFailure(
      `SAML Assertion SubjectConfirmationData is in-response-to [${inResponseTo}] but expected one of ${idList(ids)} `,
    );
  }
}

function checkAuthnStatement(assertion: Element, ctx: ValidationContext): void {
  const statements = children(assertion, A, 'AuthnStatement');
  if (statements.length !== 1) {
    samlFailure(
      `SAML Assertion subject contains ${statements.length} Authn Statements while exactly one was expected.`,
    );
  }
  const statement = statements[0]!;
  const pastNow = ctx.now - ctx.realm.allowedClockSkewMs;
  const sessionEnd = attr(statement, 'SessionNotOnOrAfter');
  if (sessionEnd !== undefined && !(pastNow < instant(sessionEnd, 'SessionNotOnOrAfter'))) {
    samlFailure(
      `Rejecting SAML assertion's Authentication Statement because [${isoInstant(pastNow)}] is on/after [${sessionEnd}]`,
    );
  }
  const required = ctx.realm.reqAuthnContextClassRef;
  if (required.length > 0) {
    const context = child(statement, A, 'AuthnContext');
    const ref = text(context ? child(context, A, 'AuthnContextClassRef') : undefined) ?? null;
    if (!ref || !required.includes(ref)) {
      samlFailure(
        `Rejecting SAML assertion as the AuthnContextClassRef [${ref}] is not one of the (${idList(required)}) that were requested in the corresponding AuthnRequest`,
      );
    }
  }
}

/** SamlNameId.forSubject: the Subject's plain NameID, if it has one. */
export function nameIdOf(parent: Element | undefined): SamlNameId | null {
  const el = parent ? child(parent, A, 'NameID') : undefined;
  if (!el) return null;
  return {
    value: text(el) ?? '',
    format: attr(el, 'Format') ?? null,
    idpNameQualifier: attr(el, 'NameQualifier') ?? null,
    spNameQualifier: attr(el, 'SPNameQualifier') ?? null,
    spProvidedId: attr(el, 'SPProvidedID') ?? null,
  };
}
