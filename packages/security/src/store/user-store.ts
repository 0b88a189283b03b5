/** Users in the security index: native users, and the built-in users' passwords and flags. */
import type { SystemIndexStore } from '../host.ts';
import {
  type NativeUserDoc,
  nativeUserFromDoc,
  nativeUserToDoc,
  type ReservedUserDoc,
  reservedUserDocId,
  reservedUserFromDoc,
  reservedUserToDoc,
  USER_TYPE,
  userDocId,
} from './documents.ts';

export class UserStore {
  constructor(private readonly store: SystemIndexStore) {}

  async getNative(username: string): Promise<NativeUserDoc | undefined> {
    const doc = await this.store.get(userDocId(username));
    return doc ? nativeUserFromDoc(doc) : undefined;
  }

  async putNative(u: NativeUserDoc): Promise<'created' | 'updated'> {
    const r = await this.store.put(userDocId(u.user.username), nativeUserToDoc(u));
    return r === 'created' ? 'created' : 'updated';
  }

  deleteNative(username: string): Promise<boolean> {
    return this.store.delete(userDocId(username));
  }

  async listNative(): Promise<NativeUserDoc[]> {
    const docs = await this.store.listByType(USER_TYPE);
    return docs.map((d) => nativeUserFromDoc(d.doc));
  }

  async getReserved(username: string): Promise<ReservedUserDoc | undefined> {
    const doc = await this.store.get(reservedUserDocId(username));
    return doc ? reservedUserFromDoc(doc) : undefined;
  }

  async putReserved(username: string, d: ReservedUserDoc): Promise<void> {
    await this.store.put(reservedUserDocId(username), reservedUserToDoc(d));
  }
}
