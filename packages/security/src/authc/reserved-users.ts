/**
 * The built-in users (Elasticsearch's ReservedRealm and UsernamesField): their roles and
 * metadata are fixed; only their password and enabled flag change, kept in the security index.
 * `dashboard` is deprecated in favour of `dashboard_system`, and does not share its password.
 */
import type { User } from './user.ts';

interface ReservedUserDef {
  roles: string[];
  deprecatedReason?: string;
}

const DEFS: Record<string, ReservedUserDef> = {
  elastic: { roles: ['superuser'] },
  dashboard: {
    roles: ['dashboard_system'],
    deprecatedReason: 'Please use the [dashboard_system] user instead.',
  },
  dashboard_system: { roles: ['dashboard_system'] },
  logstash_system: { roles: ['logstash_system'] },
  beats_system: { roles: ['beats_system'] },
  apm_system: { roles: ['apm_system'] },
  remote_monitoring_user: { roles: ['remote_monitoring_collector', 'remote_monitoring_agent'] },
};

export const RESERVED_USERNAMES: readonly string[] = Object.freeze(Object.keys(DEFS));

/** Internal users: never listed, never changed through the API. */
const INTERNAL = new Set([
  '_system',
  '_ext',
  '_ext_security',
  '_async_search',
  '_security_profile',
  '_storage',
  '_synonyms',
  '_lazy_rollover',
  '_reindex_data_stream',
  '_xpack',
  '_xpack_security',
]);

export function isReservedUser(name: string): boolean {
  return Object.hasOwn(DEFS, name);
}

export function isInternalUser(name: string): boolean {
  return INTERNAL.has(name);
}

export function reservedUser(name: string, enabled: boolean): User | undefined {
  const def = DEFS[name];
  if (!def) return undefined;
  const metadata: Record<string, unknown> = { _reserved: true };
  if (def.deprecatedReason) {
    metadata._deprecated = true;
    metadata._deprecated_reason = def.deprecatedReason;
  }
  return { username: name, roles: [...def.roles], fullName: null, email: null, metadata, enabled };
}

/** The `Warning` a request authenticated as a deprecated built-in user gets. */
export function deprecatedUserWarning(name: string): string | undefined {
  const def = DEFS[name];
  if (!def?.deprecatedReason) return undefined;
  return `The user [${name}] is deprecated and will be removed in a future release. ${def.deprecatedReason}`;
}
