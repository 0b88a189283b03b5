/**
 * An OpenID Connect realm (Elasticsearch's OpenIdConnectRealm with its
 * OpenIdConnectAuthenticator), the relying party of one OP: builds the authentication request
 * a facilitator sends the browser to, consumes the OP's answer (exchanging a code at the token
 * endpoint with openid-client, validating the ID token with jose) into a user and its claims,
 * and builds the end-session URL for logout.
 */
import * as client from 'openid-client';
import type { RealmRef } from '../authentication.ts';
import { type AuthenticationResponse, impliedResponseType, parseAuthenticationResponse } from './callback.ts';
import { type ClaimedUser, type Claims, mergeClaims, userFromClaims } from './claims.ts';
import { OidcAuthenticationFailure, validateIdToken } from './id-token.ts';
import { jwkSetSource, type KeySource, secretKeySource } from './jwk-source.ts';
import { OIDC_REALM_TYPE, type OidcRealmConfig } from './oidc-settings.ts';

/** `http.connection_read_timeout` and friends: 5 s for every call to the OP. */
const OP_TIMEOUT_S = 5;

export interface PreparedAuthentication {
  redirect: string;
  state: string;
  nonce: string;
}

export interface OidcAuthenticated {
  user: ClaimedUser;
  /** The raw ID token, kept with the access token as `id_token_hint` for logout. */
  idToken: string;
}

function failed(reason: string): never {
  throw new OidcAuthenticationFailure(reason);
}

export class OidcRealm {
  readonly ref: RealmRef;
  private readonly keys: KeySource;
  private readonly client: client.Configuration;

  constructor(
    readonly config: OidcRealmConfig,
    private readonly now: () => number,
    fetchImpl?: client.CustomFetch,
  ) {
    this.ref = { name: config.name, type: OIDC_REALM_TYPE };
    const { rp, op } = config;
    this.keys = rp.signatureAlgorithm.startsWith('HS')
      ? secretKeySource(rp.clientSecret!)
      : jwkSetSource(op.jwkset, fetchImpl as never);
    const server: client.ServerMetadata = {
      issuer: op.issuer,
      authorization_endpoint: op.authorizationEndpoint,
      ...(op.tokenEndpoint ? { token_endpoint: op.tokenEndpoint } : {}),
      ...(op.userinfoEndpoint ? { userinfo_endpoint: op.userinfoEndpoint } : {}),
    };
    const secret = rp.clientSecret ?? '';
    this.client = new client.Configuration(
      server,
      rp.clientId,
      {
        client_secret: secret,
        id_token_signed_response_alg: rp.signatureAlgorithm,
        [client.clockTolerance]: Math.floor(config.allowedClockSkewMs / 1000),
      },
      // Without a secret (an implicit flow) the token endpoint is never called.
      rp.clientSecret === undefined
        ? client.None()
        : rp.clientAuthMethod === 'client_secret_post'
          ? client.ClientSecretPost(secret)
          : client.ClientSecretBasic(secret),
    );
    this.client.timeout = OP_TIMEOUT_S;
    // Elasticsearch calls the token and UserInfo endpoints over whatever scheme they are configured with.
    const insecure = [op.tokenEndpoint, op.userinfoEndpoint].some((u) => u?.startsWith('http:'));
    if (insecure) client.allowInsecureRequests(this.client);
    if (fetchImpl) this.client[client.customFetch] = fetchImpl;
  }

  get name(): string {
    return this.config.name;
  }

  isIssuerValid(issuer: string): boolean {
    return this.config.op.issuer === issuer;
  }

  /** OpenIdConnectRealm.buildAuthenticationRequestUri: state and nonce generated unless given. */
  prepare(state?: string, nonce?: string, loginHint?: string): PreparedAuthentication {
    const s = state ?? client.randomState();
    const n = nonce ?? client.randomNonce();
    const url = new URL(this.config.op.authorizationEndpoint);
    const q = url.searchParams;
    q.set('response_type', this.config.rp.responseType);
    q.set('client_id', this.config.rp.clientId);
    q.set('redirect_uri', this.config.rp.redirectUri);
    q.set('scope', this.config.rp.requestedScopes.join(' '));
    q.set('state', s);
    q.set('nonce', n);
    if (loginHint) q.set('login_hint', loginHint);
    return { redirect: url.toString(), state: s, nonce: n };
  }

