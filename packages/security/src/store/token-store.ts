/**
 * Token pairs in the security index, one document per pair (`token_<id>`), laid out as
 * Elasticsearch's TokenService lays out its token documents: the access token with the
 * authentication it stands for, and the refresh token with the client that may use it. Only
 * digests of the token secrets are stored (token-codec.ts).
 */
import type { Authentication, AuthenticationType, RealmRef } from '../authc/authentication.ts';
import type { SecurityDoc, SystemIndexStore } from '../host.ts';

export const TOKEN_TYPE = 'token';
const docId = (id: string) => `${TOKEN_TYPE}_${id}`;

export interface RefreshPart {
  digest: string;
  invalidated: boolean;
  refreshed: boolean;
  refreshTime: number | null;
  /** The pair that replaced this one, sealed with this refresh token (token-codec.ts). */
  superseding: string | null;
  /** Who may refresh: the user and realm that asked for the pair. */
  client: { user: string; realm: string };
}

export interface TokenRecord {
  id: string;
  creation: number;
  access: {
    digest: string;
    invalidated: boolean;
    expiration: number;
    authentication: Authentication;
    /** What the realm that made the pair keeps with it (an OIDC realm's `id_token_hint`). */
    metadata?: Record<string, unknown>;
  };
  refresh: RefreshPart | null;
}

function realmDoc(r: RealmRef): Record<string, unknown> {
  return { name: r.name, type: r.type };
}

function authDoc(a: Authentication): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user: {
      username: a.user.username,
      roles: a.user.roles,
      full_name: a.user.fullName,
      email: a.user.email,
      metadata: a.user.metadata,
      enabled: a.user.enabled,
    },
    authentication_realm: realmDoc(a.realm),
    lookup_realm: realmDoc(a.lookupRealm),
    authentication_type: a.type,
  };
  if (a.apiKey) out.api_key = a.apiKey;
  return out;
}

function authFromDoc(d: Record<string, unknown>): Authentication {
  const u = d.user as Record<string, unknown>;
  const out: Authentication = {
    user: {
      username: String(u.username),
      roles: (u.roles as string[]) ?? [],
      fullName: (u.full_name as string | null) ?? null,
      email: (u.email as string | null) ?? null,
      metadata: (u.metadata as Record<string, unknown>) ?? {},
      enabled: u.enabled !== false,
    },
    realm: d.authentication_realm as RealmRef,
    lookupRealm: d.lookup_realm as RealmRef,
    type: d.authentication_type as AuthenticationType,
  };
  if (d.api_key) out.apiKey = d.api_key as { id: string; name: string | null };
  return out;
}

function toDoc(t: TokenRecord): SecurityDoc {
  const doc: SecurityDoc = {
    type: TOKEN_TYPE,
    creation_time: t.creation,
    // For the bulk invalidations by user and realm.
    username: t.access.authentication.user.username,
    access_token: {
      token_digest: t.access.digest,
      invalidated: t.access.invalidated,
      expiration_time: t.access.expiration,
      realm: t.access.authentication.realm.name,
      user_token: t.access.metadata
        ? { authentication: authDoc(t.access.authentication), metadata: t.access.metadata }
        : { authentication: authDoc(t.access.authentication) },
    },
  };
  if (t.refresh) {
    doc.refresh_token = {
      token_digest: t.refresh.digest,
      invalidated: t.refresh.invalidated,
      refreshed: t.refresh.refreshed,
      refresh_time: t.refresh.refreshTime,
      superseding: t.refresh.superseding,
      client: { type: 'unassociated_client', user: t.refresh.client.user, realm: t.refresh.client.realm },
    };
  }
  return doc;
}

function fromDoc(id: string, d: SecurityDoc): TokenRecord {
  const a = d.access_token as Record<string, unknown>;
  const r = d.refresh_token as Record<string, unknown> | undefined;
  const client = r?.client as Record<string, unknown> | undefined;
  const userToken = a.user_token as Record<string, unknown>;
  const metadata = userToken.metadata as Record<string, unknown> | undefined;
  return {
    id,
    creation: Number(d.creation_time),
    access: {
      digest: String(a.token_digest),
      invalidated: a.invalidated === true,
      expiration: Number(a.expiration_time),
      authentication: authFromDoc(userToken.authentication as Record<string, unknown>),
      ...(metadata ? { metadata } : {}),
    },
    refresh: r
      ? {
          digest: String(r.token_digest),
          invalidated: r.invalidated === true,
          refreshed: r.refreshed === true,
          refreshTime: typeof r.refresh_time === 'number' ? r.refresh_time : null,
          superseding: typeof r.superseding === 'string' ? r.superseding : null,
          client: { user: String(client?.user), realm: String(client?.realm) },
        }
      : null,
  };
}

export class TokenStore {
  constructor(private readonly store: SystemIndexStore) {}

  async get(id: string): Promise<TokenRecord | undefined> {
    const doc = await this.store.get(docId(id));
    return doc?.type === TOKEN_TYPE ? fromDoc(id, doc) : undefined;
  }

  async create(t: TokenRecord): Promise<void> {
    const r = await this.store.put(docId(t.id), toDoc(t), { create: true });
    if (r === 'exists') throw new Error(`token document [${docId(t.id)}] already exists`);
  }

  async update(t: TokenRecord): Promise<void> {
    await this.store.put(docId(t.id), toDoc(t));
  }

  async delete(id: string): Promise<void> {
    await this.store.delete(docId(id));
  }

  async all(): Promise<TokenRecord[]> {
    const docs = await this.store.listByType(TOKEN_TYPE);
    return docs.map((d) => fromDoc(d.id.slice(TOKEN_TYPE.length + 1), d.doc));
  }
}
