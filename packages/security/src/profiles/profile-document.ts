/**
 * A user profile as Elasticsearch keeps it (ProfileDocument) and shows it (Profile): its uid,
 * the user it was last synchronized from, searchable `labels` and opaque application `data`.
 */
import { createHash } from 'node:crypto';
import type { Authentication } from '../authc/authentication.ts';
import type { SecurityDoc, VersionedDoc } from '../host.ts';

export interface ProfileUser {
  username: string;
  roles: string[];
  realm: { name: string; type: string };
  email: string | null;
  fullName: string | null;
}

export interface Profile {
  uid: string;
  enabled: boolean;
  lastSynchronized: number;
  user: ProfileUser;
  labels: Record<string, unknown>;
  data: Record<string, unknown>;
  seqNo: number;
  primaryTerm: number;
}

export const profileDocId = (uid: string) => `profile_${uid}`;

/**
 * ProfileDocument.computeBaseUidForSubject: `u_` and the unpadded base64url SHA-256 of the
 * username; `_<n>` is appended, n counting up from 0 for the same name from other realms.
 */
export function baseUid(username: string): string {
  return `u_${createHash('sha256').update(username, 'utf8').digest('base64url')}`;
}

export function profileUserOf(a: Authentication): ProfileUser {
  return {
    username: a.user.username,
    roles: [...a.user.roles],
    realm: { name: a.realm.name, type: a.realm.type },
    email: a.user.email,
    fullName: a.user.fullName,
  };
}

/** `key=value` keywords for each label value, searched by the suggest API's label hints. */
function labelTerms(labels: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const x of Array.isArray(v) ? v : [v]) {
      if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') out.push(`${k}=${x}`);
    }
  }
  return out;
}

export function profileToDoc(p: Omit<Profile, 'seqNo' | 'primaryTerm'>): SecurityDoc {
  return {
    user_profile: {
      uid: p.uid,
      enabled: p.enabled,
      last_synchronized: p.lastSynchronized,
      user: {
        username: p.user.username,
        roles: p.user.roles,
        realm: p.user.realm,
        email: p.user.email,
        full_name: p.user.fullName,
      },
      labels: p.labels,
      application_data: p.data,
      label_terms: labelTerms(p.labels),
    },
  };
}

export function profileFromDoc(v: VersionedDoc): Profile {
  const p = v.doc.user_profile as Record<string, unknown>;
  const u = p.user as Record<string, unknown>;
  return {
    uid: String(p.uid),
    enabled: p.enabled === true,
    lastSynchronized: Number(p.last_synchronized),
    user: {
      username: String(u.username),
      roles: (u.roles as string[]) ?? [],
      realm: u.realm as { name: string; type: string },
      email: (u.email as string | null) ?? null,
      fullName: (u.full_name as string | null) ?? null,
    },
    labels: (p.labels as Record<string, unknown>) ?? {},
    data: (p.application_data as Record<string, unknown>) ?? {},
    seqNo: v.seqNo,
    primaryTerm: v.primaryTerm,
  };
}

/**
 * The `data` keys asked for: `*` is everything, `app` one application's data, `app.key` a
 * key within it (nested keys likewise); none asked, none shown.
 */
export function filterData(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (keys.includes('*')) return data;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const path = key.split('.');
    let from: unknown = data;
    for (const part of path) {
      from = typeof from === 'object' && from !== null ? (from as Record<string, unknown>)[part] : undefined;
    }
    if (from === undefined) continue;
    let into = out;
    for (const part of path.slice(0, -1)) {
      const next = into[part];
      into[part] = typeof next === 'object' && next !== null ? next : {};
      into = into[part] as Record<string, unknown>;
    }
    into[path[path.length - 1]!] = from;
  }
  return out;
}

function userJson(u: ProfileUser): Record<string, unknown> {
  const out: Record<string, unknown> = { username: u.username, roles: u.roles, realm_name: u.realm.name };
  if (u.email !== null) out.email = u.email;
  if (u.fullName !== null) out.full_name = u.fullName;
  return out;
}

/** Profile.toXContent, in its field order; `_doc` is left out of suggestions. */
export function profileJson(
  p: Profile,
  dataKeys: readonly string[],
  form: 'full' | 'suggestion' = 'full',
): Record<string, unknown> {
  const data = filterData(p.data, dataKeys);
  if (form === 'suggestion') return { uid: p.uid, user: userJson(p.user), labels: p.labels, data };
  return {
    uid: p.uid,
    enabled: p.enabled,
    last_synchronized: p.lastSynchronized,
    user: userJson(p.user),
    labels: p.labels,
    data,
    _doc: { _primary_term: p.primaryTerm, _seq_no: p.seqNo },
  };
}

/** Deep merge of an update into stored labels or data: objects merge, anything else replaces. */
export function mergeInto(
  base: Record<string, unknown>,
  update: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(update)) {
    const old = out[k];
    const bothObjects =
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      typeof old === 'object' &&
      old !== null &&
      !Array.isArray(old);
    out[k] = bothObjects ? mergeInto(old as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}
