/**
 * PKI realms (`xpack.security.authc.realms.pki.<name>.*`, Elasticsearch's PkiRealm) for
 * delegated authentication: a chain of X.509 certificates, handed over by a proxy that did the
 * TLS client authentication itself, is trusted when it leads to one of the realm's CAs; the
 * user is named by `username_pattern` over the subject DN. The private key is never seen.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { REALMS_PREFIX } from '@shoal/protocol';
import { rfc2253 } from '../ssl/http-ssl.ts';
import type { RealmRef } from './authentication.ts';

const DEFAULT_USERNAME_PATTERN = 'CN=(.*?)(?:,|$)';
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export interface PkiSubject {
  username: string;
  /** The end-entity certificate's subject DN (RFC 2253). */
  dn: string;
}

export class PkiRealm {
  readonly ref: RealmRef;

  constructor(
    name: string,
    readonly order: number,
    private readonly trusted: X509Certificate[],
    readonly delegation: boolean,
    private readonly usernamePattern: RegExp,
  ) {
    this.ref = { name, type: 'pki' };
  }

  /**
   * The subject of a chain this realm trusts (end entity first, each certificate signed by the
   * next, the last one a trusted CA or signed by one, all within their validity), else undefined.
   */
  authenticate(chain: X509Certificate[], now: number): PkiSubject | undefined {
    if (chain.length === 0) return undefined;
    const valid = (c: X509Certificate) => Date.parse(c.validFrom) <= now && now <= Date.parse(c.validTo);
    if (!chain.every(valid)) return undefined;
    for (let i = 0; i + 1 < chain.length; i++) {
      if (!chain[i]!.checkIssued(chain[i + 1]!) || !chain[i]!.verify(chain[i + 1]!.publicKey))
        return undefined;
    }
    const last = chain[chain.length - 1]!;
    const anchored = this.trusted.some(
      (ca) =>
        valid(ca) &&
        (ca.fingerprint256 === last.fingerprint256 || (last.checkIssued(ca) && last.verify(ca.publicKey))),
    );
    if (!anchored) return undefined;
    const dn = rfc2253(chain[0]!.subject);
    const username = this.usernamePattern.exec(dn)?.[1];
    return username === undefined || username === '' ? undefined : { username, dn };
  }
}

/** Every PKI realm of the node settings, in `order`; CA paths relative to `configDir`. */
export function pkiRealmsFrom(settings: Readonly<Record<string, string>>, configDir: string): PkiRealm[] {
  const names = new Set<string>();
  const prefix = `${REALMS_PREFIX}pki.`;
  for (const key of Object.keys(settings)) {
    if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split('.')[0]!);
  }
  const realms: PkiRealm[] = [];
  for (const name of names) {
    const get = (k: string) => settings[`${prefix}${name}.${k}`];
    if (get('enabled') === 'false') continue;
    const trusted: X509Certificate[] = [];
    for (const path of (get('certificate_authorities') ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const file = isAbsolute(path) ? path : join(configDir, path);
      const pems = readFileSync(file, 'utf8').match(PEM_CERT) ?? [];
      for (const pem of pems) trusted.push(new X509Certificate(pem));
    }
    const order = Number(get('order') ?? '0');
    // PkiRealm compiles the pattern case-insensitively.
    const pattern = new RegExp(get('username_pattern') ?? DEFAULT_USERNAME_PATTERN, 'i');
    realms.push(new PkiRealm(name, order, trusted, get('delegation.enabled') === 'true', pattern));
  }
  return realms.sort((a, b) => a.order - b.order || (a.ref.name < b.ref.name ? -1 : 1));
}
