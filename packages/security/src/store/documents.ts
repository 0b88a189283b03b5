/**
 * How security data is laid out in its system index, as Elasticsearch lays out `.security-7`:
 * one document per thing, its id prefixed by its kind, with a `type` field to list them by.
 */
import type { User } from '../authc/user.ts';
import type { SecurityDoc } from '../host.ts';
import { KEY_SEPARATOR, METADATA_KEYED, METADATA_VALUES } from '../query/field-names.ts';

/** The system index's name. */
export const SECURITY_INDEX = '.security-7';

export const USER_TYPE = 'user';
export const RESERVED_USER_TYPE = 'reserved-user';
export const ROLE_TYPE = 'role';

export const userDocId = (username: string) => `${USER_TYPE}-${username}`;
export const reservedUserDocId = (username: string) => `${RESERVED_USER_TYPE}-${username}`;
export const roleDocId = (name: string) => `${ROLE_TYPE}-${name}`;

/** A native user's document: the user and its password hash. */
export interface NativeUserDoc {
  user: User;
  passwordHash: string;
}

export function nativeUserToDoc(u: NativeUserDoc): SecurityDoc {
  return {
    username: u.user.username,
    password: u.passwordHash,
    roles: u.user.roles,
    full_name: u.user.fullName,
    email: u.user.email,
    metadata: u.user.metadata,
    enabled: u.user.enabled,
    type: USER_TYPE,
  };
}

export function nativeUserFromDoc(doc: SecurityDoc): NativeUserDoc {
  return {
    user: {
      username: String(doc.username),
      roles: Array.isArray(doc.roles) ? (doc.roles as string[]) : [],
      fullName: typeof doc.full_name === 'string' ? doc.full_name : null,
      email: typeof doc.email === 'string' ? doc.email : null,
      metadata: (doc.metadata as Record<string, unknown>) ?? {},
      enabled: doc.enabled !== false,
    },
    passwordHash: String(doc.password ?? ''),
  };
}

/** A built-in user's changeable part: its password hash (empty when none was set) and enabled flag. */
export interface ReservedUserDoc {
  passwordHash: string;
  enabled: boolean;
}

export function reservedUserToDoc(d: ReservedUserDoc): SecurityDoc {
  return { password: d.passwordHash, enabled: d.enabled, type: RESERVED_USER_TYPE };
}

export function reservedUserFromDoc(doc: SecurityDoc): ReservedUserDoc {
  return { passwordHash: String(doc.password ?? ''), enabled: doc.enabled !== false };
}

/**
 * A metadata object's leaves as the `_query` APIs search them (a `flattened` field's two
 * parts): `path\0value` for `metadata.<path>`, and the bare values for `metadata`.
 */
export function metadataSearchFields(metadata: Record<string, unknown>): Record<string, string[]> {
  const keyed: string[] = [];
  const values: string[] = [];
  const walk = (prefix: string, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(prefix, x);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) walk(prefix === '' ? k : `${prefix}.${k}`, x);
    } else if (v !== null && v !== undefined && prefix !== '') {
      keyed.push(`${prefix}${KEY_SEPARATOR}${String(v)}`);
      values.push(String(v));
    }
  };
  walk('', metadata);
  return { [METADATA_KEYED]: keyed, [METADATA_VALUES]: values };
}

/** A stored document without the fields kept only for searching. */
export function withoutSearchFields(doc: SecurityDoc): SecurityDoc {
  const { [METADATA_KEYED]: _k, [METADATA_VALUES]: _v, ...rest } = doc;
  return rest;
}
