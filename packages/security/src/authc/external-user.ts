/**
 * A user an external identity provider vouched for (an OpenID Connect or SAML sign-in): the
 * roles the role mappings give them, and the authentication the tokens issued for them carry.
 * Such a user has no record of their own in Shoal; the realm that checked the provider's answer
 * is both their authentication and their lookup realm.
 */
import { mappedRoles } from '../authz/role-mapping.ts';
import type { SecurityContext } from '../context.ts';
import type { Authentication, RealmRef } from './authentication.ts';

export interface ExternalUser {
  principal: string;
  groups: string[];
  dn: string | null;
  name: string | null;
  mail: string | null;
  metadata: Record<string, unknown>;
}

export async function externalAuthentication(
  ctx: SecurityContext,
  realm: { name: string; ref: RealmRef },
  u: ExternalUser,
): Promise<Authentication> {
  const mappings = (await ctx.roleMappings.list()).map((m) => m.mapping);
  const roles = mappedRoles(mappings, {
    username: u.principal,
    dn: u.dn,
    groups: u.groups,
    realmName: realm.name,
    metadata: u.metadata,
  });
  return {
    user: {
      username: u.principal,
      roles,
      fullName: u.name,
      email: u.mail,
      metadata: u.metadata,
      enabled: true,
    },
    realm: realm.ref,
    lookupRealm: realm.ref,
    type: 'realm',
  };
}
