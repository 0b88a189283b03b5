/**
 * OAuth2-style access and refresh tokens (Elasticsearch's TokenService): an access token
 * stands for the authentication it was made for until `xpack.security.authc.token.timeout`
 * (20m); a refresh token may be used once, within 24 hours of the pair's creation, for a new
 * pair — and again within 30 seconds of that refresh, for the same new pair (a client that
 * retried a refresh whose answer it lost). Pairs are documents of the security index, so they
 * outlive the node process; successful authentications are cached until the token expires or
 * is invalidated here.
 */
import { oauth2Error } from '@shoal/protocol';
import type { SystemIndexStore } from '../host.ts';
import { type TokenRecord, TokenStore } from '../store/token-store.ts';
import type { Authentication } from './authentication.ts';
import { decodeToken, newTokenId, newTokenString, openWith, sealWith, secretMatches } from './token-codec.ts';

/** The access tokens' lifetime (TokenService.TOKEN_EXPIRATION: 20m, at most 1h). */
export const TOKEN_TIMEOUT_SETTING = 'xpack.security.authc.token.timeout';
/** A refresh token is good for 24 hours from the pair's creation. */
export const REFRESH_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** How long after a refresh the same refresh token still answers with the same new pair. */
export const REFRESH_WINDOW_MS = 30_000;
/** How often documents of pairs past their refresh lifetime are removed (`token.delete.interval`). */
const SWEEP_INTERVAL_MS = 30 * 60 * 1000;

export interface IssuedTokens {
  accessToken: string;
  refreshToken?: string;
  /** The authentication the access token stands for. */
  authentication: Authentication;
}

export type TokenAuthentication =
  | { ok: true; authentication: Authentication }
  /** `expired`: a token of this service that is past its time or invalidated. */
  | { ok: false; reason: 'unknown' | 'expired' };

export interface InvalidationResult {
  invalidated: number;
  previouslyInvalidated: number;
  /** 404: the one token named was not found. */
  notFound: boolean;
}

function invalidGrant(description: string): Error {
  return oauth2Error('invalid_grant', description);
}

export class TokenService {
  private readonly tokens: TokenStore;
  private readonly cache = new Map<
    string,
    { digest: string; authentication: Authentication; expires: number }
  >();
  /** Refreshes of one pair run one at a time (the second sees the first's result). */
  private readonly refreshing = new Map<string, Promise<unknown>>();
  private lastSweep = 0;

  constructor(
    store: SystemIndexStore,
    private readonly now: () => number,
    readonly timeoutMs: number,
  ) {
    this.tokens = new TokenStore(store);
  }

  /** The cached authentication of an access token, without waiting (undefined: ask `authenticate`). */
  cached(value: string): Authentication | undefined {
    const t = decodeToken(value);
    if (!t) return undefined;
    const hit = this.cache.get(t.id);
    if (!hit || hit.expires <= this.now() || !secretMatches(t.secret, hit.digest)) return undefined;
    return hit.authentication;
  }

  async authenticate(value: string): Promise<TokenAuthentication> {
    const t = decodeToken(value);
    if (!t) return { ok: false, reason: 'unknown' };
    const cached = this.cached(value);
    if (cached) return { ok: true, authentication: cached };
    const record = await this.tokens.get(t.id);
    if (!record || !secretMatches(t.secret, record.access.digest)) return { ok: false, reason: 'unknown' };
    if (record.access.invalidated || record.access.expiration <= this.now()) {
      return { ok: false, reason: 'expired' };
    }
    const authentication: Authentication = { ...record.access.authentication, type: 'token' };
    this.cache.set(t.id, { digest: record.access.digest, authentication, expires: record.access.expiration });
    return { ok: true, authentication };
  }

