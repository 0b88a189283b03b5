/**
 * API keys (Elasticsearch's ApiKeyService): made by a user for itself, used as
 * `Authorization: ApiKey base64(id:secret)`. The secret is kept only as a salted SHA-256
 * (`xpack.security.authc.api_key.hashing.algorithm`'s `ssha256`), compared in constant time;
 * a key's permission is its own role descriptors (if it has any) limited by its owner's
 * descriptors as they were when it was made.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LimitedPermission, type Permission, Role } from '../authz/role.ts';
import { descriptorDoc, type RoleDescriptor } from '../authz/role-descriptor.ts';
import type { ApiKeyRecord, ApiKeyStore } from '../store/api-key-store.ts';
import type { Authentication, RealmRef } from './authentication.ts';

export const API_KEY_REALM: RealmRef = Object.freeze({ name: '_es_api_key', type: '_es_api_key' });

const SSHA256 = '{SSHA256}';
const SALT_BYTES = 16;

export function hashApiKeySecret(secret: string): string {
  const salt = randomBytes(SALT_BYTES);
  const digest = createHash('sha256').update(salt).update(secret).digest();
  return `${SSHA256}${Buffer.concat([salt, digest]).toString('base64')}`;
}

export function verifyApiKeySecret(secret: string, hash: string): boolean {
  if (!hash.startsWith(SSHA256)) return false;
  const raw = Buffer.from(hash.slice(SSHA256.length), 'base64');
  if (raw.length !== SALT_BYTES + 32) return false;
  const digest = createHash('sha256').update(raw.subarray(0, SALT_BYTES)).update(secret).digest();
  return timingSafeEqual(digest, raw.subarray(SALT_BYTES));
}

/** The outcome of an `ApiKey` credential. */
export type ApiKeyAuthentication =
  | { ok: true; authentication: Authentication; permission: Permission }
  | { ok: false; reason: string };

interface Cached {
  digest: Buffer;
  answer: ApiKeyAuthentication & { ok: true };
  expires: number | null;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  expiration?: number;
  api_key: string;
  encoded: string;
}

function roleOf(list: { name: string; descriptor: RoleDescriptor }[]): Role {
  return new Role(
    list.map((d) => ({ name: d.name, descriptor: d.descriptor })),
    [],
  );
}

/** What an update asks to change (undefined: leave as it is). */
export interface ApiKeyChange {
  roleDescriptors?: { name: string; descriptor: RoleDescriptor }[];
  metadata?: Record<string, unknown>;
  expirationMs?: number;
  access?: Record<string, unknown>;
}

function creatorOf(owner: Authentication): ApiKeyRecord['creator'] {
  return {
    principal: owner.user.username,
    fullName: owner.user.fullName,
    email: owner.user.email,
    metadata: owner.user.metadata,
    realm: owner.realm.name,
    realmType: owner.realm.type,
  };
}

/** Whether two versions of a key are the same as stored (all but the secret, which never changes). */
function sameKey(a: ApiKeyRecord, b: ApiKeyRecord): boolean {
  const view = (k: ApiKeyRecord) =>
    JSON.stringify([
      k.roleDescriptors.map((d) => [d.name, descriptorDoc(d.descriptor)]),
      k.limitedBy.map((d) => [d.name, descriptorDoc(d.descriptor)]),
      k.metadata,
      k.expiration,
      k.creator,
      k.access ?? null,
    ]);
  return view(a) === view(b);
}

export class ApiKeyService {
  private readonly cache = new Map<string, Cached>();
  private readonly salt = randomBytes(16);

  constructor(
    readonly store: ApiKeyStore,
    private readonly now: () => number,
  ) {}

  private digest(secret: string): Buffer {
    return createHash('sha256').update(this.salt).update(secret).digest();
  }

  private static decode(value: string): { id: string; secret: string } | undefined {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (value === '' || colon <= 0 || colon === decoded.length - 1) return undefined;
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }

  /** The cached answer for this credential, without waiting (undefined: ask `authenticate`). */
  cached(value: string): (ApiKeyAuthentication & { ok: true }) | undefined {
    const creds = ApiKeyService.decode(value);
    if (!creds) return undefined;
    const hit = this.cache.get(creds.id);
    if (!hit || (hit.expires !== null && hit.expires <= this.now())) return undefined;
    return timingSafeEqual(hit.digest, this.digest(creds.secret)) ? hit.answer : undefined;
  }

