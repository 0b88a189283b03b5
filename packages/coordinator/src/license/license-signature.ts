/**
 * License signatures: Ed25519 over the license's fields in a fixed order (every field but the
 * signature), base64 in the license's `signature`. The operator keeps the key pair in Shoal's
 * config folder — `$SHOAL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/shoal`, else `~/.config/shoal`:
 *
 *   license-signing-key.pem        the private key (PKCS#8, mode 0600): `npm run license` signs with it
 *   license-verification-key.pem   the public key (SPKI): a node verifies `PUT /_license` with it
 *
 * `npm run license` creates the pair on first use. A node that finds no verification key
 * accepts no signed license (every one is `invalid`), as nothing could have signed it.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { License } from './license.ts';

export const SIGNING_KEY_FILE = 'license-signing-key.pem';
export const VERIFICATION_KEY_FILE = 'license-verification-key.pem';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SHOAL_CONFIG_DIR) return env.SHOAL_CONFIG_DIR;
  const xdg = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(xdg, 'shoal');
}

/** The bytes a signature covers: every field but `signature`, in one fixed order. */
export function signedBytes(l: License): Buffer {
  return Buffer.from(
    JSON.stringify([
      l.uid,
      l.type,
      l.issue_date_in_millis,
      l.expiry_date_in_millis,
      l.max_nodes,
      l.max_resource_units,
      l.issued_to,
      l.issuer,
      l.start_date_in_millis,
    ]),
    'utf8',
  );
}

export function signLicense(l: Omit<License, 'signature'>, privateKey: KeyObject): License {
  const unsigned: License = { ...l };
  delete unsigned.signature;
  const signature = sign(null, signedBytes(unsigned), privateKey).toString('base64');
  return { ...unsigned, signature };
}

export function verifyLicense(l: License, publicKey: KeyObject | undefined): boolean {
  if (publicKey === undefined || l.signature === undefined) return false;
  const sig = Buffer.from(l.signature, 'base64');
  if (sig.length !== 64) return false;
  try {
    return verify(null, signedBytes(l), publicKey, sig);
  } catch {
    return false;
  }
}

/** The verification key in `dir`, or undefined when none was created yet. */
export function readVerificationKey(dir: string): KeyObject | undefined {
  const path = join(dir, VERIFICATION_KEY_FILE);
  if (!existsSync(path)) return undefined;
  return createPublicKey(readFileSync(path, 'utf8'));
}

/** The signing key in `dir`, created with its verification key on first use. */
export function signingKey(dir: string): { key: KeyObject; created: boolean } {
  const path = join(dir, SIGNING_KEY_FILE);
  if (existsSync(path)) return { key: createPrivateKey(readFileSync(path, 'utf8')), created: false };
  mkdirSync(dir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  chmodSync(path, 0o600);
  writeFileSync(join(dir, VERIFICATION_KEY_FILE), publicKey.export({ type: 'spki', format: 'pem' }));
  return { key: privateKey, created: true };
}
