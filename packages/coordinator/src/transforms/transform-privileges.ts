/**
 * A transform runs with the privileges of the user who created or last updated it, as
 * Elasticsearch runs it with that user's stored security headers. Shoal stores who the user
 * was (name, roles, realm) with the configuration and, before each checkpoint and when the
 * transform is put, updated, previewed or started, asks security whether that user may read
 * the source and write the destination (TransformPrivilegeChecker). With security off there is
 * nothing to check.
 */

import { accessDenied } from '@shoal/protocol';
import type { Authentication } from '@shoal/security';
import type { NodeServices } from '../services.ts';
import type { TransformConfig } from './transform-config.ts';

/** Who a transform runs as, as stored with its configuration. */
export interface StoredAuthorization {
  username: string;
  roles: string[];
  realm: { name: string; type: string };
  lookup_realm: { name: string; type: string };
  authentication_type: string;
  api_key?: { id: string; name: string | null };
}

export interface IndexPrivilegesAsked {
  names: string[];
  privileges: string[];
}

/** Security's `_has_privileges` for a given user: the node wires it when security is on. */
export type PrivilegeCheck = (
  auth: Authentication,
  index: IndexPrivilegesAsked[],
) => Promise<{ hasAll: boolean; index: Record<string, Record<string, boolean>> }>;

export function storedAuthorization(auth: Authentication | undefined): StoredAuthorization | undefined {
  if (!auth) return undefined;
  const out: StoredAuthorization = {
    username: auth.user.username,
    roles: [...auth.user.roles],
    realm: { ...auth.realm },
    lookup_realm: { ...auth.lookupRealm },
    authentication_type: auth.type,
  };
  if (auth.apiKey) out.api_key = { ...auth.apiKey };
  return out;
}

export function authenticationOf(a: StoredAuthorization): Authentication {
  const auth: Authentication = {
    user: { username: a.username, roles: a.roles, fullName: null, email: null, metadata: {}, enabled: true },
    realm: a.realm,
    lookupRealm: a.lookup_realm,
    type: a.authentication_type as Authentication['type'],
  };
  if (a.api_key) auth.apiKey = a.api_key;
  return auth;
}

/** `GET /_transform`'s `authorization` (TransformConfig's AuthorizationState view). */
export function authorizationJson(a: StoredAuthorization): Record<string, unknown> {
  if (a.api_key) return { api_key: a.api_key };
  return { roles: a.roles };
}

/**
 * Throws Elasticsearch's 403 unless the user may read the source and (when `withDest`) read and
 * index into the destination — and create it, and read the source's mappings, when it does not
 * exist yet.
 */
export async function checkTransformPrivileges(
  s: NodeServices,
  operation: string,
  config: TransformConfig,
  who: StoredAuthorization | undefined,
  withDest: boolean,
): Promise<void> {
  const check = s.privilegeCheck;
  if (!check || !who) return;
  const asked: IndexPrivilegesAsked[] = [];
  const src = ['read'];
  if (withDest && config.dest.index !== '') {
    const dest = ['read', 'index'];
    const exists =
      s.indices.get(config.dest.index) !== undefined || s.indices.aliasTargets(config.dest.index).length > 0;
    if (!exists) {
      dest.push('create_index');
      src.push('view_index_metadata');
    }
    if (config.retentionPolicy) dest.push('delete');
    asked.push({ names: [config.dest.index], privileges: dest });
  }
  asked.push({ names: config.source.index, privileges: src });
  const answer = await check(authenticationOf(who), asked);
  if (answer.hasAll) return;
  const missing = Object.entries(answer.index)
    .filter(([, privileges]) => Object.values(privileges).some((v) => !v))
    .map(([name]) => name);
  throw accessDenied(
    `Cannot ${operation} transform [${config.id}] because user ${who.username} lacks all the required permissions for indices: [${missing.join(', ')}]`,
  );
}
