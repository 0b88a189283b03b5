import { describe, expect, it } from 'vitest';
import type { SecurityDoc, SystemIndexStore } from '../host.ts';
import { ApiKeyStore } from '../store/api-key-store.ts';
import { ApiKeyService } from './api-keys.ts';
import { type Authentication, NATIVE_REALM } from './authentication.ts';

/** The system index as a map: enough for the key service, which only gets and puts by id. */
function memoryStore(): SystemIndexStore {
  const docs = new Map<string, SecurityDoc>();
  return {
    ensure: async () => {},
    get: async (id) => structuredClone(docs.get(id)),
    async put(id, doc, opts) {
      if (opts?.create && docs.has(id)) return 'exists';
      const existed = docs.has(id);
      docs.set(id, structuredClone(doc));
      return existed ? 'updated' : 'created';
    },
    delete: async (id) => docs.delete(id),
    listByType: async (type) =>
      [...docs].filter(([, d]) => d.type === type).map(([id, doc]) => ({ id, doc })),
    search: async () => ({ total: 0, hits: [] }),
    getSettings: async () => ({}),
    updateSettings: async () => {},
  };
}

const owner: Authentication = {
  user: { username: 'kim', roles: ['r'], fullName: null, email: null, metadata: {}, enabled: true },
  realm: NATIVE_REALM,
  lookupRealm: NATIVE_REALM,
  type: 'realm',
};
const reader = {
  name: 'r',
  descriptor: {
    cluster: [],
    indices: [{ names: ['a'], privileges: ['read'], allowRestrictedIndices: false }],
    applications: [],
    runAs: [],
    metadata: {},
  },
};

describe('ApiKeyService', () => {
  it('updates a key only when its stored form changes, and keeps its secret working', async () => {
    let now = 1000;
    const service = new ApiKeyService(new ApiKeyStore(memoryStore()), () => now);
    const created = await service.create(owner, [reader], {
      name: 'k',
      roleDescriptors: [],
      metadata: { a: 1 },
    });
    const key = (await service.store.get(created.id))!;
    expect(await service.update(key, owner, [reader], { metadata: { a: 1 } })).toBe(false);
    expect(await service.update(key, owner, [], {})).toBe(true);
    const updated = (await service.store.get(created.id))!;
    expect(updated.limitedBy).toEqual([]);
    now = 2000;
    expect(await service.update(updated, owner, [], { expirationMs: 500 })).toBe(true);
    expect((await service.store.get(created.id))!.expiration).toBe(2500);
    const auth = await service.authenticate(created.encoded);
    expect(auth.ok).toBe(true);
  });

  it('never authenticates a REST request with a cross-cluster key', async () => {
    const service = new ApiKeyService(new ApiKeyStore(memoryStore()), () => 0);
    const created = await service.create(owner, [], {
      name: 'cc',
      roleDescriptors: [],
      metadata: {},
      keyType: 'cross_cluster',
      access: { search: [{ names: ['x'], allow_restricted_indices: false }] },
    });
    expect(await service.authenticate(created.encoded)).toEqual({
      ok: false,
      reason: `authentication expected API key type of [rest], but API key [${created.id}] has type [cross_cluster]`,
    });
  });
});
