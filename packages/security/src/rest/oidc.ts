/**
 * `POST /_security/oidc/prepare`, `…/authenticate` and `…/logout` (Elasticsearch's
 * RestOpenIdConnect*Action with their transport actions): a facilitator holding `manage_oidc`
 * drives a user's sign-in at an OP through an OIDC realm, and gets an access and refresh token
 * for the user; logout invalidates them and answers the OP's end-session URL.
 */
import {
  actionRequestValidation,
  authenticationFailed,
  featureNotEnabled,
  illegalArgument,
  securityException,
} from '@shoal/protocol';
import { type Authentication, authenticateBody } from '../authc/authentication.ts';
import { CHALLENGES } from '../authc/authenticator.ts';
import { externalAuthentication } from '../authc/external-user.ts';
import { OidcAuthenticationFailure } from '../authc/oidc/id-token.ts';
import type { OidcRealm } from '../authc/oidc/oidc-realm.ts';
import { OIDC_REALM_TYPE } from '../authc/oidc/oidc-settings.ts';
import type { TokenService } from '../authc/token-service.ts';
import type { SecurityContext } from '../context.ts';
import { checkFields, stringField } from './object-parser.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest, type SecurityRoute } from './route.ts';

const A = 'cluster:admin/ext/security/oidc';
/** What OpenIdConnectToken.principal() names in the 401 of a refused authentication response. */
const TOKEN_PRINCIPAL = '<OIDC Token>';
/** The token metadata key of the ID token, for logout (OpenIdConnectRealm's `id_token_hint`). */
const ID_TOKEN_HINT = 'id_token_hint';

function tokenService(ctx: SecurityContext): TokenService {
  if (!ctx.tokens) throw featureNotEnabled('security_tokens', 'security tokens are not enabled');
  return ctx.tokens;
}

function readBody(req: SecurityRequest, parser: string, fields: readonly string[]) {
  const body = requiredObjectBody(req);
  checkFields(req, parser, body, fields);
  const out: Record<string, string | undefined> = {};
  for (const f of fields) out[f] = stringField(req, parser, body, f);
  return out;
}

/** TransportOpenIdConnectPrepareAuthenticationAction: the realm by name, or the one of an issuer. */
function realmFor(ctx: SecurityContext, realm: string | undefined, issuer: string | undefined): OidcRealm {
  const realms = ctx.oidcRealms ?? [];
  if (issuer) {
    const matching = realms.filter((r) => r.isIssuerValid(issuer));
    if (matching.length === 0)
      throw securityException(`Cannot find OpenID Connect realm with issuer [${issuer}]`);
    if (matching.length > 1)
      throw securityException(`Found multiple OpenID Connect realm with issuer [${issuer}]`);
    return matching[0]!;
  }
  const found = realms.find((r) => r.name === realm);
  if (!found) throw securityException(`Cannot find OpenID Connect realm with name [${realm}]`);
  return found;
}

function prepare(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const b = readBody(req, 'oidc_prepare_authentication', ['realm', 'iss', 'login_hint', 'state', 'nonce']);
  const errors: string[] = [];
  if (!b.realm && !b.iss) errors.push('one of [realm, issuer] must be provided');
  if (b.realm && b.iss) errors.push('only one of [realm, issuer] can be provided in the same request');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const realm = realmFor(ctx, b.realm, b.iss);
  const p = realm.prepare(b.state || undefined, b.nonce || undefined, b.login_hint || undefined);
  return ok({ redirect: p.redirect, state: p.state, nonce: p.nonce, realm: realm.name });
}

/**
 * The realms that may consume the response (the named one, else each OIDC realm in order), as
 * the realm chain asks them; a refusal is the chain's 401, its reason only logged.
 */
async function authenticateResponse(
  ctx: SecurityContext,
  realmName: string | undefined,
  redirectUri: string,
  state: string,
  nonce: string,
) {
  const candidates = (ctx.oidcRealms ?? []).filter((r) => realmName === undefined || r.name === realmName);
  for (const realm of candidates) {
    try {
      return { realm, result: await realm.authenticate(redirectUri, state, nonce) };
    } catch (e) {
      if (!(e instanceof OidcAuthenticationFailure)) throw e;
      ctx.host.log.warn(`Authentication to realm ${realm.name} failed - ${e.message}`);
    }
  }
  throw authenticationFailed(
    `unable to authenticate user [${TOKEN_PRINCIPAL}] for action [${A}/authenticate]`,
    [...CHALLENGES],
  );
}

async function authenticate(ctx: SecurityContext, req: SecurityRequest, caller: Authentication) {
  checkParams(req, []);
  const b = readBody(req, 'oidc_authn', ['redirect_uri', 'state', 'nonce', 'realm']);
  const errors: string[] = [];
  if (!b.state) errors.push('state parameter is missing');
  if (!b.nonce) errors.push('nonce parameter is missing');
  if (!b.redirect_uri) errors.push('redirect_uri parameter is missing');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const tokens = tokenService(ctx);
  const { realm, result } = await authenticateResponse(ctx, b.realm, b.redirect_uri!, b.state!, b.nonce!);
  const authentication = await externalAuthentication(ctx, realm, result.user);
  const issued = await tokens.create(authentication, caller, true, { [ID_TOKEN_HINT]: result.idToken });
  // The server writes `username` and no `type`; the specification the clients follow has
  // `type`: both are given.
  return ok({
    username: result.user.principal,
    access_token: issued.accessToken,
    type: 'Bearer',
    refresh_token: issued.refreshToken,
    expires_in: Math.floor(tokens.timeoutMs / 1000),
    authentication: authenticateBody(authentication),
  });
}

async function logout(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const b = readBody(req, 'oidc_logout', ['token', 'refresh_token']);
  if (!b.token) throw actionRequestValidation(['token is missing']);
  const tokens = tokenService(ctx);
  if (b.refresh_token) await tokens.invalidateRefreshToken(b.refresh_token);
  const described = await tokens.describe(b.token);
  if (!described) throw securityException('supplied token is not valid');
  // TransportOpenIdConnectLogoutAction.validateAuthenticationAndMetadata, in its order.
  const realmRef = described.authentication.realm;
  if (realmRef.type !== OIDC_REALM_TYPE)
    throw illegalArgument('Access token is not valid for an OpenID Connect realm');
  const realm = (ctx.oidcRealms ?? []).find((r) => r.name === realmRef.name);
  if (!realm) throw securityException(`Authenticating realm ${realmRef.name} does not exist`);
  const hint = described.metadata[ID_TOKEN_HINT];
  if (typeof hint !== 'string')
    throw securityException(`Authentication token does not have OpenID Connect metadata [${ID_TOKEN_HINT}]`);
  await tokens.invalidateAccessToken(b.token);
  return ok({ redirect: realm.logoutRedirect(hint) });
}

export function oidcRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: '/_security/oidc/prepare',
      action: `${A}/prepare`,
      handler: (req) => prepare(ctx, req),
    },
    {
      method: 'POST',
      path: '/_security/oidc/authenticate',
      action: `${A}/authenticate`,
      handler: (req, auth) => authenticate(ctx, req, auth),
    },
    {
      method: 'POST',
      path: '/_security/oidc/logout',
      action: `${A}/logout`,
      handler: (req) => logout(ctx, req),
    },
  ];
}
