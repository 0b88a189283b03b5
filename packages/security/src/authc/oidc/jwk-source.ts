/**
 * The keys an ID token's signature is checked with (OpenIdConnectAuthenticator's key
 * selectors): the client secret for the HMAC algorithms; else the OP's JWK set, from a file
 * (re-read when it changes, as Elasticsearch's file watcher does) or from an https URL (cached;
 * fetched again once when a signature does not verify, for keys the OP has rotated).
 */
import { readFile, stat } from 'node:fs/promises';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import type { JwkSetLocation } from './oidc-settings.ts';

export interface KeySource {
  /** The key, or key resolver, for jose's `jwtVerify`. */
  key(): Promise<JWTVerifyGetKey | Uint8Array>;
  /** After a signature that did not verify: whether fresher keys may now be had (then try once more). */
  refresh(): Promise<boolean>;
}

/** An HMAC algorithm's key: the client secret's UTF-8 bytes. */
export function secretKeySource(secret: string): KeySource {
  const key = new TextEncoder().encode(secret);
  return { key: async () => key, refresh: async () => false };
}

class FileKeySource implements KeySource {
  private loaded: { mtimeMs: number; size: number; jwks: JWTVerifyGetKey } | undefined;

  constructor(private readonly path: string) {}

  async key(): Promise<JWTVerifyGetKey> {
    const s = await stat(this.path);
    if (this.loaded && this.loaded.mtimeMs === s.mtimeMs && this.loaded.size === s.size)
      return this.loaded.jwks;
    const set = JSON.parse(await readFile(this.path, 'utf8')) as JSONWebKeySet;
    if (!Array.isArray(set?.keys)) throw new Error(`the JWK set file [${this.path}] has no [keys] array`);
    this.loaded = { mtimeMs: s.mtimeMs, size: s.size, jwks: createLocalJWKSet(set) };
    return this.loaded.jwks;
  }

  async refresh(): Promise<boolean> {
    // The file is checked for changes before every validation already.
    return false;
  }
}

/** How long an OP may take to answer (`http.connection_read_timeout`: 5s). */
const HTTP_TIMEOUT_MS = 5000;

class UrlKeySource implements KeySource {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(url: URL, fetchImpl?: FetchImplementation) {
    this.jwks = createRemoteJWKSet(url, {
      timeoutDuration: HTTP_TIMEOUT_MS,
      // A rotated key is looked for at once, not after jose's default 30 s cool-down.
      cooldownDuration: 0,
      ...(fetchImpl ? { [customFetch]: fetchImpl } : {}),
    });
  }

  async key(): Promise<JWTVerifyGetKey> {
    return this.jwks;
  }

  async refresh(): Promise<boolean> {
    await this.jwks.reload();
    return true;
  }
}

export function jwkSetSource(location: JwkSetLocation, fetchImpl?: FetchImplementation): KeySource {
  return location.kind === 'file'
    ? new FileKeySource(location.path)
    : new UrlKeySource(location.url, fetchImpl);
}
