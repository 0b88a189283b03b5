/**
 * A realm authenticates a username and password, or looks a user up by name (for run-as):
 * reserved (built-in users), native (users in the security index). Sign-in flows to come
 * (tokens, SAML, OIDC, PKI) plug in as further realms of the chain.
 */
import type { RealmRef } from './authentication.ts';
import type { User } from './user.ts';

export type RealmResult =
  /** Not this realm's user: the next realm is asked. */
  | { kind: 'not-handled' }
  /** This realm's user, and the credentials are wrong or the user is disabled. */
  | { kind: 'failed'; reason: string }
  | { kind: 'success'; user: User; warning?: string };

export interface Realm {
  readonly ref: RealmRef;
  authenticate(username: string, password: string): Promise<RealmResult>;
  lookup(username: string): Promise<User | undefined>;
}
