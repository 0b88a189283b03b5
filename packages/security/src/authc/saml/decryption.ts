/**
 * Encrypted assertions (`<saml:EncryptedAssertion>`), decrypted with xml-encryption and the
 * realm's `encryption.key`: the plaintext is the Assertion as a document of its own, whose
 * signature is then checked like that of any assertion (SamlAuthenticator.decrypt, which moves
 * the decrypted assertion to a new document). xml-encryption refuses the algorithms known to be
 * unsafe (RSA 1.5 key transport, 3DES, AES-CBC).
 */
import type { KeyObject } from 'node:crypto';
import { type Element, XMLSerializer } from '@xmldom/xmldom';
import { decrypt } from 'xml-encryption';
import { is, NS, parseXml, samlFailure } from './xml.ts';

export async function decryptAssertion(
  encrypted: Element,
  key: KeyObject,
): Promise<{ assertion: Element; xml: string }> {
  const pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  const xml = await new Promise<string>((resolve, reject) => {
    decrypt(new XMLSerializer().serializeToString(encrypted), { key: pem }, (e, result) =>
      e ? reject(e) : resolve(result),
    );
  }).catch((e: Error) => samlFailure(`Failed to decrypt SAML assertion: ${e.message}`));
  const assertion = parseXml(xml);
  if (!is(assertion, NS.assertion, 'Assertion'))
    samlFailure(`The decrypted SAML content [${assertion.localName}] is not an Assertion`);
  return { assertion, xml };
}
