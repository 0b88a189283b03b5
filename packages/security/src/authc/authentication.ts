/**
 * Who a request is: the user, the realm that authenticated it and how (Elasticsearch's
 * `Authentication`), and its `_authenticate` body.
 */
import { type User, userJson } from './user.ts';

export interface RealmRef {
  name: string;
  type: string;
}

export type AuthenticationType = 'realm' | 'api_key' | 'token' | 'anonymous' | 'internal';

export interface Authentication {
  user: User;
  realm: RealmRef;
  /** The realm the user was looked up in (the authentication realm unless run-as). */
  lookupRealm: RealmRef;
  type: AuthenticationType;
  /** Set when the request authenticated with an API key. */
  apiKey?: { id: string; name: string | null };
  /** Set when the request authenticated with a service-account token. */
  token?: { name: string; type: string };
}

export const RESERVED_REALM: RealmRef = Object.freeze({ name: 'reserved', type: 'reserved' });
export const NATIVE_REALM: RealmRef = Object.freeze({ name: 'default_native', type: 'native' });

/** `GET /_security/_authenticate`, in Authentication.toXContentFragment's field order. */
export function authenticateBody(a: Authentication): Record<string, unknown> {
  const u = userJson(a.user);
  const out: Record<string, unknown> = {
    username: u.username,
    roles: u.roles,
    full_name: u.full_name,
    email: u.email,
  };
  if (a.token) out.token = a.token;
  out.metadata = u.metadata;
  out.enabled = u.enabled;
  out.authentication_realm = a.realm;
  out.lookup_realm = a.lookupRealm;
  out.authentication_type = a.type;
  if (a.apiKey) {
    out.api_key = a.apiKey.name === null ? { id: a.apiKey.id } : { id: a.apiKey.id, name: a.apiKey.name };
  }
  return out;
}
