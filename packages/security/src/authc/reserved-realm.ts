/**
 * The `reserved` realm: the built-in users. A built-in user without a stored password cannot
 * sign in (Elasticsearch 8 has no default passwords); `elastic`'s is set when the node first
 * starts (bootstrap.ts).
 */
import type { UserStore } from '../store/user-store.ts';
import { RESERVED_REALM } from './authentication.ts';
import type { PasswordHasher } from './password-hash.ts';
import type { Realm, RealmResult } from './realm.ts';
import { deprecatedUserWarning, isReservedUser, reservedUser } from './reserved-users.ts';
import type { User } from './user.ts';

export class ReservedRealm implements Realm {
  readonly ref = RESERVED_REALM;

  constructor(
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
  ) {}

  async authenticate(username: string, password: string): Promise<RealmResult> {
    if (!isReservedUser(username)) return { kind: 'not-handled' };
    const doc = await this.users.getReserved(username);
    if (!doc || doc.passwordHash === '') return { kind: 'failed', reason: 'no password set' };
    if (!doc.enabled) return { kind: 'failed', reason: 'user is disabled' };
    if (!(await this.hasher.verify(password, doc.passwordHash)))
      return { kind: 'failed', reason: 'wrong password' };
    const warning = deprecatedUserWarning(username);
    return warning
      ? { kind: 'success', user: reservedUser(username, true)!, warning }
      : { kind: 'success', user: reservedUser(username, true)! };
  }

  async lookup(username: string): Promise<User | undefined> {
    if (!isReservedUser(username)) return undefined;
    const doc = await this.users.getReserved(username);
    return reservedUser(username, doc?.enabled ?? true);
  }
}
