import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenHash,
  type IdTokenExpectations,
  OidcAuthenticationFailure,
  validateIdToken,
} from './id-token.ts';
import { type KeySource, secretKeySource } from './jwk-source.ts';

type Key = Awaited<ReturnType<typeof generateKeyPair>>;
const NOW = 1_800_000_000_000;
const S = NOW / 1000;
let k1: Key;
let k2: Key;
let jwks: KeySource;

async function jwkOf(k: Key, kid: string) {
  return { ...(await exportJWK(k.publicKey)), kid, alg: 'RS256', use: 'sig' };
}

beforeAll(async () => {
  k1 = await generateKeyPair('RS256', { extractable: true });
  k2 = await generateKeyPair('RS256', { extractable: true });
  const set = createLocalJWKSet({ keys: [await jwkOf(k1, 'k1')] });
  jwks = { key: async () => set, refresh: async () => false };
});

const expect0: IdTokenExpectations = {
  issuer: 'https://op',
  clientId: 'client',
  algorithm: 'RS256',
  nonce: 'n',
  clockSkewMs: 60_000,
  now: NOW,
};

function sign(claims: JWTPayload, key: Key = k1, kid = 'k1') {
  return new SignJWT({
    iss: 'https://op',
    aud: 'client',
    sub: 'u',
    nonce: 'n',
    iat: S,
    exp: S + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid })
    .sign(key.privateKey);
}

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(OidcAuthenticationFailure);
    return (e as Error).message;
  }
  throw new Error('the token was accepted');
}

describe('validateIdToken', () => {
  it('accepts a token signed by a key of the set, with the expected claims', async () => {
    const claims = await validateIdToken(await sign({ email: 'a@b' }), jwks, expect0);
    expect(claims).toMatchObject({ sub: 'u', email: 'a@b' });
  });

  it('refuses a signature by another key, an unknown kid and a tampered payload', async () => {
    expect(await reason(validateIdToken(await sign({}, k2), jwks, expect0))).toContain(
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
    expect(await reason(validateIdToken(await sign({}, k1, 'k9'), jwks, expect0))).toContain(
      'ERR_JWKS_NO_MATCHING_KEY',
    );
    const [h, , sig] = (await sign({})).split('.');
    const forged = Buffer.from(JSON.stringify({ iss: 'https://op', aud: 'client', sub: 'root' })).toString(
      'base64url',
    );
    expect(await reason(validateIdToken(`${h}.${forged}.${sig}`, jwks, expect0))).toContain(
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it('refuses another algorithm than the configured one', async () => {
    const hs = await new SignJWT({
      iss: 'https://op',
      aud: 'client',
      sub: 'u',
      nonce: 'n',
      iat: S,
      exp: S + 60,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a secret of thirty-two bytes at least!'));
    expect(await reason(validateIdToken(hs, jwks, expect0))).toBe(
      'Signed JWT rejected: Another algorithm expected',
    );
    const secret = secretKeySource('a secret of thirty-two bytes at least!');
    expect(await validateIdToken(hs, secret, { ...expect0, algorithm: 'HS256' })).toMatchObject({ sub: 'u' });
  });

  it('checks issuer, audience, authorized party and nonce', async () => {
    const v = async (c: JWTPayload) => reason(validateIdToken(await sign(c), jwks, expect0));
    expect(await v({ iss: 'https://other' })).toBe('Unexpected JWT issuer: https://other');
    expect(await v({ aud: 'x' })).toBe('Unexpected JWT audience: [x]');
    expect(await v({ aud: ['client', 'x'] })).toBe(
      'JWT authorized party (azp) claim required when multiple (aud) audiences present',
    );
    expect(await v({ aud: ['client', 'x'], azp: 'x' })).toBe(
      'Unexpected JWT authorized party (azp) claim: x',
    );
    expect(await v({ nonce: 'm' })).toBe('Unexpected JWT nonce (nonce) claim: m');
    expect(await v({ nonce: undefined })).toBe('Missing JWT nonce (nonce) claim');
    const ok = await validateIdToken(await sign({ aud: ['client', 'x'], azp: 'client' }), jwks, expect0);
    expect(ok.azp).toBe('client');
  });

  it('allows the clock skew on exp and iat, and no more', async () => {
    expect(await validateIdToken(await sign({ exp: S - 50 }), jwks, expect0)).toBeTruthy();
    expect(await reason(validateIdToken(await sign({ exp: S - 70 }), jwks, expect0))).toMatch(/^Expired JWT/);
    expect(await validateIdToken(await sign({ iat: S + 50 }), jwks, expect0)).toBeTruthy();
    expect(await reason(validateIdToken(await sign({ iat: S + 70 }), jwks, expect0))).toBe(
      'JWT issue time ahead of current time',
    );
    expect(await reason(validateIdToken(await sign({ iat: undefined }), jwks, expect0))).toBe(
      'Missing JWT issue time (iat) claim',
    );
  });

  it('checks at_hash when the flow requires it or the token has one', async () => {
    const at = 'op-access-token';
    const hash = accessTokenHash(at, 'RS256');
    expect(hash).toHaveLength(22);
    const required = { ...expect0, accessToken: { value: at, required: true } };
    expect(await validateIdToken(await sign({ at_hash: hash }), jwks, required)).toBeTruthy();
    expect(await reason(validateIdToken(await sign({}), jwks, required))).toContain(
      "doesn't contain at_hash",
    );
    const optional = { ...expect0, accessToken: { value: at, required: false } };
    expect(await validateIdToken(await sign({}), jwks, optional)).toBeTruthy();
    expect(await reason(validateIdToken(await sign({ at_hash: 'AAAA' }), jwks, optional))).toContain(
      'mismatch',
    );
  });

  it('reads the keys again once when a signature does not verify (a rotated key)', async () => {
    let keys = { keys: [await jwkOf(k1, 'k1')] };
    let refreshes = 0;
    const rotating: KeySource = {
      key: async () => createLocalJWKSet(keys),
      refresh: async () => {
        refreshes++;
        keys = { keys: [await jwkOf(k2, 'k2')] };
        return true;
      },
    };
    expect(await validateIdToken(await sign({}, k2, 'k2'), rotating, expect0)).toBeTruthy();
    expect(refreshes).toBe(1);
    expect(await reason(validateIdToken(await sign({}, k1, 'k3'), rotating, expect0))).toContain('ERR_JWKS');
    expect(refreshes).toBe(2);
  });
});
