/**
 * Index-backed service-account tokens: created through the API, kept in the security index
 * as a salted SHA-256 of their secret (`<ns>/<service>/<name>` is the document's key), used as
 * `Authorization: Bearer <token>`. Successful authentications are cached like API keys.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Permission } from '../authz/role.ts';
import { Role } from '../authz/role.ts';
import type { SystemIndexStore } from '../host.ts';
import { hashApiKeySecret, verifyApiKeySecret } from './api-keys.ts';
import type { Authentication, RealmRef } from './authentication.ts';
import { decodeServiceToken, encodeServiceToken, serviceAccountDescriptor } from './service-accounts.ts';

export const SERVICE_ACCOUNT_REALM: RealmRef = Object.freeze({
  name: '_service_account',
  type: '_service_account',
});
export const SERVICE_TOKEN_TYPE = 'service_account_token';
const docId = (qualified: string) => `${SERVICE_TOKEN_TYPE}-${qualified}`;

export type ServiceTokenAuthentication =
  | { ok: true; authentication: Authentication; permission: Permission }
  | { ok: false; reason: string };

export class ServiceTokenService {
  private readonly cache = new Map<
    string,
    { digest: Buffer; answer: ServiceTokenAuthentication & { ok: true } }
  >();
  private readonly salt = randomBytes(16);

  constructor(private readonly store: SystemIndexStore) {}

  private digest(secret: string): Buffer {
    return createHash('sha256').update(this.salt).update(secret).digest();
  }

  cached(value: string): (ServiceTokenAuthentication & { ok: true }) | undefined {
    const t = decodeServiceToken(value);
    if (!t) return undefined;
    const hit = this.cache.get(`${t.namespace}/${t.service}/${t.name}`);
    return hit && timingSafeEqual(hit.digest, this.digest(t.secret)) ? hit.answer : undefined;
  }

  async authenticate(value: string): Promise<ServiceTokenAuthentication> {
    const t = decodeServiceToken(value);
    if (!t) return { ok: false, reason: 'unable to authenticate with the provided bearer token' };
    const cached = this.cached(value);
    if (cached) return cached;
    const principal = `${t.namespace}/${t.service}`;
    const descriptor = serviceAccountDescriptor(principal);
    if (!descriptor) return { ok: false, reason: `service account [${principal}] does not exist` };
    const qualified = `${principal}/${t.name}`;
    const doc = await this.store.get(docId(qualified));
    if (!doc || !verifyApiKeySecret(t.secret, String(doc.password ?? ''))) {
      return {
        ok: false,
        reason: `failed to authenticate service account [${principal}] with token name [${t.name}]`,
      };
    }
    const authentication: Authentication = {
      user: {
        username: principal,
        roles: [],
        fullName: `Service account - ${principal}`,
        email: null,
        metadata: { _elastic_service_account: true },
        enabled: true,
      },
      realm: SERVICE_ACCOUNT_REALM,
      lookupRealm: SERVICE_ACCOUNT_REALM,
      type: 'token',
      token: { name: t.name, type: '_service_account_index' },
    };
    const permission = new Role([{ name: principal, descriptor }], []);
    const answer = { ok: true as const, authentication, permission };
    this.cache.set(qualified, { digest: this.digest(t.secret), answer });
    return answer;
  }

  /** A new token; `exists` when the name is taken. */
  async create(principal: string, name: string): Promise<{ name: string; value: string } | 'exists'> {
    const [namespace, service] = principal.split('/') as [string, string];
    const secret = randomBytes(16).toString('base64url');
    const r = await this.store.put(
      docId(`${principal}/${name}`),
      {
        type: SERVICE_TOKEN_TYPE,
        username: principal,
        name,
        password: hashApiKeySecret(secret),
        creation_time: Date.now(),
      },
      { create: true },
    );
    if (r === 'exists') return 'exists';
    return { name, value: encodeServiceToken({ namespace, service, name, secret }) };
  }

  async delete(principal: string, name: string): Promise<boolean> {
    const qualified = `${principal}/${name}`;
    this.cache.delete(qualified);
    return this.store.delete(docId(qualified));
  }

  async names(principal: string): Promise<string[]> {
    const docs = await this.store.listByType(SERVICE_TOKEN_TYPE);
    return docs
      .filter((d) => d.doc.username === principal)
      .map((d) => String(d.doc.name))
      .sort();
  }

  clearCache(principal: string, names: readonly string[]): void {
    for (const key of [...this.cache.keys()]) {
      const name = key.slice(principal.length + 1);
      if (key.startsWith(`${principal}/`) && (names.includes('*') || names.includes(name)))
        this.cache.delete(key);
    }
  }
}
