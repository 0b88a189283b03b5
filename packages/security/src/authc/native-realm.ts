/** The `native` realm (`default_native`): users kept in the security index by the user APIs. */
import type { UserStore } from '../store/user-store.ts';
import { NATIVE_REALM } from './authentication.ts';
import type { PasswordHasher } from './password-hash.ts';
import type { Realm, RealmResult } from './realm.ts';
import { isReservedUser } from './reserved-users.ts';
import type { User } from './user.ts';

export class NativeRealm implements Realm {
  readonly ref = NATIVE_REALM;

  constructor(
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
  ) {}

  async authenticate(username: string, password: string): Promise<RealmResult> {
    if (isReservedUser(username)) return { kind: 'not-handled' };
    const doc = await this.users.getNative(username);
    if (!doc) return { kind: 'not-handled' };
    if (!doc.user.enabled) return { kind: 'failed', reason: 'user is disabled' };
    if (!(await this.hasher.verify(password, doc.passwordHash)))
      return { kind: 'failed', reason: 'wrong password' };
    return { kind: 'success', user: doc.user };
  }

  async lookup(username: string): Promise<User | undefined> {
    return (await this.users.getNative(username))?.user;
  }
}
