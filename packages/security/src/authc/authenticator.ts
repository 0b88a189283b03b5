/**
 * The realm chain and its answer to a request's credentials (Elasticsearch's
 * AuthenticationService with DefaultAuthenticationFailureHandler): the first realm that
 * handles the user decides; a failure is a 401 `security_exception` with one
 * `WWW-Authenticate` challenge per scheme.
 *
 * Successful authentications are cached by username for `cache.ttl` (as CachingUsernamePasswordRealm
 * does), holding a salted SHA-256 digest of the password, never the password: a request with
 * the same credentials pays a hash of microseconds instead of bcrypt's tens of milliseconds.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { authenticationFailed } from '@shoal/protocol';
import type { Permission } from '../authz/role.ts';
import type { ApiKeyService } from './api-keys.ts';
import type { Authentication } from './authentication.ts';
import { type Credentials, MalformedCredentials, parseAuthorization } from './credentials.ts';
import type { Realm } from './realm.ts';
import type { ServiceTokenService } from './service-tokens.ts';
import { decodeToken } from './token-codec.ts';
import type { TokenService } from './token-service.ts';

export const CHALLENGES: readonly string[] = Object.freeze([
  'Basic realm="security", charset="UTF-8"',
  'Bearer realm="security"',
  'ApiKey',
]);

/** TokenService's challenge for an access token past its time or invalidated. */
const EXPIRED_TOKEN_CHALLENGE =
  'Bearer realm="security", error="invalid_token", error_description="The access token expired"';

interface CacheEntry {
  digest: Buffer;
  answer: AuthenticatedRequest;
  expires: number;
}

export interface AuthenticatedRequest {
  authentication: Authentication;
  /** Set when the credentials carry their own permission (an API key). */
  permission?: Permission;
  /** A deprecation warning for the request (a deprecated built-in user). */
  warning?: string;
}

export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly salt = randomBytes(16);

  constructor(
    private readonly realms: Realm[],
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly apiKeys?: ApiKeyService,
    private readonly serviceTokens?: ServiceTokenService,
    private readonly tokens?: TokenService,
  ) {}

  private digest(password: string): Buffer {
    return createHash('sha256').update(this.salt).update(password).digest();
  }

  /**
   * The cached answer for these credentials, if any, without waiting: the common case of a
   * client sending the same credentials again (undefined: ask `authenticate`).
   */
  cached(authorization: string | undefined): AuthenticatedRequest | undefined {
    if (authorization === undefined || authorization.length < 7) return undefined;
    let creds: Credentials | undefined;
    try {
      creds = parseAuthorization(authorization);
    } catch {
      return undefined;
    }
    if (creds?.scheme === 'apikey') return this.apiKeys?.cached(creds.value);
    if (creds?.scheme === 'bearer') {
      const token = this.tokens?.cached(creds.value);
      return token ? { authentication: token } : this.serviceTokens?.cached(creds.value);
    }
    if (creds?.scheme !== 'basic') return undefined;
    const hit = this.cache.get(creds.username);
    if (!hit || hit.expires <= this.now() || !timingSafeEqual(hit.digest, this.digest(creds.password))) {
      return undefined;
    }
    return hit.answer;
  }

  /** `uri`: the request's path and query string, as the 401 reason quotes it. */
  async authenticate(authorization: string | undefined, uri: string): Promise<AuthenticatedRequest> {
    let creds: Credentials | undefined;
    try {
      creds = parseAuthorization(authorization);
    } catch (e) {
      if (e instanceof MalformedCredentials) throw authenticationFailed(e.message, [...CHALLENGES]);
      throw e;
    }
    if (!creds) {
      throw authenticationFailed(`missing authentication credentials for REST request [${uri}]`, [
        ...CHALLENGES,
      ]);
    }
    if (creds.scheme === 'apikey' && this.apiKeys) {
      const r = await this.apiKeys.authenticate(creds.value);
      if (r.ok) return { authentication: r.authentication, permission: r.permission };
      throw unsuccessfulCredentials({ additional_unsuccessful_credentials: `API key: ${r.reason}` });
    }
    if (creds.scheme === 'bearer' && this.tokens && decodeToken(creds.value)) {
      const r = await this.tokens.authenticate(creds.value);
      if (r.ok) return { authentication: r.authentication };
      if (r.reason === 'expired') {
        throw authenticationFailed('token expired', [
          CHALLENGES[0]!,
          EXPIRED_TOKEN_CHALLENGE,
          ...CHALLENGES.slice(2),
        ]);
      }
      throw unsuccessfulCredentials({});
    }
    if (creds.scheme === 'bearer' && this.serviceTokens) {
      const r = await this.serviceTokens.authenticate(creds.value);
      if (r.ok) return { authentication: r.authentication, permission: r.permission };
      throw unsuccessfulCredentials({
        additional_unsuccessful_credentials: `service account token: ${r.reason}`,
      });
    }
    if (creds.scheme !== 'basic') throw unsuccessfulCredentials({});
    return this.authenticateBasic(creds.username, creds.password, `REST request [${uri}]`);
  }

  /**
   * A username and password given in a request body (the grant API key password grant):
   * the same realm chain and cache, a failure naming the action.
   */
  authenticatePassword(username: string, password: string, action: string): Promise<AuthenticatedRequest> {
    return this.authenticateBasic(username, password, `action [${action}]`);
  }

  /** `what`: the request as the 401 reason names it (`REST request [/x]`, `action [a]`). */
  private async authenticateBasic(
    username: string,
    password: string,
    what: string,
  ): Promise<AuthenticatedRequest> {
    const digest = this.digest(password);
    const hit = this.cache.get(username);
    if (hit && hit.expires > this.now() && timingSafeEqual(hit.digest, digest)) return hit.answer;
    for (const realm of this.realms) {
      const r = await realm.authenticate(username, password);
      if (r.kind === 'not-handled') continue;
      if (r.kind === 'failed') break;
      const auth: Authentication = { user: r.user, realm: realm.ref, lookupRealm: realm.ref, type: 'realm' };
      const answer: AuthenticatedRequest = r.warning
        ? { authentication: auth, warning: r.warning }
        : { authentication: auth };
      if (this.ttlMs > 0) this.cache.set(username, { digest, answer, expires: this.now() + this.ttlMs });
      return answer;
    }
    throw authenticationFailed(`unable to authenticate user [${username}] for ${what}`, [...CHALLENGES]);
  }

  /** Finds a user by name in the realm chain (run-as). */
  async lookup(username: string): Promise<Authentication | undefined> {
    for (const realm of this.realms) {
      const user = await realm.lookup(username);
      if (user) return { user, realm: realm.ref, lookupRealm: realm.ref, type: 'realm' };
    }
    return undefined;
  }

  /** Forgets cached authentications: of these users, or all. */
  invalidate(usernames?: readonly string[]): void {
    if (!usernames) this.cache.clear();
    else for (const u of usernames) this.cache.delete(u);
  }
}

/** The failure of a credential that names no user (an API key, a bearer token). */
function unsuccessfulCredentials(metadata: Record<string, unknown>): Error {
  return authenticationFailed(
    'unable to authenticate with provided credentials and anonymous access is not allowed for this request',
    [...CHALLENGES],
    metadata,
  );
}
