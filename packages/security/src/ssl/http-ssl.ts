/**
 * TLS on the HTTP port (`xpack.security.http.ssl.*`, PEM files): the key and certificate
 * chain the server presents, the CAs it trusts, and the certificates as `GET /_ssl/certificates`
 * describes them (Elasticsearch's PemKeyConfig and PemTrustConfig). Relative paths are read
 * from the node's config directory, as Elasticsearch reads them from its own.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { getBool, getList, getString, HTTP_SSL_ENABLED } from '@shoal/protocol';

const PREFIX = 'xpack.security.http.ssl';
const KEY = `${PREFIX}.key`;
const KEY_PASSPHRASE = `${PREFIX}.key_passphrase`;
const CERTIFICATE = `${PREFIX}.certificate`;
const CERTIFICATE_AUTHORITIES = `${PREFIX}.certificate_authorities`;

/** A configuration the node cannot start with; the message says which setting to fix. */
export class SslConfigError extends Error {}

export interface HttpTls {
  key: Buffer;
  passphrase?: string;
  /** The certificate chain, server certificate first (PEM). */
  cert: Buffer;
  /** The trusted CAs (PEM), if any are configured. */
  ca?: Buffer[];
}

/** One entry of `GET /_ssl/certificates` (CertificateInfo). */
export interface CertificateInfo {
  path: string;
  format: 'PEM';
  alias: null;
  subject_dn: string;
  serial_number: string;
  has_private_key: boolean;
  expiry: string;
  issuer: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function read(path: string, configDir: string, setting: string): Buffer {
  const file = isAbsolute(path) ? path : join(configDir, path);
  try {
    return readFileSync(file);
  } catch (e) {
    throw new SslConfigError(
      `failed to load SSL configuration [${PREFIX}] - cannot read configured PEM file [${file}] of [${setting}]: ${(e as Error).message}`,
    );
  }
}

function certificatesIn(pem: Buffer, path: string, setting: string): X509Certificate[] {
  const blocks = pem.toString('utf8').match(PEM_CERT) ?? [];
  if (blocks.length === 0)
    throw new SslConfigError(
      `failed to load SSL configuration [${PREFIX}] - no certificates found in [${path}] (${setting})`,
    );
  try {
    return blocks.map((b) => new X509Certificate(b));
  } catch (e) {
    throw new SslConfigError(
      `failed to load SSL configuration [${PREFIX}] - cannot parse certificate in [${path}] (${setting}): ${(e as Error).message}`,
    );
  }
}

/** X500Principal.getName(): the RDNs last to first, comma-separated (RFC 2253). */
export function rfc2253(name: string): string {
  return name.split('\n').filter(Boolean).reverse().join(',');
}

function info(cert: X509Certificate, path: string, hasKey: boolean): CertificateInfo {
  return {
    path,
    format: 'PEM',
    alias: null,
    subject_dn: rfc2253(cert.subject),
    // BigInteger.toString(16): lower case, no leading zeros.
    serial_number: BigInt(`0x${cert.serialNumber}`).toString(16),
    has_private_key: hasKey,
    expiry: new Date(cert.validTo).toISOString(),
    issuer: rfc2253(cert.issuer),
  };
}

export interface LoadedHttpSsl {
  tls: HttpTls;
  certificates: CertificateInfo[];
  /** The configured certificate authorities. */
  caCertificates: X509Certificate[];
  /** SHA-256 fingerprint (hex, no colons) of the CA clients should trust: the first configured CA, else the certificate's issuer-most. */
  caFingerprint: string;
}

/** undefined when HTTP TLS is off. Throws SslConfigError for a configuration that cannot serve. */
export function loadHttpSsl(
  settings: Readonly<Record<string, string>>,
  configDir: string,
): LoadedHttpSsl | undefined {
  if (!getBool(settings, HTTP_SSL_ENABLED)) return undefined;
  const keyPath = getString(settings, KEY);
  const certPath = getString(settings, CERTIFICATE);
  if (keyPath === '' || certPath === '') {
    throw new SslConfigError(
      `invalid SSL configuration for ${PREFIX} - server ssl configuration requires a key and certificate, but these have not been configured; you must set both [${KEY}] and [${CERTIFICATE}]`,
    );
  }
  const key = read(keyPath, configDir, KEY);
  const passphrase = getString(settings, KEY_PASSPHRASE);
  try {
    createPrivateKey(passphrase === '' ? key : { key, passphrase });
  } catch (e) {
    throw new SslConfigError(
      `failed to load SSL configuration [${PREFIX}] - cannot load PEM private key [${keyPath}] of [${KEY}]: ${(e as Error).message}`,
    );
  }
  const cert = read(certPath, configDir, CERTIFICATE);
  const chain = certificatesIn(cert, certPath, CERTIFICATE);
  if (!chain[0]!.checkPrivateKey(createPrivateKey(passphrase === '' ? key : { key, passphrase }))) {
    throw new SslConfigError(
      `failed to load SSL configuration [${PREFIX}] - the private key [${keyPath}] does not match the certificate [${certPath}]`,
    );
  }
  const certificates = chain.map((c, i) => info(c, certPath, i === 0));
  const ca: Buffer[] = [];
  const caCerts: X509Certificate[] = [];
  for (const path of getList(settings, CERTIFICATE_AUTHORITIES).filter((p) => p !== '')) {
    const pem = read(path, configDir, CERTIFICATE_AUTHORITIES);
    ca.push(pem);
    for (const c of certificatesIn(pem, path, CERTIFICATE_AUTHORITIES)) {
      caCerts.push(c);
      certificates.push(info(c, path, false));
    }
  }
  // CertificateInfo's order: path, then alias, then serial number.
  certificates.sort((a, b) =>
    a.path !== b.path
      ? a.path < b.path
        ? -1
        : 1
      : a.serial_number < b.serial_number
        ? -1
        : a.serial_number > b.serial_number
          ? 1
          : 0,
  );
  const trusted = caCerts[0] ?? chain[chain.length - 1]!;
  const tls: HttpTls = {
    key,
    cert,
    ...(passphrase === '' ? {} : { passphrase }),
    ...(ca.length > 0 ? { ca } : {}),
  };
  return {
    tls,
    certificates,
    caCertificates: caCerts,
    caFingerprint: trusted.fingerprint256.replaceAll(':', '').toLowerCase(),
  };
}
