/**
 * XML signatures of SAML messages, checked with xml-crypto against the IdP's signing
 * certificates (SamlObjectHandler.validateSignature): the SAML signature profile asks for an
 * enveloped signature, a direct child of the element it signs, with one reference to that
 * element's ID; anything else (a signature over some other element: signature wrapping) is
 * refused. Also the detached signatures of the HTTP-Redirect binding, over the query string.
 */
import { createSign, createVerify, type KeyObject, type X509Certificate } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { attr, children, descendants, NS, samlFailure } from './xml.ts';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** The URI of each signature algorithm of the redirect binding, with Node's name for it. */
const REDIRECT_ALGORITHMS: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'RSA-SHA1',
  [RSA_SHA256]: 'RSA-SHA256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': 'RSA-SHA384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'RSA-SHA512',
};

/** The `<ds:Signature>` that signs `el`, if it is signed at all. */
export function signatureOf(el: Element): Element | undefined {
  return children(el, NS.dsig, 'Signature')[0];
}

/**
 * Checks the signature of `el` (a child of the document `xml` was parsed into) against each
 * certificate in turn; throws a SamlException naming what is wrong.
 */
export function validateSignature(el: Element, xml: string, certificates: readonly X509Certificate[]): void {
  const signatures = children(el, NS.dsig, 'Signature');
  const id = attr(el, 'ID');
  const what = `${el.localName} [${id ?? ''}]`;
  if (signatures.length !== 1)
    samlFailure(`${what} has ${signatures.length} signatures, while one was expected`);
  const signature = signatures[0]!;
  const references = descendants(signature, NS.dsig, 'Reference');
  if (references.length !== 1 || !id || attr(references[0], 'URI') !== `#${id}`)
    samlFailure(`The signature of ${what} does not reference the element it is in`);
  if (certificates.length === 0) samlFailure(`No signing certificate is known for the Identity Provider`);
  let reason = 'the signature does not match';
  for (const cert of certificates) {
    const v = new SignedXml({ publicCert: cert.toString(), getCertFromKeyInfo: () => null });
    try {
      v.loadSignature(signature);
      if (v.checkSignature(xml)) {
        const signed = v.getReferences();
        if (signed.length === 1 && signed[0]!.uri === `#${id}`) return;
      }
    } catch (e) {
      reason = (e as Error).message;
    }
  }
  samlFailure(
    `SAML Signature [${what}] could not be validated against [${certificates.length}] certificates: ${reason}`,
  );
}

/**
 * The HTTP-Redirect binding's query string with its signature (`SigAlg`, `Signature`), which
 * covers `SAMLRequest|SAMLResponse=..[&RelayState=..]&SigAlg=..` as sent, URL-encoded.
 */
export function signRedirect(query: string, key: KeyObject): string {
  const signed = `${query}&SigAlg=${formEncode(RSA_SHA256)}`;
  const signature = createSign('RSA-SHA256').update(signed).sign(key, 'base64');
  return `${signed}&Signature=${formEncode(signature)}`;
}

/**
 * Checks the signature of a redirect-binding query string (SamlObjectHandler
 * .parseQueryStringAndValidateSignature): the signed text is the query up to `&Signature=`,
 * byte for byte as received.
 */
export function validateRedirectSignature(
  rawQuery: string,
  sigAlg: string,
  signature: string,
  certificates: readonly X509Certificate[],
): void {
  const algorithm = REDIRECT_ALGORITHMS[sigAlg];
  if (!algorithm) samlFailure(`Unsupported signature algorithm [${sigAlg}]`);
  const at = rawQuery.indexOf('&Signature=');
  if (at < 0) samlFailure('The query string has no signature');
  const signed = rawQuery.slice(0, at);
  const bytes = Buffer.from(signature, 'base64');
  for (const cert of certificates) {
    if (createVerify(algorithm).update(signed).verify(cert.publicKey, bytes)) return;
  }
  samlFailure(
    `An error occurred while validating the signature: the signature of the query string could not be validated against [${certificates.length}] certificates`,
  );
}

/** application/x-www-form-urlencoded, as Java's URLEncoder writes it (and Elasticsearch with it). */
export function formEncode(s: string): string {
  return new URLSearchParams({ v: s }).toString().slice(2);
}
