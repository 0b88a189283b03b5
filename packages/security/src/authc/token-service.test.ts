import { describe, expect, it } from 'vitest';
import type { SecurityDoc, SystemIndexStore } from '../host.ts';
import { type Authentication, RESERVED_REALM } from './authentication.ts';
import { REFRESH_TOKEN_LIFETIME_MS, TokenService } from './token-service.ts';

function memoryStore(): SystemIndexStore {
  const docs = new Map<string, SecurityDoc>();
  return {
    async ensure() {},
    async get(id) {
      const d = docs.get(id);
      return d && structuredClone(d);
    },
    async put(id, doc, opts) {
      if (opts?.create && docs.has(id)) return 'exists';
      const existed = docs.has(id);
      docs.set(id, structuredClone(doc));
      return existed ? 'updated' : 'created';
    },
    async delete(id) {
      return docs.delete(id);
    },
    async listByType(type) {
      return [...docs]
        .filter(([, d]) => d.type === type)
        .map(([id, doc]) => ({ id, doc: structuredClone(doc) }));
    },
    async getSettings() {
      return {};
    },
    async updateSettings() {},
    async search() {
      throw new Error('the token service never searches the security index');
    },
  };
}

function auth(username: string): Authentication {
  return {
    user: { username, roles: ['superuser'], fullName: null, email: null, metadata: {}, enabled: true },
    realm: RESERVED_REALM,
    lookupRealm: RESERVED_REALM,
    type: 'realm',
  };
}

const MINUTE = 60_000;

function service() {
  const clock = { now: 1_000_000 };
  const tokens = new TokenService(memoryStore(), () => clock.now, 20 * MINUTE);
  return { clock, tokens };
}

describe('TokenService', () => {
  it('authenticates an access token as a token authentication until it expires', async () => {
    const { clock, tokens } = service();
    const issued = await tokens.create(auth('elastic'), auth('elastic'), true);
    const r = await tokens.authenticate(issued.accessToken);
    expect(r).toMatchObject({ ok: true, authentication: { type: 'token', user: { username: 'elastic' } } });
    expect(tokens.cached(issued.accessToken)?.type).toBe('token');
    expect(await tokens.authenticate(issued.refreshToken!)).toEqual({ ok: false, reason: 'unknown' });
    clock.now += 20 * MINUTE;
    expect(tokens.cached(issued.accessToken)).toBeUndefined();
    expect(await tokens.authenticate(issued.accessToken)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refreshes once, answers a repeated refresh within 30 seconds with the same pair, and not after', async () => {
    const { clock, tokens } = service();
    const first = await tokens.create(auth('joe'), auth('joe'), true);
    const second = await tokens.refresh(first.refreshToken!, auth('joe'));
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.authentication.type).toBe('token');
    clock.now += 29_000;
    const again = await tokens.refresh(first.refreshToken!, auth('joe'));
    expect(again.accessToken).toBe(second.accessToken);
    expect(again.refreshToken).toBe(second.refreshToken);
    clock.now += 2_000;
    await expect(tokens.refresh(first.refreshToken!, auth('joe'))).rejects.toMatchObject({
      type: 'invalid_grant',
      reason: 'token has already been refreshed more than 30 seconds in the past',
    });
    expect((await tokens.authenticate(second.accessToken)).ok).toBe(true);
  });

  it("keeps a realm's metadata with the pair and the pairs its refresh leads to, expired or not", async () => {
    const { clock, tokens } = service();
    const first = await tokens.create(auth('joe'), auth('joe'), true, { id_token_hint: 'jwt' });
    const second = await tokens.refresh(first.refreshToken!, auth('joe'));
    clock.now += 21 * MINUTE;
    expect(await tokens.describe(second.accessToken)).toMatchObject({
      authentication: { user: { username: 'joe' } },
      metadata: { id_token_hint: 'jwt' },
    });
    const plain = await tokens.create(auth('ann'), auth('ann'), false);
    expect((await tokens.describe(plain.accessToken))?.metadata).toEqual({});
    expect(await tokens.describe(first.refreshToken!)).toBeUndefined();
    expect(await tokens.describe('not a token')).toBeUndefined();
  });

  it('gives the same pair to concurrent refreshes of one token', async () => {
    const { tokens } = service();
    const first = await tokens.create(auth('joe'), auth('joe'), true);
    const [a, b] = await Promise.all([
      tokens.refresh(first.refreshToken!, auth('joe')),
      tokens.refresh(first.refreshToken!, auth('joe')),
    ]);
    expect(a.accessToken).toBe(b.accessToken);
  });

  it('refuses refreshes by another client, of invalidated tokens and after 24 hours', async () => {
    const { clock, tokens } = service();
    const first = await tokens.create(auth('joe'), auth('joe'), true);
    await expect(tokens.refresh(first.refreshToken!, auth('ann'))).rejects.toMatchObject({
      reason: 'tokens must be refreshed by the creating client',
    });
    await expect(tokens.refresh(first.accessToken, auth('joe'))).rejects.toMatchObject({
      reason: 'could not refresh the requested token',
    });
    const other = await tokens.create(auth('joe'), auth('joe'), true);
    expect(await tokens.invalidateRefreshToken(other.refreshToken!)).toEqual({
      invalidated: 1,
      previouslyInvalidated: 0,
      notFound: false,
    });
    await expect(tokens.refresh(other.refreshToken!, auth('joe'))).rejects.toMatchObject({
      reason: 'token has been invalidated',
    });
    clock.now += REFRESH_TOKEN_LIFETIME_MS + 1;
    await expect(tokens.refresh(first.refreshToken!, auth('joe'))).rejects.toMatchObject({
      reason: 'token document has expired',
    });
  });

  it('invalidates one access token, then counts it as previously invalidated; unknown ones are not found', async () => {
    const { tokens } = service();
    const t = await tokens.create(auth('joe'), auth('joe'), false);
    await tokens.authenticate(t.accessToken);
    expect(await tokens.invalidateAccessToken(t.accessToken)).toMatchObject({ invalidated: 1 });
    expect(tokens.cached(t.accessToken)).toBeUndefined();
    expect(await tokens.authenticate(t.accessToken)).toEqual({ ok: false, reason: 'expired' });
    expect(await tokens.invalidateAccessToken(t.accessToken)).toMatchObject({ previouslyInvalidated: 1 });
    expect(await tokens.invalidateAccessToken('bm9wZQ==')).toMatchObject({ notFound: true });
  });

  it("invalidates all of a user's tokens, refresh and access tokens each counted", async () => {
    const { tokens } = service();
    await tokens.create(auth('joe'), auth('joe'), true);
    await tokens.create(auth('joe'), auth('joe'), false);
    const ann = await tokens.create(auth('ann'), auth('ann'), true);
    expect(await tokens.invalidateAll({ username: 'joe' })).toEqual({
      invalidated: 3,
      previouslyInvalidated: 0,
      notFound: false,
    });
    expect(await tokens.invalidateAll({ username: 'joe', realm: 'reserved' })).toMatchObject({
      invalidated: 0,
      previouslyInvalidated: 3,
    });
    expect((await tokens.authenticate(ann.accessToken)).ok).toBe(true);
    expect(await tokens.invalidateAll({ realm: 'reserved' })).toMatchObject({ invalidated: 2 });
  });
});
