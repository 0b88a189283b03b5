/**
 * Shoal's security: realms, the authorization engine and the `/_security` APIs. The node
 * implements SecurityHost (its system index, its index names, its settings), starts Security
 * with it, runs `guard` before every handler and mounts `routes()`.
 */
export type { Authentication, AuthenticationType, RealmRef } from './authc/authentication.ts';
export { generatePassword } from './authc/bootstrap.ts';
export { USERS_FILE, USERS_ROLES_FILE } from './authc/file-realm.ts';
export { passwordHasher } from './authc/password-hash.ts';
export { secureSettingsFrom } from './authc/secure-settings.ts';
export type { User } from './authc/user.ts';
export type { DocumentFieldAccess, IndexAccess } from './authz/index-access.ts';
export type {
  IndexNamespace,
  NodeIdentity,
  SecurityDoc,
  SecurityHost,
  SystemIndexHits,
  SystemIndexStore,
  VersionedDoc,
  VersionedIndexStore,
} from './host.ts';
export type { SecurityMethod, SecurityRequest, SecurityResponse, SecurityRoute } from './rest/route.ts';
export {
  CACHE_TTL_SETTING,
  type GuardRequest,
  type GuardResult,
  RUN_AS_HEADER,
  SECURITY_ENABLED_SETTING,
  Security,
  securityEnabled,
  securityRouteTable,
} from './security.ts';
export {
  type CertificateInfo,
  type HttpTls,
  type LoadedHttpSsl,
  loadHttpSsl,
  SslConfigError,
} from './ssl/http-ssl.ts';
export { SECURITY_INDEX } from './store/documents.ts';
