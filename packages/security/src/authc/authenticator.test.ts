import { describe, expect, it } from 'vitest';
import { NATIVE_REALM } from './authentication.ts';
import { Authenticator } from './authenticator.ts';
import type { Realm, RealmResult } from './realm.ts';

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

function countingRealm(password: string): Realm & { calls: number } {
  const user = { username: 'joe', roles: ['r'], fullName: null, email: null, metadata: {}, enabled: true };
  return {
    ref: NATIVE_REALM,
    calls: 0,
    async authenticate(username, given): Promise<RealmResult> {
      this.calls++;
      if (username !== 'joe') return { kind: 'not-handled' };
      return given === password ? { kind: 'success', user } : { kind: 'failed', reason: 'wrong password' };
    },
    async lookup() {
      return undefined;
    },
  };
}

describe('Authenticator', () => {
  it('asks the realm once and answers from its cache after that, without a promise', async () => {
    const realm = countingRealm('pw-joe');
    const a = new Authenticator([realm], 60_000, () => 0);
    expect(a.cached(basic('joe', 'pw-joe'))).toBeUndefined();
    const first = await a.authenticate(basic('joe', 'pw-joe'), '/');
    expect(first.authentication.user.username).toBe('joe');
    expect(a.cached(basic('joe', 'pw-joe'))).toBe(first);
    await a.authenticate(basic('joe', 'pw-joe'), '/');
    expect(realm.calls).toBe(1);
  });

  it('never answers a different password from the cache', async () => {
    const realm = countingRealm('pw-joe');
    const a = new Authenticator([realm], 60_000, () => 0);
    await a.authenticate(basic('joe', 'pw-joe'), '/');
    expect(a.cached(basic('joe', 'other'))).toBeUndefined();
    await expect(a.authenticate(basic('joe', 'other'), '/x?y=1')).rejects.toMatchObject({
      status: 401,
      reason: 'unable to authenticate user [joe] for REST request [/x?y=1]',
    });
  });

  it('forgets an entry after its ttl and when invalidated', async () => {
    let now = 0;
    const realm = countingRealm('pw-joe');
    const a = new Authenticator([realm], 1000, () => now);
    await a.authenticate(basic('joe', 'pw-joe'), '/');
    now = 1500;
    expect(a.cached(basic('joe', 'pw-joe'))).toBeUndefined();
    await a.authenticate(basic('joe', 'pw-joe'), '/');
    a.invalidate(['joe']);
    await a.authenticate(basic('joe', 'pw-joe'), '/');
    expect(realm.calls).toBe(3);
  });

  it('writes the missing-credentials reason with the challenges', async () => {
    const a = new Authenticator([], 1000, () => 0);
    await expect(a.authenticate(undefined, '/_search?q=a')).rejects.toMatchObject({
      status: 401,
      reason: 'missing authentication credentials for REST request [/_search?q=a]',
      extra: {
        bodyHeaders: {
          'WWW-Authenticate': [
            'Basic realm="security", charset="UTF-8"',
            'Bearer realm="security"',
            'ApiKey',
          ],
        },
      },
    });
  });
});
