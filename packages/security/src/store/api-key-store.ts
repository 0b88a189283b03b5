/**
 * API keys in the security index, one document per key (its id is the key's id), as
 * Elasticsearch's ApiKeyService stores them: the secret's salted hash, the key's own role
 * descriptors, its owner's descriptors as they were when it was made (`limited_by`), and its
 * creator.
 */
import { descriptorDoc, descriptorFromDoc, type RoleDescriptor } from '../authz/role-descriptor.ts';
import type { SecurityDoc, SystemIndexStore } from '../host.ts';
import { metadataSearchFields } from './documents.ts';

export const API_KEY_TYPE = 'api_key';

export interface ApiKeyCreator {
  principal: string;
  fullName: string | null;
  email: string | null;
  metadata: Record<string, unknown>;
  realm: string;
  realmType: string;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** `rest` keys authenticate REST requests; `cross_cluster` keys only a remote cluster's. */
  keyType: 'rest' | 'cross_cluster';
  /** A cross-cluster key's `access`, as it was given (with its defaults filled in). */
  access?: Record<string, unknown>;
  creation: number;
  expiration: number | null;
  invalidated: boolean;
  invalidation: number | null;
  hash: string;
  roleDescriptors: { name: string; descriptor: RoleDescriptor }[];
  limitedBy: { name: string; descriptor: RoleDescriptor }[];
  metadata: Record<string, unknown>;
  creator: ApiKeyCreator;
}

function descriptorsDoc(list: { name: string; descriptor: RoleDescriptor }[]): Record<string, unknown> {
  return Object.fromEntries(list.map((d) => [d.name, descriptorDoc(d.descriptor)]));
}

function descriptorsFromDoc(v: unknown): { name: string; descriptor: RoleDescriptor }[] {
  if (typeof v !== 'object' || v === null) return [];
  return Object.entries(v as Record<string, Record<string, unknown>>).map(([name, d]) => ({
    name,
    descriptor: descriptorFromDoc({ ...d, name }),
  }));
}

function toDoc(k: ApiKeyRecord): SecurityDoc {
  return {
    type: API_KEY_TYPE,
    api_key_type: k.keyType,
    name: k.name,
    creation_time: k.creation,
    expiration_time: k.expiration,
    api_key_invalidated: k.invalidated,
    invalidation_time: k.invalidation,
    api_key_hash: k.hash,
    role_descriptors: descriptorsDoc(k.roleDescriptors),
    limited_by_role_descriptors: descriptorsDoc(k.limitedBy),
    metadata_flattened: k.metadata,
    ...metadataSearchFields(k.metadata),
    ...(k.access ? { access: k.access } : {}),
    creator: {
      principal: k.creator.principal,
      full_name: k.creator.fullName,
      email: k.creator.email,
      metadata: k.creator.metadata,
      realm: k.creator.realm,
      realm_type: k.creator.realmType,
    },
  };
}

export function apiKeyFromDoc(id: string, d: SecurityDoc): ApiKeyRecord {
  const c = (d.creator ?? {}) as Record<string, unknown>;
  const record: ApiKeyRecord = {
    id,
    name: String(d.name ?? ''),
    keyType: d.api_key_type === 'cross_cluster' ? 'cross_cluster' : 'rest',
    creation: Number(d.creation_time),
    expiration: typeof d.expiration_time === 'number' ? d.expiration_time : null,
    invalidated: d.api_key_invalidated === true,
    invalidation: typeof d.invalidation_time === 'number' ? d.invalidation_time : null,
    hash: String(d.api_key_hash ?? ''),
    roleDescriptors: descriptorsFromDoc(d.role_descriptors),
    limitedBy: descriptorsFromDoc(d.limited_by_role_descriptors),
    metadata: (d.metadata_flattened as Record<string, unknown>) ?? {},
    creator: {
      principal: String(c.principal ?? ''),
      fullName: typeof c.full_name === 'string' ? c.full_name : null,
      email: typeof c.email === 'string' ? c.email : null,
      metadata: (c.metadata as Record<string, unknown>) ?? {},
      realm: String(c.realm ?? ''),
      realmType: String(c.realm_type ?? ''),
    },
  };
  if (typeof d.access === 'object' && d.access !== null) record.access = d.access as Record<string, unknown>;
  return record;
}

export class ApiKeyStore {
  constructor(private readonly store: SystemIndexStore) {}

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    const doc = await this.store.get(id);
    return doc && doc.type === API_KEY_TYPE ? apiKeyFromDoc(id, doc) : undefined;
  }

  async create(k: ApiKeyRecord): Promise<void> {
    const r = await this.store.put(k.id, toDoc(k), { create: true });
    if (r === 'exists') throw new Error(`api key id [${k.id}] is taken`);
  }

  async update(k: ApiKeyRecord): Promise<void> {
    await this.store.put(k.id, toDoc(k));
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.store.listByType(API_KEY_TYPE)).map((d) => apiKeyFromDoc(d.id, d.doc));
  }
}
