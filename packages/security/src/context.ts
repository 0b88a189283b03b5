/** What security's handlers share: the host, the stores, the hasher and the caches. */
import { ApiKeyService } from './authc/api-keys.ts';
import type { Authentication } from './authc/authentication.ts';
import type { Authenticator } from './authc/authenticator.ts';
import type { OidcRealm } from './authc/oidc/oidc-realm.ts';
import type { PasswordHasher } from './authc/password-hash.ts';
import type { PkiRealm } from './authc/pki-realm.ts';
import type { SamlRealm } from './authc/saml/saml-realm.ts';
import { serviceAccountDescriptor } from './authc/service-accounts.ts';
import type { ServiceTokenService } from './authc/service-tokens.ts';
import type { TokenService } from './authc/token-service.ts';
import { type Permission, Role } from './authz/role.ts';
import type { SecurityHost } from './host.ts';
import type { ProfileService } from './profiles/profile-service.ts';
import type { LoadedHttpSsl } from './ssl/http-ssl.ts';
import type { ApplicationPrivilegeStore } from './store/application-privilege-store.ts';
import type { RoleMappingStore } from './store/role-mapping-store.ts';
import type { RoleStore } from './store/role-store.ts';
import type { UserStore } from './store/user-store.ts';

export interface SecurityContext {
  host: SecurityHost;
  users: UserStore;
  roles: RoleStore;
  hasher: PasswordHasher;
  authenticator: Authenticator;
  apiKeys: ApiKeyService;
  roleMappings: RoleMappingStore;
  serviceTokens: ServiceTokenService;
  privileges: ApplicationPrivilegeStore;
  /** Absent when the token service is off (`xpack.security.authc.token.enabled`). */
  tokens?: TokenService;
  /** Absent when the node gives no profile index. */
  profiles?: ProfileService;
  /** The PKI realms, in order (delegated authentication). */
  pkiRealms?: PkiRealm[];
  /** The OpenID Connect realms, in order. */
  oidcRealms?: OidcRealm[];
  /** The SAML realms, in order. */
  samlRealms?: SamlRealm[];
  /** HTTP TLS as configured (`xpack.security.http.ssl.*`); absent when HTTP is plain. */
  httpSsl?: LoadedHttpSsl;
}

/** The body every `_clear_cache` API answers with (one node, all successful). */
export function clearCacheBody(host: SecurityHost): Record<string, unknown> {
  return {
    _nodes: { total: 1, successful: 1, failed: 0 },
    cluster_name: host.node.clusterName,
    nodes: { [host.node.id]: { name: host.node.name } },
  };
}

/**
 * What the caller may do, as its guard judged it: an API key's own (limited) permission, a
 * service account's descriptor, or the user's roles.
 */
export async function permissionOf(ctx: SecurityContext, auth: Authentication): Promise<Permission> {
  if (auth.apiKey) {
    const key = await ctx.apiKeys.store.get(auth.apiKey.id);
    if (key) return ApiKeyService.permissionOf(key);
  }
  if (auth.token) {
    const descriptor = serviceAccountDescriptor(auth.user.username);
    if (descriptor) return new Role([{ name: auth.user.username, descriptor }], []);
  }
  return ctx.roles.role(auth.user.roles);
}
