/**
 * The token strings of the token service and how they are kept. An access token and its refresh
 * token are `base64([version][token id][secret])`: the id names the one document of the pair
 * in the security index, which holds only SHA-256 digests of the two secrets (the secrets are
 * 256 random bits, so a plain digest is as strong as a salted one), so a stolen index grants
 * nothing. Both strings are opaque to clients, as Elasticsearch's are.
 *
 * After a refresh, the superseding pair is kept encrypted (AES-256-GCM) under a key derived
 * from the old refresh token, so only a client that holds that token can read it back during
 * Elasticsearch's 30-second window for a repeated refresh.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** The first bytes of every token string (the wire version it was made by). */
const VERSION = Buffer.from([0x00, 0x7c, 0xf8, 0xb3]);
const ID_BYTES = 16;
const SECRET_BYTES = 32;
const TOKEN_BYTES = VERSION.length + ID_BYTES + SECRET_BYTES;

export interface DecodedToken {
  /** The pair's id (base64url), the key of its document. */
  id: string;
  secret: Buffer;
}

export function newTokenId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

/** A new token string of the pair `id`, and the digest to store for it. */
export function newTokenString(id: string): { token: string; digest: string } {
  const secret = randomBytes(SECRET_BYTES);
  const token = Buffer.concat([VERSION, Buffer.from(id, 'base64url'), secret]).toString('base64');
  return { token, digest: secretDigest(secret) };
}

/** undefined: not a token of this service (another kind of bearer token, or garbage). */
export function decodeToken(value: string): DecodedToken | undefined {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== TOKEN_BYTES || !bytes.subarray(0, VERSION.length).equals(VERSION)) return undefined;
  // Reject strings that only decode to the right length by base64's leniency.
  if (bytes.toString('base64') !== value) return undefined;
  const id = bytes.subarray(VERSION.length, VERSION.length + ID_BYTES).toString('base64url');
  return { id, secret: bytes.subarray(VERSION.length + ID_BYTES) };
}

export function secretDigest(secret: Buffer): string {
  return createHash('sha256').update(secret).digest('base64');
}

export function secretMatches(secret: Buffer, digest: unknown): boolean {
  if (typeof digest !== 'string') return false;
  const want = Buffer.from(digest, 'base64');
  const got = createHash('sha256').update(secret).digest();
  return want.length === got.length && timingSafeEqual(want, got);
}

function keyFor(refreshToken: string, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', refreshToken, salt, 'shoal superseding tokens', 32));
}

/** Encrypts `plain` under a key derived from `refreshToken`: base64 of salt, iv, tag, ciphertext. */
export function sealWith(refreshToken: string, plain: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(refreshToken, salt), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([salt, iv, cipher.getAuthTag(), body]).toString('base64');
}

/** undefined when `sealed` was not sealed with this refresh token (or was altered). */
export function openWith(refreshToken: string, sealed: string): string | undefined {
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length < 44) return undefined;
  const decipher = createDecipheriv(
    'aes-256-gcm',
    keyFor(refreshToken, raw.subarray(0, 16)),
    raw.subarray(16, 28),
  );
  decipher.setAuthTag(raw.subarray(28, 44));
  try {
    return Buffer.concat([decipher.update(raw.subarray(44)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