  async authenticate(value: string): Promise<ApiKeyAuthentication> {
    const creds = ApiKeyService.decode(value);
    if (!creds) return { ok: false, reason: 'invalid ApiKey value' };
    const cached = this.cached(value);
    if (cached) return cached;
    const key = await this.store.get(creds.id);
    if (!key) return { ok: false, reason: `unable to find apikey with id ${creds.id}` };
    if (key.keyType !== 'rest') {
      return {
        ok: false,
        reason: `authentication expected API key type of [rest], but API key [${key.id}] has type [${key.keyType}]`,
      };
    }
    if (key.invalidated) return { ok: false, reason: 'api key has been invalidated' };
    if (key.expiration !== null && key.expiration <= this.now())
      return { ok: false, reason: 'api key is expired' };
    if (!verifyApiKeySecret(creds.secret, key.hash)) {
      return { ok: false, reason: `invalid credentials for API key [${creds.id}]` };
    }
    const authentication: Authentication = {
      user: {
        username: key.creator.principal,
        roles: [],
        fullName: key.creator.fullName,
        email: key.creator.email,
        metadata: key.creator.metadata,
        enabled: true,
      },
      realm: API_KEY_REALM,
      lookupRealm: API_KEY_REALM,
      type: 'api_key',
      apiKey: { id: key.id, name: key.name },
    };
    const permission = ApiKeyService.permissionOf(key);
    const answer = { ok: true as const, authentication, permission };
    this.cache.set(key.id, { digest: this.digest(creds.secret), answer, expires: key.expiration });
    return answer;
  }

  /** What a key may do: its own descriptors (if any) limited by its owner's. */
  static permissionOf(key: ApiKeyRecord): Permission {
    const own = key.roleDescriptors.length > 0 ? roleOf(key.roleDescriptors) : undefined;
    return new LimitedPermission(own, roleOf(key.limitedBy));
  }

  async create(
    owner: Authentication,
    ownerDescriptors: { name: string; descriptor: RoleDescriptor }[],
    req: {
      name: string;
      expirationMs?: number;
      roleDescriptors: { name: string; descriptor: RoleDescriptor }[];
      metadata: Record<string, unknown>;
      keyType?: 'rest' | 'cross_cluster';
      access?: Record<string, unknown>;
    },
  ): Promise<CreatedApiKey> {
    const id = randomBytes(15).toString('base64url');
    const secret = randomBytes(16).toString('base64url');
    const creation = this.now();
    const expiration = req.expirationMs === undefined ? null : creation + req.expirationMs;
    const record: ApiKeyRecord = {
      id,
      name: req.name,
      keyType: req.keyType ?? 'rest',
      creation,
      expiration,
      invalidated: false,
      invalidation: null,
      hash: hashApiKeySecret(secret),
      roleDescriptors: req.roleDescriptors,
      limitedBy: ownerDescriptors,
      metadata: req.metadata,
      creator: creatorOf(owner),
    };
    if (req.access) record.access = req.access;
    await this.store.create(record);
    const encoded = Buffer.from(`${id}:${secret}`).toString('base64');
    // Field order as Elasticsearch writes it: id, name, expiration, api_key, encoded.
    return expiration === null
      ? { id, name: req.name, api_key: secret, encoded }
      : { id, name: req.name, expiration, api_key: secret, encoded };
  }

  /**
   * ApiKeyService.maybeBuildUpdatedDocument: a key made again from its owner's request — new
   * descriptors, metadata or expiration where given, the owner's present descriptors as its
   * `limited_by`. Whether anything changed (false: a noop, nothing written).
   */
  async update(
    key: ApiKeyRecord,
    owner: Authentication,
    ownerDescriptors: { name: string; descriptor: RoleDescriptor }[],
    change: ApiKeyChange,
  ): Promise<boolean> {
    const next: ApiKeyRecord = {
      ...key,
      roleDescriptors: change.roleDescriptors ?? key.roleDescriptors,
      limitedBy: ownerDescriptors,
      metadata: change.metadata ?? key.metadata,
      expiration: change.expirationMs === undefined ? key.expiration : this.now() + change.expirationMs,
      creator: creatorOf(owner),
    };
    if (change.access) next.access = change.access;
    if (change.expirationMs === undefined && sameKey(key, next)) return false;
    await this.store.update(next);
    this.cache.delete(key.id);
    return true;
  }

  /** Marks keys invalidated (they stop authenticating at once). */
  async invalidate(keys: ApiKeyRecord[]): Promise<void> {
    const at = this.now();
    for (const k of keys) {
      await this.store.update({ ...k, invalidated: true, invalidation: at });
      this.cache.delete(k.id);
    }
  }

  clearCache(ids?: readonly string[]): void {
    if (!ids) this.cache.clear();
    else for (const id of ids) this.cache.delete(id);
  }
}
