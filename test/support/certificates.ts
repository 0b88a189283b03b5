/**
 * Certificates made per test run with @peculiar/x509 on Node's WebCrypto (ECDSA P-256): a CA,
 * and certificates it signs for servers or clients. No files are read or shared between runs.
 */
// @peculiar/x509 resolves its services through decorators' metadata.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type CryptoKeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 24 * 3600_000;

export interface TestCertificate {
  cert: x509.X509Certificate;
  /** PEM of the certificate. */
  pem: string;
  /** PEM (PKCS#8) of its private key. */
  keyPem: string;
  /** Base64 of the certificate's DER (delegate_pki's chain elements). */
  der64: string;
  keys: CryptoKeyPair;
}

async function finish(cert: x509.X509Certificate, keys: CryptoKeyPair): Promise<TestCertificate> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    cert,
    pem: cert.toString('pem'),
    keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
    der64: Buffer.from(cert.rawData).toString('base64'),
    keys,
  };
}

/** `name` lists RDNs in certificate order (`O=Shoal, CN=Test CA` reads back as `CN=Test CA,O=Shoal`). */
export async function makeCa(name: string, serialNumber = '0f1e'): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber,
    name,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 2 * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  return finish(cert, keys);
}

export async function makeSigned(
  ca: TestCertificate,
  subject: string,
  opts: { serialNumber?: string; server?: boolean } = {},
): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const extensions: x509.Extension[] = [
    new x509.ExtendedKeyUsageExtension([
      opts.server ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
    ]),
  ];
  if (opts.server) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: opts.serialNumber ?? '00a1b2',
    subject,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 2 * DAY),
    signingKey: ca.keys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALG,
    extensions,
  });
  return finish(cert, keys);
}

/** The certificate's SHA-256 fingerprint, lower-case hex. */
export async function fingerprint(c: TestCertificate): Promise<string> {
  return Buffer.from(await c.cert.getThumbprint('SHA-256')).toString('hex');
}
