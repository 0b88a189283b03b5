/**
 * Password hashing as Elasticsearch's Hasher does it for `xpack.security.password_hashing.algorithm`:
 * `bcrypt` (cost 10) and `bcrypt4` … `bcrypt14`, through the native `bcrypt` binding (the hash
 * runs on libuv's thread pool, not on the event loop). Elasticsearch's PBKDF2 family is not
 * offered: a node configured with it refuses to start, naming the setting.
 */
import bcrypt from 'bcrypt';

export const PASSWORD_HASHING_SETTING = 'xpack.security.password_hashing.algorithm';

export interface PasswordHasher {
  readonly algorithm: string;
  hash(password: string): Promise<string>;
  /** Constant-time in the hash comparison (bcrypt's own compare). */
  verify(password: string, hash: string): Promise<boolean>;
  /** Whether a hash given in `password_hash` was made by this algorithm. */
  accepts(hash: string): boolean;
}

const BCRYPT_HASH = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

export function passwordHasher(algorithm = 'bcrypt'): PasswordHasher {
  const name = algorithm.toLowerCase();
  const m = /^bcrypt(\d*)$/.exec(name);
  if (!m) {
    throw new Error(
      `[${PASSWORD_HASHING_SETTING}] is [${algorithm}]: Shoal offers [bcrypt] and [bcrypt4] to [bcrypt14] only`,
    );
  }
  const cost = m[1] === '' ? 10 : Number(m[1]);
  if (cost < 4 || cost > 14) {
    throw new Error(`[${PASSWORD_HASHING_SETTING}] is [${algorithm}]: the bcrypt cost must be from 4 to 14`);
  }
  return {
    algorithm: name,
    hash: (password) => bcrypt.hash(password, cost),
    async verify(password, hash) {
      if (!BCRYPT_HASH.test(hash)) return false;
      return bcrypt.compare(password, hash);
    },
    accepts: (hash) => {
      const h = BCRYPT_HASH.exec(hash);
      return h !== null && Number(h[1]) === cost;
    },
  };
}
