/**
 * Security as the node sees it: `start` it with a host, `guard` every request (authenticate,
 * then authorize its action), mount its `routes`.
 */
import { accessDenied, getBool, getTimeMs, parseTimeValue, TOKEN_SERVICE_ENABLED } from '@shoal/protocol';
import { ApiKeyService } from './authc/api-keys.ts';
import type { Authentication } from './authc/authentication.ts';
import { Authenticator } from './authc/authenticator.ts';
import { bootstrapElasticPassword } from './authc/bootstrap.ts';
import { FileRealm } from './authc/file-realm.ts';
import { NativeRealm } from './authc/native-realm.ts';
import { OidcRealm } from './authc/oidc/oidc-realm.ts';
import { oidcRealmConfigs } from './authc/oidc/oidc-settings.ts';
import { PASSWORD_HASHING_SETTING, passwordHasher } from './authc/password-hash.ts';
import { pkiRealmsFrom } from './authc/pki-realm.ts';
import type { Realm } from './authc/realm.ts';
import { ReservedRealm } from './authc/reserved-realm.ts';
import { SamlRealm } from './authc/saml/saml-realm.ts';
import { samlRealmConfigs } from './authc/saml/saml-settings.ts';
import { ServiceTokenService } from './authc/service-tokens.ts';
import { TOKEN_TIMEOUT_SETTING, TokenService } from './authc/token-service.ts';
import { type AuthorizationRequest, Authorizer } from './authz/authorizer.ts';
import { ContextOwners } from './authz/context-owners.ts';
import { actionDeniedMessage, principalText } from './authz/denial.ts';
import type { IndexAccess } from './authz/index-access.ts';
import type { Permission as Role } from './authz/role.ts';
import type { SecurityContext } from './context.ts';
import type { SecurityHost } from './host.ts';
import { ProfileService } from './profiles/profile-service.ts';
import { apiKeyGrantRoutes } from './rest/api-key-grant.ts';
import { apiKeyQueryRoutes } from './rest/api-key-query.ts';
import { apiKeyUpdateRoutes } from './rest/api-key-update.ts';
import { apiKeyRoutes } from './rest/api-keys.ts';
import { applicationPrivilegeRoutes } from './rest/application-privileges.ts';
import { bulkRoleRoutes } from './rest/bulk-roles.ts';
import { cacheRoutes } from './rest/caches.ts';
import { crossClusterApiKeyRoutes } from './rest/cross-cluster-api-keys.ts';
import { delegatePkiRoutes } from './rest/delegate-pki.ts';
import { enrollmentRoutes } from './rest/enrollment.ts';
import { entityQueryRoutes } from './rest/entity-queries.ts';
import { oidcRoutes } from './rest/oidc.ts';
import { privilegeRoutes } from './rest/privileges.ts';
import { profileRoutes } from './rest/profiles.ts';
import { roleMappingRoutes } from './rest/role-mappings.ts';
import { roleRoutes } from './rest/roles.ts';
import type { SecurityRoute } from './rest/route.ts';
import { samlRoutes } from './rest/saml.ts';
import { serviceAccountRoutes } from './rest/service-accounts.ts';
import { settingsRoutes } from './rest/settings.ts';
import { sslRoutes } from './rest/ssl.ts';
import { tokenRoutes } from './rest/tokens.ts';
import { userRoutes } from './rest/users.ts';
import { type LoadedHttpSsl, loadHttpSsl } from './ssl/http-ssl.ts';
import { ApiKeyStore } from './store/api-key-store.ts';
import { ApplicationPrivilegeStore } from './store/application-privilege-store.ts';
import { RoleMappingStore } from './store/role-mapping-store.ts';
import { RoleStore } from './store/role-store.ts';
import { UserStore } from './store/user-store.ts';

/** The node setting that turns security off (`false`); on by default. */
export const SECURITY_ENABLED_SETTING = 'xpack.security.enabled';
/** How long a successful authentication is remembered (the native realm's `cache.ttl`, default 20m). */
export const CACHE_TTL_SETTING = 'xpack.security.authc.realms.native.default_native.cache.ttl';
const DEFAULT_CACHE_TTL = '20m';
/** The header that asks to act as another user (needs `run_as` for that user). */
export const RUN_AS_HEADER = 'es-security-runas-user';

export function securityEnabled(settings: Readonly<Record<string, string>>): boolean {
  const v = settings[SECURITY_ENABLED_SETTING];
  if (v === undefined || v === 'true') return true;
  if (v === 'false') return false;
  throw new Error(`[${SECURITY_ENABLED_SETTING}] must be [true] or [false], got [${v}]`);
}

export interface GuardRequest extends AuthorizationRequest {
  headers: Readonly<Record<string, string | undefined>>;
  warnings: string[];
}

