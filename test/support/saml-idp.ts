/**
 * A SAML identity provider for tests, in the test process: an RSA key and self-signed
 * certificate made per run (@peculiar/x509 on WebCrypto), the IdP metadata naming them, and
 * the messages an IdP sends — Responses with one Assertion (signed with xml-crypto on the
 * Response, the Assertion or both), and LogoutRequests and LogoutResponses over the
 * HTTP-Redirect binding (signed over the query string). The SSO and SLO URLs are never called:
 * the test plays the browser.
 */
import 'reflect-metadata';
import {
  createPrivateKey,
  createSign,
  type KeyObject,
  randomBytes,
  webcrypto,
  X509Certificate,
} from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';
import { encrypt } from 'xml-encryption';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
export const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

export interface SigningIdentity {
  /** PEM of the certificate. */
  certPem: string;
  /** Base64 of the certificate's DER (as metadata carries it). */
  certDer64: string;
  keyPem: string;
  key: KeyObject;
}

/** A new RSA key with a self-signed certificate for `cn`. */
export async function rsaIdentity(cn: string): Promise<SigningIdentity> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(4).toString('hex'),
    name: `CN=${cn}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 2 * 24 * 3600_000),
    keys,
    signingAlgorithm: RSA,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const keyPem = x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
  return {
    certPem: cert.toString('pem'),
    certDer64: Buffer.from(cert.rawData).toString('base64'),
    keyPem,
    key: createPrivateKey(keyPem),
  };
}

export interface ResponseOptions {
  inResponseTo?: string;
  destination?: string;
  recipient?: string;
  audience?: string;
  issuer?: string;
  nameId?: string;
  nameIdFormat?: string;
  sessionIndex?: string;
  attributes?: Record<string, string[]>;
  notBefore?: Date;
  notOnOrAfter?: Date;
  status?: string;
  /** What is signed (default: the assertion). */
  sign?: 'response' | 'assertion' | 'both' | 'none';
  /** Signs with another key than the one the metadata names. */
  signWith?: SigningIdentity;
  /** Changes the signed XML (a tampered response). */
  tamper?: (xml: string) => string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;

function formEncode(s: string): string {
  return new URLSearchParams({ v: s }).toString().slice(2);
}

function signElement(xml: string, local: string, identity: SigningIdentity): string {
  const sig = new SignedXml({
    privateKey: identity.keyPem,
    publicCert: identity.certPem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  sig.addReference({
    xpath: `//*[local-name(.)='${local}']`,
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: SHA256,
  });
  // The SAML schema puts the signature right after the element's Issuer.
  sig.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `//*[local-name(.)='${local}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

export class TestSamlIdp {
  readonly ssoUrl: string;
  readonly sloUrl: string;

  private constructor(
    readonly entityId: string,
    readonly identity: SigningIdentity,
    /** The SP this IdP answers: its entity id, ACS and logout URL. */
    readonly sp: { entityId: string; acs: string; logout: string },
  ) {
    this.ssoUrl = `${entityId}/sso`;
    this.sloUrl = `${entityId}/slo`;
  }

  static async create(entityId: string, sp: TestSamlIdp['sp']): Promise<TestSamlIdp> {
    return new TestSamlIdp(entityId, await rsaIdentity('test-idp'), sp);
  }

  metadataXml(): string {
    return (
      `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${esc(this.entityId)}">` +
      `<md:IDPSSODescriptor protocolSupportEnumeration="${PROTOCOL}"><md:KeyDescriptor use="signing">` +
      `<ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${this.identity.certDer64}` +
      '</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>' +
      `<md:SingleLogoutService Binding="${REDIRECT}" Location="${esc(this.sloUrl)}"/>` +
      `<md:SingleSignOnService Binding="${REDIRECT}" Location="${esc(this.ssoUrl)}"/>` +
      '</md:IDPSSODescriptor></md:EntityDescriptor>'
    );
  }

  /** A Response's XML, signed as `opts.sign` asks. */
  responseXml(opts: ResponseOptions = {}): string {
    const now = Date.now();
    const iso = (d: Date) => d.toISOString();
    const notBefore = opts.notBefore ?? new Date(now - 60_000);
    const notOnOrAfter = opts.notOnOrAfter ?? new Date(now + 5 * 60_000);
    const irt = opts.inResponseTo ? ` InResponseTo="${esc(opts.inResponseTo)}"` : '';
    const issuer = `<saml:Issuer>${esc(opts.issuer ?? this.entityId)}</saml:Issuer>`;
    const attributes = Object.entries(opts.attributes ?? {})
      .map(
        ([name, values]) =>
          `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
            .map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${newId()}" IssueInstant="${iso(new Date(now))}" Version="2.0">${issuer}` +
      `<saml:Subject><saml:NameID Format="${esc(opts.nameIdFormat ?? TRANSIENT)}">${esc(opts.nameId ?? 'nameid-alice')}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt}` +
      ` NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${esc(opts.recipient ?? this.sp.acs)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction>` +
      `<saml:Audience>${esc(opts.audience ?? this.sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(new Date(now))}" SessionIndex="${esc(opts.sessionIndex ?? 'session-1')}">` +
      '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
      `</saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
    let xml =
      `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0"` +
      ` IssueInstant="${iso(new Date(now))}" Destination="${esc(opts.destination ?? this.sp.acs)}"${irt}>${issuer}` +
      `<samlp:Status><samlp:StatusCode Value="${opts.status ?? SUCCESS}"/></samlp:Status>${assertion}</samlp:Response>`;
    const sign = opts.sign ?? 'assertion';
    const identity = opts.signWith ?? this.identity;
    if (sign === 'assertion' || sign === 'both') xml = signElement(xml, 'Assertion', identity);
    if (sign === 'response' || sign === 'both') xml = signElement(xml, 'Response', identity);
    return opts.tamper ? opts.tamper(xml) : xml;
  }

  /** A Response as the browser POSTs it: base64 of the XML. */
  response(opts: ResponseOptions = {}): string {
    return Buffer.from(this.responseXml(opts), 'utf8').toString('base64');
  }

  /**
   * A Response whose assertion is encrypted (AES-256-GCM, RSA-OAEP key transport) for the SP
   * certificate `spCertPem`, after the assertion is signed and before the response is.
   */
  async encryptedResponse(opts: ResponseOptions, spCertPem: string): Promise<string> {
    const sign = opts.sign ?? 'assertion';
    const assertionSigned = sign === 'assertion' || sign === 'both';
    let xml = this.responseXml({ ...opts, sign: assertionSigned ? 'assertion' : 'none', tamper: undefined });
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    const rsaPub = new X509Certificate(spCertPem).publicKey.export({ type: 'spki', format: 'pem' });
    const encryptedData = await new Promise<string>((resolve, reject) =>
      encrypt(
        assertion,
        {
          rsa_pub: rsaPub,
          pem: spCertPem,
          encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
          keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        },
        (e, r) => (e ? reject(e) : resolve(r)),
      ),
    );
    xml = xml.replace(assertion, `<saml:EncryptedAssertion>${encryptedData}</saml:EncryptedAssertion>`);
    if (sign === 'response' || sign === 'both')
      xml = signElement(xml, 'Response', opts.signWith ?? this.identity);
    return Buffer.from(xml, 'utf8').toString('base64');
  }

  /** An HTTP-Redirect query string carrying `xml`, signed over the query unless `signed` is false. */
  redirectQuery(
    parameter: 'SAMLRequest' | 'SAMLResponse',
    xml: string,
    signed = true,
    relayState?: string,
  ): string {
    let q = `${parameter}=${formEncode(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
    if (relayState) q += `&RelayState=${formEncode(relayState)}`;
    if (!signed) return q;
    q += `&SigAlg=${formEncode(RSA_SHA256)}`;
    const signature = createSign('RSA-SHA256').update(q).sign(this.identity.key, 'base64');
    return `${q}&Signature=${formEncode(signature)}`;
  }

  /** The IdP's LogoutRequest for a NameID (and session) as a redirect query string. */
  logoutRequestQuery(
    nameId: string,
    opts: { sessionIndex?: string; signed?: boolean; relayState?: string; id?: string } = {},
  ): string {
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${opts.id ?? newId()}" Version="2.0"` +
      ` IssueInstant="${new Date().toISOString()}" Destination="${esc(this.sp.logout)}"><saml:Issuer>${esc(this.entityId)}</saml:Issuer>` +
      `<saml:NameID Format="${TRANSIENT}">${esc(nameId)}</saml:NameID>` +
      `${opts.sessionIndex ? `<samlp:SessionIndex>${esc(opts.sessionIndex)}</samlp:SessionIndex>` : ''}</samlp:LogoutRequest>`;
    return this.redirectQuery('SAMLRequest', xml, opts.signed ?? true, opts.relayState);
  }

  /** The IdP's LogoutResponse to the SP's LogoutRequest `inResponseTo`, as a redirect query string. */
  logoutResponseQuery(inResponseTo: string, opts: { signed?: boolean; status?: string } = {}): string {
    const xml =
      `<samlp:LogoutResponse xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0"` +
      ` IssueInstant="${new Date().toISOString()}" Destination="${esc(this.sp.logout)}" InResponseTo="${esc(inResponseTo)}">` +
      `<saml:Issuer>${esc(this.entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${opts.status ?? SUCCESS}"/></samlp:Status>` +
      '</samlp:LogoutResponse>';
    return this.redirectQuery('SAMLResponse', xml, opts.signed ?? true);
  }
}
