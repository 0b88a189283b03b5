import { describe, expect, it } from 'vitest';
import { decodeServiceToken } from './service-accounts.ts';
import { decodeToken, newTokenId, newTokenString, openWith, sealWith, secretMatches } from './token-codec.ts';

describe('token strings', () => {
  it('carry the pair id and a secret that only its digest matches', () => {
    const id = newTokenId();
    const access = newTokenString(id);
    const refresh = newTokenString(id);
    expect(access.token).not.toBe(refresh.token);
    const a = decodeToken(access.token)!;
    const r = decodeToken(refresh.token)!;
    expect(a.id).toBe(id);
    expect(r.id).toBe(id);
    expect(secretMatches(a.secret, access.digest)).toBe(true);
    expect(secretMatches(r.secret, access.digest)).toBe(false);
    expect(secretMatches(a.secret, undefined)).toBe(false);
  });

  it('are told apart from service-account tokens and from garbage', () => {
    const { token } = newTokenString(newTokenId());
    expect(decodeServiceToken(token)).toBeUndefined();
    const service = Buffer.concat([Buffer.from([0, 1, 0, 1]), Buffer.from('elastic/dashboard/t1:secret')]);
    expect(decodeToken(service.toString('base64'))).toBeUndefined();
    expect(decodeToken('not a token')).toBeUndefined();
    expect(decodeToken(token.slice(0, -4))).toBeUndefined();
  });
});

describe('sealed superseding pairs', () => {
  it('open only with the refresh token they were sealed with', () => {
    const sealed = sealWith('refresh-1', '{"a":1}');
    expect(openWith('refresh-1', sealed)).toBe('{"a":1}');
    expect(openWith('refresh-2', sealed)).toBeUndefined();
    const tampered = Buffer.from(sealed, 'base64');
    tampered[tampered.length - 1]! ^= 1;
    expect(openWith('refresh-1', tampered.toString('base64'))).toBeUndefined();
  });
});