export interface GuardResult {
  authentication: Authentication;
  /** The index expression to use instead of the request's (only authorized names). */
  index?: string;
  /** `_bulk` items the user may not write, by position: answered with their 403, not run. */
  deniedItems?: ReadonlyMap<number, Error>;
  /**
   * The documents and fields the user may read of an index (document- and field-level
   * security); unset when the user's roles restrict neither.
   */
  access?: IndexAccess;
}

/**
 * The actions whose reads are restricted beyond `indices:data/read/*`, each with the action whose
 * role entries restrict them (a composite request's: its items').
 */
const RESTRICTED_READS: Record<string, string> = {
  'indices:data/read/msearch': 'indices:data/read/search',
  'indices:data/read/msearch/template': 'indices:data/read/search',
  'indices:data/read/mget': 'indices:data/read/get',
  // What these read is their source, searched.
  'indices:data/write/reindex': 'indices:data/read/search',
  'indices:data/write/update/byquery': 'indices:data/read/search',
  'indices:data/write/delete/byquery': 'indices:data/read/search',
  // Mappings show only the fields the user may see (field-level security).
  'indices:admin/get': 'indices:admin/get',
  'indices:admin/mappings/get': 'indices:admin/mappings/get',
  'indices:admin/mappings/fields/get': 'indices:admin/mappings/fields/get',
};

/** The actions that open, continue or release a scroll or point-in-time context. */
const CONTEXT_ACTIONS = new Set([
  'indices:data/read/search',
  'indices:data/read/scroll',
  'indices:data/read/scroll/clear',
  'indices:data/read/point_in_time/create',
  'indices:data/read/point_in_time/delete',
  'indices:data/read/open_point_in_time',
  'indices:data/read/close_point_in_time',
]);

export class Security {
  private readonly authorizer: Authorizer;
  private readonly contexts = new ContextOwners();

  private constructor(private readonly ctx: SecurityContext) {
    this.authorizer = new Authorizer(ctx.host.indices);
  }

  /** Opens the security index, sets `elastic`'s first password if none is stored. */
  static async start(host: SecurityHost, bootstrapPassword?: string): Promise<Security> {
    const hasher = passwordHasher(host.settings[PASSWORD_HASHING_SETTING] ?? 'bcrypt');
    const ttl = parseTimeValue(host.settings[CACHE_TTL_SETTING] ?? DEFAULT_CACHE_TTL, CACHE_TTL_SETTING);
    // Read first: a TLS configuration that cannot serve stops the start before anything is written.
    const configDir = host.configDir ?? process.cwd();
    const httpSsl = loadHttpSsl(host.settings, configDir);
    await host.store.ensure();
    const users = new UserStore(host.store);
    const roles = new RoleStore(host.store);
    const outcome = await bootstrapElasticPassword(users, hasher, bootstrapPassword, host.announce);
    if (outcome === 'from-environment')
      host.log.info("the [elastic] user's password was set from ELASTIC_PASSWORD");
    const realms: Realm[] = [new ReservedRealm(users, hasher)];
    if (host.fileRealmDir) realms.push(new FileRealm(host.fileRealmDir, hasher));
    realms.push(new NativeRealm(users, hasher));
    const apiKeys = new ApiKeyService(new ApiKeyStore(host.store), host.now);
    const serviceTokens = new ServiceTokenService(host.store);
    const tokens = getBool(host.settings, TOKEN_SERVICE_ENABLED)
      ? new TokenService(host.store, host.now, getTimeMs(host.settings, TOKEN_TIMEOUT_SETTING))
      : undefined;
    const oidcRealms = oidcRealmConfigs({
      settings: host.settings,
      secureSettings: host.secureSettings ?? {},
      configDir,
      tokenServiceEnabled: tokens !== undefined,
    }).map((config) => new OidcRealm(config, host.now));
    const samlRealms = samlRealmConfigs({
      settings: host.settings,
      secureSettings: host.secureSettings ?? {},
      configDir,
      tokenServiceEnabled: tokens !== undefined,
    }).map((config) => new SamlRealm(config, host.now));
    const authenticator = new Authenticator(realms, ttl, host.now, apiKeys, serviceTokens, tokens);
    const roleMappings = new RoleMappingStore(host.store);
    const privileges = new ApplicationPrivilegeStore(host.store);
    return new Security({
      host,
      users,
      roles,
      hasher,
      authenticator,
      apiKeys,
      roleMappings,
      serviceTokens,
      privileges,
      tokens,
      profiles: host.profiles ? new ProfileService(host.profiles, host.now) : undefined,
      pkiRealms: pkiRealmsFrom(host.settings, configDir),
      oidcRealms,
      samlRealms,
      httpSsl,
    });
  }

