import { describe, expect, it } from 'vitest';
import { impliedResponseType, parseAuthenticationResponse } from './callback.ts';

describe('parseAuthenticationResponse', () => {
  it('reads a code from the query and ID and access tokens from the fragment', () => {
    const code = parseAuthenticationResponse('https://rp/cb?code=c1&state=s1');
    expect(code).toMatchObject({ flow: 'code', code: 'c1', state: 's1' });
    expect(impliedResponseType(code)).toBe('code');
    const idOnly = parseAuthenticationResponse('https://rp/cb#id_token=e.y.j&state=s2');
    expect(idOnly).toEqual({ flow: 'implicit', responseType: 'id_token', idToken: 'e.y.j', state: 's2' });
    const both = parseAuthenticationResponse(
      'https://rp/cb#id_token=e.y.j&access_token=at&token_type=Bearer&state=s',
    );
    expect(both).toMatchObject({ responseType: 'id_token token', accessToken: 'at', tokenType: 'Bearer' });
  });

  it("refuses an OP's error answer, an answer with nothing in it and a URL that is none", () => {
    expect(() =>
      parseAuthenticationResponse('https://rp/cb?error=access_denied&error_description=no&state=s'),
    ).toThrow(
      'OpenID Connect Provider response indicates authentication failure. Code=[access_denied], Description=[no]',
    );
    expect(() => parseAuthenticationResponse('https://rp/cb?state=s')).toThrow(
      'neither a code nor an ID token',
    );
    expect(() => parseAuthenticationResponse('not a url')).toThrow('Failed to parse');
  });
});