  /** Consumes the OP's answer; an OidcAuthenticationFailure says why it was refused. */
  async authenticate(redirectUri: string, state: string, nonce: string): Promise<OidcAuthenticated> {
    const response = parseAuthenticationResponse(redirectUri);
    if (response.state === undefined)
      failed('The OpenID Connect authentication response has no state parameter');
    if (response.state !== state)
      failed(`Invalid state parameter [${response.state}], while [${state}] was expected`);
    const implied = impliedResponseType(response);
    if (implied !== this.config.rp.responseType) {
      failed(`Unexpected response type [${implied}], while [${this.config.rp.responseType}] is configured`);
    }
    const tokens = await this.tokensOf(response, state, nonce);
    let claims: Claims = await validateIdToken(tokens.idToken, this.keys, {
      issuer: this.config.op.issuer,
      clientId: this.config.rp.clientId,
      algorithm: this.config.rp.signatureAlgorithm,
      nonce,
      clockSkewMs: this.config.allowedClockSkewMs,
      now: this.now(),
      ...(tokens.accessToken === undefined
        ? {}
        : { accessToken: { value: tokens.accessToken, required: implied === 'id_token token' } }),
    });
    if (tokens.accessToken !== undefined && this.config.op.userinfoEndpoint) {
      claims = mergeClaims(claims, await this.userInfo(tokens.accessToken, String(claims.sub)));
    }
    return { user: userFromClaims(this.config, claims), idToken: tokens.idToken };
  }

  private async tokensOf(
    response: AuthenticationResponse,
    state: string,
    nonce: string,
  ): Promise<{ idToken: string; accessToken?: string }> {
    if (response.flow === 'implicit') {
      if (response.accessToken !== undefined && response.tokenType?.toLowerCase() !== 'bearer')
        failed(`Invalid token type [${response.tokenType ?? ''}], while [Bearer] was expected`);
      return response.accessToken === undefined
        ? { idToken: response.idToken }
        : { idToken: response.idToken, accessToken: response.accessToken };
    }
    // The token endpoint is given the configured redirect URI, as Elasticsearch sends it.
    const current = new URL(this.config.rp.redirectUri);
    current.search = response.params.toString();
    current.hash = '';
    let answer: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      answer = await client.authorizationCodeGrant(this.client, current, {
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
    } catch (e) {
      failed(`Failed to exchange code for Id Token using the Token Endpoint: ${describe(e)}`);
    }
    if (answer.token_type.toLowerCase() !== 'bearer')
      failed(`Invalid token type [${answer.token_type}], while [Bearer] was expected`);
    if (answer.id_token === undefined) failed('The token endpoint answered without an ID token');
    return { idToken: answer.id_token, accessToken: answer.access_token };
  }

  private async userInfo(accessToken: string, subject: string): Promise<Claims> {
    try {
      return (await client.fetchUserInfo(this.client, accessToken, subject)) as Claims;
    } catch (e) {
      failed(`Failed to get user information from the UserInfo endpoint: ${describe(e)}`);
    }
  }

  /** OpenIdConnectRealm.buildLogoutResponse: the end-session URL, or null without an endpoint. */
  logoutRedirect(idTokenHint: string): string | null {
    const endpoint = this.config.op.endsessionEndpoint;
    if (!endpoint) return null;
    const url = new URL(endpoint);
    url.searchParams.set('id_token_hint', idTokenHint);
    if (this.config.rp.postLogoutRedirectUri)
      url.searchParams.set('post_logout_redirect_uri', this.config.rp.postLogoutRedirectUri);
    url.searchParams.set('state', client.randomState());
    return url.toString();
  }
}

function describe(e: unknown): string {
  if (e instanceof client.ResponseBodyError) return `${e.error}: ${e.error_description ?? e.message}`;
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    // openid-client wraps oauth4webapi's error, whose message names the claim or attribute.
    const detail = e.cause instanceof Error ? ` (${e.cause.message})` : '';
    return `${typeof code === 'string' ? `${code}: ` : ''}${e.message}${detail}`;
  }
  return String(e);
}
