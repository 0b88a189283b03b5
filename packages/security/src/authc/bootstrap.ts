/**
 * The `elastic` user's first password: `ELASTIC_PASSWORD` when the node has it, otherwise a
 * generated one, shown once on the node's console (never in its log). Only the hash is stored;
 * a password already stored is kept, as Elasticsearch uses its bootstrap password only until
 * `elastic`'s password is set.
 */
import { randomBytes } from 'node:crypto';
import type { UserStore } from '../store/user-store.ts';
import type { PasswordHasher } from './password-hash.ts';

export const ELASTIC = 'elastic';

/** 20 characters from [A-Za-z0-9_-], as random as 120 bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

export async function bootstrapElasticPassword(
  users: UserStore,
  hasher: PasswordHasher,
  bootstrapPassword: string | undefined,
  announce: (message: string) => void,
): Promise<'kept' | 'from-environment' | 'generated'> {
  const existing = await users.getReserved(ELASTIC);
  if (existing && existing.passwordHash !== '') return 'kept';
  const generated = bootstrapPassword === undefined || bootstrapPassword === '';
  const password = generated ? generatePassword() : bootstrapPassword;
  await users.putReserved(ELASTIC, {
    passwordHash: await hasher.hash(password),
    enabled: existing?.enabled ?? true,
  });
  if (generated) {
    announce(
      [
        'Security is on: every request needs credentials.',
        `The password of the built-in [${ELASTIC}] user, generated now and shown only this once:`,
        '',
        `  ${password}`,
        '',
        'Set ELASTIC_PASSWORD before the first start to choose it, or reset it with',
        '`npm run reset-password -- --user elastic`.',
      ].join('\n'),
    );
  }
  return generated ? 'generated' : 'from-environment';
}
