/**
 * The URL the OP sent the browser back to, as the facilitator hands it over
 * (`redirect_uri` of `POST /_security/oidc/authenticate`): an authorization code in the query
 * (the code flow), or an ID token, perhaps with an access token, in the fragment (the implicit
 * flows), or an error. Elasticsearch parses it as Nimbus' AuthenticationResponse.
 */
import { OidcAuthenticationFailure } from './id-token.ts';
import type { ResponseType } from './oidc-settings.ts';

export type AuthenticationResponse =
  | { flow: 'code'; code: string; state: string | undefined; params: URLSearchParams }
  | {
      flow: 'implicit';
      responseType: ResponseType;
      idToken: string;
      accessToken?: string;
      tokenType?: string;
      state: string | undefined;
    };

function failed(reason: string): never {
  throw new OidcAuthenticationFailure(reason);
}

export function parseAuthenticationResponse(redirectUri: string): AuthenticationResponse {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    failed(`Failed to parse the OpenID Connect authentication response [${redirectUri}]`);
  }
  // The implicit flows answer in the fragment; the code flow in the query.
  const params = url.hash.length > 1 ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
  const error = params.get('error');
  if (error !== null) {
    failed(
      `OpenID Connect Provider response indicates authentication failure. Code=[${error}], Description=[${params.get('error_description') ?? ''}]`,
    );
  }
  const state = params.get('state') ?? undefined;
  const idToken = params.get('id_token');
  const code = params.get('code');
  if (idToken !== null) {
    const accessToken = params.get('access_token') ?? undefined;
    const out: AuthenticationResponse = {
      flow: 'implicit',
      responseType: accessToken === undefined ? 'id_token' : 'id_token token',
      idToken,
      state,
    };
    if (accessToken !== undefined) out.accessToken = accessToken;
    const tokenType = params.get('token_type');
    if (tokenType !== null) out.tokenType = tokenType;
    return out;
  }
  if (code !== null) return { flow: 'code', code, state, params };
  return failed('The OpenID Connect authentication response has neither a code nor an ID token');
}

/** The response type the callback implies (Nimbus' `impliedResponseType`). */
export function impliedResponseType(r: AuthenticationResponse): ResponseType {
  return r.flow === 'code' ? 'code' : r.responseType;
}
