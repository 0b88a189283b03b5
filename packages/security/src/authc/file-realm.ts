/**
 * The `file` realm (`default_file`): users kept in two files beside the node's data, in
 * Elasticsearch's formats, for recovery when no one can sign in any more (`npm run
 * reset-password` adds a temporary user here):
 *
 *   users        `username:bcrypt-hash` per line
 *   users_roles  `role:user1,user2` per line
 *
 * The files are read again whenever they change (their modification time), as Elasticsearch's
 * FileUserPasswdStore watches them.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RealmRef } from './authentication.ts';
import type { PasswordHasher } from './password-hash.ts';
import type { Realm, RealmResult } from './realm.ts';
import type { User } from './user.ts';

export const FILE_REALM: RealmRef = Object.freeze({ name: 'default_file', type: 'file' });
export const USERS_FILE = 'users';
export const USERS_ROLES_FILE = 'users_roles';

interface Snapshot {
  stamp: string;
  hashes: Map<string, string>;
  roles: Map<string, string[]>;
}

function stampOf(path: string): string {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
  } catch {
    return [];
  }
}

export class FileRealm implements Realm {
  readonly ref = FILE_REALM;
  private snapshot: Snapshot | undefined;

  constructor(
    private readonly dir: string,
    private readonly hasher: PasswordHasher,
  ) {}

  private load(): Snapshot {
    const usersPath = join(this.dir, USERS_FILE);
    const rolesPath = join(this.dir, USERS_ROLES_FILE);
    const stamp = `${stampOf(usersPath)}|${stampOf(rolesPath)}`;
    if (this.snapshot?.stamp === stamp) return this.snapshot;
    const hashes = new Map<string, string>();
    for (const line of readLines(usersPath)) {
      const colon = line.indexOf(':');
      if (colon > 0) hashes.set(line.slice(0, colon), line.slice(colon + 1));
    }
    const roles = new Map<string, string[]>();
    for (const line of readLines(rolesPath)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const role = line.slice(0, colon);
      for (const u of line.slice(colon + 1).split(',')) {
        const name = u.trim();
        if (name === '') continue;
        roles.set(name, [...(roles.get(name) ?? []), role]);
      }
    }
    this.snapshot = { stamp, hashes, roles };
    return this.snapshot;
  }

  private user(name: string, s: Snapshot): User {
    return {
      username: name,
      roles: s.roles.get(name) ?? [],
      fullName: null,
      email: null,
      metadata: {},
      enabled: true,
    };
  }

  async authenticate(username: string, password: string): Promise<RealmResult> {
    const s = this.load();
    const hash = s.hashes.get(username);
    if (hash === undefined) return { kind: 'not-handled' };
    if (!(await this.hasher.verify(password, hash))) return { kind: 'failed', reason: 'wrong password' };
    return { kind: 'success', user: this.user(username, s) };
  }

  async lookup(username: string): Promise<User | undefined> {
    const s = this.load();
    return s.hashes.has(username) ? this.user(username, s) : undefined;
  }
}