  /**
   * A new pair for `authentication`, asked for by `client` (the refresh token is bound to it);
   * `metadata` is kept with it, and with the pairs its refresh token leads to.
   */
  async create(
    authentication: Authentication,
    client: Authentication,
    withRefreshToken: boolean,
    metadata?: Record<string, unknown>,
  ): Promise<IssuedTokens> {
    // A failed sweep is tried again at the next interval; the pair is made either way.
    this.sweep().catch(() => undefined);
    const id = newTokenId();
    const access = newTokenString(id);
    const refresh = withRefreshToken ? newTokenString(id) : undefined;
    const creation = this.now();
    await this.tokens.create({
      id,
      creation,
      access: {
        digest: access.digest,
        invalidated: false,
        expiration: creation + this.timeoutMs,
        authentication,
        ...(metadata ? { metadata } : {}),
      },
      refresh: refresh
        ? {
            digest: refresh.digest,
            invalidated: false,
            refreshed: false,
            refreshTime: null,
            superseding: null,
            client: { user: client.user.username, realm: client.realm.name },
          }
        : null,
    });
    return refresh
      ? { accessToken: access.token, refreshToken: refresh.token, authentication }
      : { accessToken: access.token, authentication };
  }

  /** The `refresh_token` grant; failures are OAuth2 `invalid_grant` errors with Elasticsearch's texts. */
  async refresh(refreshToken: string, client: Authentication): Promise<IssuedTokens> {
    const t = decodeToken(refreshToken);
    if (!t) throw invalidGrant('could not refresh the requested token');
    const previous = this.refreshing.get(t.id) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.refreshOnce(refreshToken, client));
    this.refreshing.set(t.id, run);
    try {
      return await run;
    } finally {
      if (this.refreshing.get(t.id) === run) this.refreshing.delete(t.id);
    }
  }

  private async refreshOnce(refreshToken: string, client: Authentication): Promise<IssuedTokens> {
    const t = decodeToken(refreshToken)!;
    const record = await this.tokens.get(t.id);
    const refresh = record?.refresh;
    if (!record || !refresh || !secretMatches(t.secret, refresh.digest)) {
      throw invalidGrant('could not refresh the requested token');
    }
    const now = this.now();
    if (refresh.invalidated) throw invalidGrant('token has been invalidated');
    if (now > record.creation + REFRESH_TOKEN_LIFETIME_MS) throw invalidGrant('token document has expired');
    if (refresh.client.user !== client.user.username || refresh.client.realm !== client.realm.name) {
      throw invalidGrant('tokens must be refreshed by the creating client');
    }
    const authentication: Authentication = { ...record.access.authentication, type: 'token' };
    if (refresh.refreshed) {
      const at = refresh.refreshTime ?? 0;
      if (now > at + REFRESH_WINDOW_MS) {
        throw invalidGrant('token has already been refreshed more than 30 seconds in the past');
      }
      if (at > now + REFRESH_WINDOW_MS) {
        throw invalidGrant(
          'token has been refreshed more than 30 seconds in the future, clock skew too great',
        );
      }
      const opened = refresh.superseding === null ? undefined : openWith(refreshToken, refresh.superseding);
      if (opened === undefined) throw invalidGrant('could not refresh the requested token');
      const pair = JSON.parse(opened) as { access: string; refresh: string };
      return { accessToken: pair.access, refreshToken: pair.refresh, authentication };
    }
    const issued = await this.create(record.access.authentication, client, true, record.access.metadata);
    const sealed = sealWith(
      refreshToken,
      JSON.stringify({ access: issued.accessToken, refresh: issued.refreshToken }),
    );
    await this.tokens.update({
      ...record,
      refresh: { ...refresh, refreshed: true, refreshTime: now, superseding: sealed },
    });
    return { ...issued, authentication };
  }

  /**
   * The authentication and metadata an access token was made with, expired or invalidated as
   * it may be (TokenService.getAuthenticationAndMetadata); undefined for a token not of this service.
   */
  async describe(
    value: string,
  ): Promise<{ authentication: Authentication; metadata: Record<string, unknown> } | undefined> {
    const t = decodeToken(value);
    const record = t ? await this.tokens.get(t.id) : undefined;
    if (!t || !record || !secretMatches(t.secret, record.access.digest)) return undefined;
    return { authentication: record.access.authentication, metadata: record.access.metadata ?? {} };
  }

  async invalidateAccessToken(value: string): Promise<InvalidationResult> {
    const t = decodeToken(value);
    const record = t ? await this.tokens.get(t.id) : undefined;
    if (!t || !record || !secretMatches(t.secret, record.access.digest)) {
      return { invalidated: 0, previouslyInvalidated: 0, notFound: true };
    }
    this.cache.delete(record.id);
    if (record.access.invalidated) return { invalidated: 0, previouslyInvalidated: 1, notFound: false };
    await this.tokens.update({ ...record, access: { ...record.access, invalidated: true } });
    return { invalidated: 1, previouslyInvalidated: 0, notFound: false };
  }

  async invalidateRefreshToken(value: string): Promise<InvalidationResult> {
    const t = decodeToken(value);
    const record = t ? await this.tokens.get(t.id) : undefined;
    if (!t || !record?.refresh || !secretMatches(t.secret, record.refresh.digest)) {
      return { invalidated: 0, previouslyInvalidated: 0, notFound: true };
    }
    if (record.refresh.invalidated) return { invalidated: 0, previouslyInvalidated: 1, notFound: false };
    await this.tokens.update({ ...record, refresh: { ...record.refresh, invalidated: true } });
    return { invalidated: 1, previouslyInvalidated: 0, notFound: false };
  }

  /**
   * Every token of a user, of a realm, or of a user in a realm: refresh tokens first (so that
   * none can mint a new pair meanwhile), then access tokens; each counts once.
   */
  async invalidateAll(filter: { realm?: string; username?: string }): Promise<InvalidationResult> {
    const now = this.now();
    const matches = (await this.tokens.all()).filter((r) => {
      const a = r.access.authentication;
      if (filter.username !== undefined && a.user.username !== filter.username) return false;
      if (filter.realm !== undefined && a.realm.name !== filter.realm) return false;
      return true;
    });
    let invalidated = 0;
    let previouslyInvalidated = 0;
    const updated = new Map<string, TokenRecord>();
    for (const r of matches) {
      if (!r.refresh || now > r.creation + REFRESH_TOKEN_LIFETIME_MS) continue;
      if (r.refresh.invalidated) previouslyInvalidated++;
      else {
        invalidated++;
        updated.set(r.id, { ...r, refresh: { ...r.refresh, invalidated: true } });
      }
    }
    for (const r of matches) {
      if (r.access.expiration <= now) continue;
      const base = updated.get(r.id) ?? r;
      if (r.access.invalidated) previouslyInvalidated++;
      else {
        invalidated++;
        updated.set(r.id, { ...base, access: { ...base.access, invalidated: true } });
      }
    }
    for (const r of updated.values()) {
      this.cache.delete(r.id);
      await this.tokens.update(r);
    }
    return { invalidated, previouslyInvalidated, notFound: false };
  }

  /**
   * Invalidates both tokens of every live pair of `realm` whose metadata has each entry of
   * `metadata` (TokenService.findActiveTokensForRealm, as SAML's IdP-initiated logout uses it);
   * answers how many pairs that was.
   */
  async invalidatePairsWithMetadata(realm: string, metadata: Record<string, unknown>): Promise<number> {
    const now = this.now();
    const matches = (await this.tokens.all()).filter((r) => {
      if (r.access.authentication.realm.name !== realm || now > r.creation + REFRESH_TOKEN_LIFETIME_MS)
        return false;
      if (r.access.invalidated && (!r.refresh || r.refresh.invalidated)) return false;
      const mine = r.access.metadata ?? {};
      return Object.entries(metadata).every(([k, v]) => (mine[k] ?? null) === v);
    });
    for (const r of matches) {
      this.cache.delete(r.id);
      await this.tokens.update({
        ...r,
        access: { ...r.access, invalidated: true },
        refresh: r.refresh ? { ...r.refresh, invalidated: true } : null,
      });
    }
    return matches.length;
  }

  /** Removes the documents of pairs whose refresh tokens have expired (ExpiredTokenRemover). */
  private async sweep(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const r of await this.tokens.all()) {
      if (now > r.creation + REFRESH_TOKEN_LIFETIME_MS && r.access.expiration <= now) {
        this.cache.delete(r.id);
        await this.tokens.delete(r.id);
      }
    }
  }
}