  /**
   * Authenticates the request and authorizes its action; throws Elasticsearch's 401 or 403.
   * `uri` is the request's path and query string as sent (the 401 reason quotes it). Answers at
   * once, without a promise, when the credentials and the roles are cached (most requests).
   */
  guard(req: GuardRequest, action: string, uri: string): GuardResult | Promise<GuardResult> {
    const cached =
      req.headers[RUN_AS_HEADER] === undefined
        ? this.ctx.authenticator.cached(req.headers.authorization)
        : undefined;
    if (cached) {
      const role = cached.permission ?? this.ctx.roles.cachedRole(cached.authentication.user.roles);
      if (role) {
        if (cached.warning) req.warnings.push(cached.warning);
        return this.decide(cached.authentication, role, req, action);
      }
    }
    return this.guardSlowly(req, action, uri);
  }

  private async guardSlowly(req: GuardRequest, action: string, uri: string): Promise<GuardResult> {
    const { authentication, warning, permission } = await this.ctx.authenticator.authenticate(
      req.headers.authorization,
      uri,
    );
    if (warning) req.warnings.push(warning);
    let effective = authentication;
    let runBy: string | undefined;
    const runAs = req.headers[RUN_AS_HEADER];
    if (runAs !== undefined) {
      effective = await this.runAs(authentication, runAs, action);
      runBy = authentication.user.username;
    }
    const role =
      runBy === undefined && permission ? permission : await this.ctx.roles.role(effective.user.roles);
    return this.decide(effective, role, req, action, runBy);
  }

  private decide(
    auth: Authentication,
    role: Role,
    req: GuardRequest,
    action: string,
    runBy?: string,
  ): GuardResult {
    const result = this.authorizer.authorize(auth, role, req, action, runBy);
    if (CONTEXT_ACTIONS.has(action)) this.contexts.check(auth, req, action, role.indexEverywhere(action));
    const out: GuardResult = { authentication: auth };
    if (result.index !== undefined) out.index = result.index;
    if (result.deniedItems !== undefined) out.deniedItems = result.deniedItems;
    if (
      role.restrictsDocumentsOrFields &&
      (action.startsWith('indices:data/read/') || RESTRICTED_READS[action] !== undefined)
    ) {
      const read = RESTRICTED_READS[action] ?? action;
      out.access = (names) => role.documentFieldAccess(read, names, auth.user);
    }
    return out;
  }

  /** AuthorizationService.authorizeRunAs: the authenticating user's roles must name the target. */
  private async runAs(auth: Authentication, target: string, action: string): Promise<Authentication> {
    const role = await this.ctx.roles.role(auth.user.roles);
    const found = target === '' ? undefined : await this.ctx.authenticator.lookup(target);
    if (!found?.user.enabled || !role.runAs(target)) {
      const who = principalText(auth, role);
      throw accessDenied(
        `${actionDeniedMessage(action, who, undefined, false)}, because user [${auth.user.username}] is unauthorized to run as [${target}]`,
      );
    }
    return { ...found, realm: auth.realm };
  }

  /** After a handler answered: remembers the scroll and point-in-time contexts it handed out. */
  answered(req: GuardRequest, action: string, auth: Authentication, status: number, body: unknown): void {
    if (status !== 200 || !CONTEXT_ACTIONS.has(action)) return;
    this.contexts.record(auth, req, action, body);
    this.contexts.forget(req, action);
  }

  /** The HTTP TLS configuration, for the node to serve HTTPS with (undefined: plain HTTP). */
  get httpSsl(): LoadedHttpSsl | undefined {
    return this.ctx.httpSsl;
  }

  routes(): SecurityRoute[] {
    return allRoutes(this.ctx);
  }
}

function allRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    ...privilegeRoutes(ctx),
    // After privilegeRoutes: `/_security/privilege/_builtin` is not an application's name.
    ...applicationPrivilegeRoutes(ctx),
    ...userRoutes(ctx),
    ...roleRoutes(ctx),
    ...cacheRoutes(ctx),
    ...apiKeyRoutes(ctx),
    ...apiKeyUpdateRoutes(ctx),
    ...apiKeyGrantRoutes(ctx),
    ...apiKeyQueryRoutes(ctx),
    ...crossClusterApiKeyRoutes(ctx),
    ...bulkRoleRoutes(ctx),
    ...entityQueryRoutes(ctx),
    ...roleMappingRoutes(ctx),
    ...serviceAccountRoutes(ctx),
    ...settingsRoutes(ctx),
    ...tokenRoutes(ctx),
    ...profileRoutes(ctx),
    ...sslRoutes(ctx),
    ...delegatePkiRoutes(ctx),
    ...oidcRoutes(ctx),
    ...samlRoutes(ctx),
    ...enrollmentRoutes(ctx),
  ];
}

/**
 * Every `/_security` route with its action, without a running node (for route tables and the
 * authorization matrix test).
 */
export function securityRouteTable(): { method: string; path: string; action: string }[] {
  // The handlers are never called: the context they would use is not needed to list them.
  return allRoutes({} as SecurityContext).map(({ method, path, action }) => ({ method, path, action }));
}
