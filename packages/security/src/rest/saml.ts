/**
 * `POST /_security/saml/prepare`, `…/authenticate`, `…/logout`, `…/invalidate`,
 * `…/complete_logout` and `GET /_security/saml/metadata/{realm_name}` (Elasticsearch's
 * RestSaml*Action with their transport actions): a facilitator holding `manage_saml` drives a
 * user's sign-in at an IdP through a SAML realm and gets an access and refresh token for the
 * user; logout invalidates them and answers the IdP's single logout URL; the IdP's own logout
 * requests invalidate every token of the session they name.
 */
import {
  actionRequestValidation,
  authenticationFailed,
  featureNotEnabled,
  illegalArgument,
  securityException,
  xContentParse,
} from '@shoal/protocol';
import { type Authentication, authenticateBody } from '../authc/authentication.ts';
import { CHALLENGES } from '../authc/authenticator.ts';
import { externalAuthentication } from '../authc/external-user.ts';
import { SAML_REALM_TYPE } from '../authc/saml/saml-settings.ts';
import { TOKEN_METADATA, tokenMetadata } from '../authc/saml/user-attributes.ts';
import { SamlException } from '../authc/saml/xml.ts';
import type { TokenService } from '../authc/token-service.ts';
import type { SecurityContext } from '../context.ts';
import { checkFields, stringField } from './object-parser.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest, type SecurityRoute } from './route.ts';

const A = 'cluster:admin/ext/security/saml';
/** What SamlToken.principal() names in the 401 of a refused response. */
const TOKEN_PRINCIPAL = '<unauthenticated-saml-user>';

function tokenService(ctx: SecurityContext): TokenService {
  if (!ctx.tokens) throw featureNotEnabled('security_tokens', 'security tokens are not enabled');
  return ctx.tokens;
}

type Body = Record<string, unknown>;

function readBody(req: SecurityRequest, parser: string, fields: readonly string[]): Body {
  const body = requiredObjectBody(req);
  checkFields(req, parser, body, fields);
  return body;
}

function str(req: SecurityRequest, parser: string, body: Body, field: string): string | undefined {
  return stringField(req, parser, body, field);
}

/** A string array field (ObjectParser.declareStringArray). */
function stringArray(parser: string, body: Body, field: string): string[] | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v;
  throw xContentParse(1, 1, `[${parser}] failed to parse field [${field}]`);
}

/** SamlRealm.findSamlRealms: by realm name and/or ACS; exactly one must match. */
function findRealm(
  ctx: SecurityContext,
  realm: string | undefined,
  acs: string | undefined,
  described: string,
) {
  const found = (ctx.samlRealms ?? []).filter((r) => (!realm || r.name === realm) && (!acs || r.acs === acs));
  if (found.length === 0) throw securityException(`Cannot find any matching realm for [${described}]`);
  if (found.length > 1)
    throw securityException(
      `Found multiple matching realms [${found.map((r) => r.name).join(', ')}] for [${described}]`,
    );
  return found[0]!;
}

/** A SAML failure outside the realm chain: ElasticsearchSecurityException's 500, with the reason. */
async function orSecurityException<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof SamlException) throw securityException(e.message);
    throw e;
  }
}

async function prepare(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const P = 'saml_prepare_authn';
  const b = readBody(req, P, ['realm', 'acs', 'relay_state']);
  const realmName = str(req, P, b, 'realm');
  const acs = str(req, P, b, 'acs');
  const relayState = str(req, P, b, 'relay_state');
  if (!realmName && !acs) throw actionRequestValidation(['one of [realm, acs] must be provided']);
  const realm = findRealm(
    ctx,
    realmName,
    acs,
    `SamlPrepareAuthenticationRequest{realmName=${realmName ?? null}, assertionConsumerServiceURL=${acs ?? null}, relayState=${relayState ?? null}}`,
  );
  const p = await orSecurityException(() => realm.prepare(relayState || undefined));
  return ok({ realm: realm.name, id: p.id, redirect: p.redirect });
}

/**
 * The realms that may consume the response (the named one, else each SAML realm in order), as
 * the realm chain asks them; a refusal is the chain's 401, its reason only logged.
 */
async function authenticateResponse(
  ctx: SecurityContext,
  realmName: string | undefined,
  xml: string,
  ids: string[],
) {
  const candidates = (ctx.samlRealms ?? []).filter((r) => realmName === undefined || r.name === realmName);
  for (const realm of candidates) {
    try {
      return { realm, result: await realm.authenticate(xml, ids) };
    } catch (e) {
      if (!(e instanceof SamlException)) throw e;
      ctx.host.log.warn(
        `Authentication to realm ${realm.name} failed - Provided SAML response is not valid for realm saml/${realm.name} (${e.message})`,
      );
    }
  }
  throw authenticationFailed(
    `unable to authenticate user [${TOKEN_PRINCIPAL}] for action [${A}/authenticate]`,
    [...CHALLENGES],
  );
}

async function authenticate(ctx: SecurityContext, req: SecurityRequest, caller: Authentication) {
  checkParams(req, []);
  const P = 'saml_authenticate';
  const b = readBody(req, P, ['content', 'ids', 'realm']);
  const content = str(req, P, b, 'content');
  const ids = stringArray(P, b, 'ids');
  const realmName = str(req, P, b, 'realm');
  const errors: string[] = [];
  if (!content) errors.push('content is missing');
  if (ids === undefined) errors.push('ids is missing');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const compact = content!.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
    throw illegalArgument('Illegal base64 character in the SAML content');
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  const tokens = tokenService(ctx);
  const { realm, result } = await authenticateResponse(ctx, realmName, xml, ids!);
  const authentication = await externalAuthentication(ctx, realm, result.user);
  const issued = await tokens.create(authentication, caller, true, result.tokenMetadata);
  return ok({
    username: result.user.principal,
    realm: realm.name,
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    expires_in: Math.floor(tokens.timeoutMs / 1000),
    authentication: authenticateBody(authentication),
  });
}

/** TransportSamlLogoutAction: the token's SAML realm, from its metadata. */
async function logout(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const P = 'saml_logout';
  const b = readBody(req, P, ['token', 'refresh_token']);
  const token = str(req, P, b, 'token');
  const refreshToken = str(req, P, b, 'refresh_token');
  if (!token) throw actionRequestValidation(['token is missing']);
  const tokens = tokenService(ctx);
  const described = await tokens.describe(token);
  if (!described) throw securityException('supplied token is not valid');
  const metadata = described.metadata;
  const tokenRealm = metadata[TOKEN_METADATA.realm];
  if (typeof tokenRealm !== 'string')
    throw securityException(`Access token does not have SAML metadata [${TOKEN_METADATA.realm}]`);
  const authRealm = described.authentication.realm;
  if (authRealm.name !== tokenRealm || authRealm.type !== SAML_REALM_TYPE)
    throw securityException(
      `Authenticating realm [${authRealm.name}] does not match token realm [${tokenRealm}]`,
    );
  const realm = (ctx.samlRealms ?? []).find((r) => r.name === tokenRealm);
  if (!realm) throw securityException(`Cannot find SAML realm [${tokenRealm}]`);
  if (typeof metadata[TOKEN_METADATA.nameIdValue] !== 'string')
    throw securityException(`Access token does not have SAML metadata [${TOKEN_METADATA.nameIdValue}]`);
  const built = await orSecurityException(() => realm.logoutRedirect(metadata));
  if (refreshToken) await tokens.invalidateRefreshToken(refreshToken);
  await tokens.invalidateAccessToken(token);
  return ok({ id: built?.id ?? null, redirect: built?.redirect ?? null });
}

/** The raw query string field, also under its deprecated name `queryString`. */
function queryStringOf(req: SecurityRequest, parser: string, b: Body): string | undefined {
  return str(req, parser, b, 'query_string') ?? str(req, parser, b, 'queryString');
}

async function invalidate(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const P = 'saml_invalidate_session';
  const b = readBody(req, P, ['query_string', 'queryString', 'acs', 'realm']);
  const queryString = queryStringOf(req, P, b);
  const realmName = str(req, P, b, 'realm');
  const acs = str(req, P, b, 'acs');
  if (!queryString) throw actionRequestValidation(['query_string is missing']);
  const realm = findRealm(
    ctx,
    realmName,
    acs,
    `SamlInvalidateSessionRequest{realmName=${realmName ?? null}, assertionConsumerServiceURL=${acs ?? null}, url-query=${queryString.length} chars}`,
  );
  const tokens = tokenService(ctx);
  return orSecurityException(async () => {
    const request = await realm.parseLogoutRequest(queryString);
    const match = tokenMetadata(realm.name, request.nameId, request.session);
    // A request without a NameID names no session: nothing is invalidated.
    const invalidated = request.nameId?.value
      ? await tokens.invalidatePairsWithMetadata(realm.name, match)
      : 0;
    const redirect = await realm.logoutResponseRedirect(request.requestId, request.relayState);
    return ok({ realm: realm.name, invalidated, redirect });
  });
}

async function completeLogout(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const P = 'saml_complete_logout';
  const b = readBody(req, P, ['realm', 'ids', 'query_string', 'queryString', 'content']);
  const realmName = str(req, P, b, 'realm');
  const ids = stringArray(P, b, 'ids');
  const queryString = queryStringOf(req, P, b);
  const content = str(req, P, b, 'content');
  const errors: string[] = [];
  if (!realmName) errors.push('realm may not be empty');
  if (!ids) errors.push('ids may not be empty');
  if (!queryString && !content) errors.push('query_string and content may not both be empty');
  if (queryString && content) errors.push('query_string and content may not both present');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const realm = findRealm(ctx, realmName, undefined, realmName!);
  await orSecurityException(() =>
    realm.completeLogout(queryString ? { queryString } : { content: content! }, ids!),
  );
  return ok({});
}

function spMetadata(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const name = req.params.realm_name ?? '';
  const realm = (ctx.samlRealms ?? []).find((r) => r.name === name);
  if (!realm) throw securityException(`Cannot find any matching realm for [${name}]`);
  return ok({ metadata: realm.spMetadata() });
}

export function samlRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: '/_security/saml/prepare',
      action: `${A}/prepare`,
      handler: (req) => prepare(ctx, req),
    },
    {
      method: 'POST',
      path: '/_security/saml/authenticate',
      action: `${A}/authenticate`,
      handler: (req, auth) => authenticate(ctx, req, auth),
    },
    {
      method: 'POST',
      path: '/_security/saml/logout',
      action: `${A}/logout`,
      handler: (req) => logout(ctx, req),
    },
    {
      method: 'POST',
      path: '/_security/saml/invalidate',
      action: `${A}/invalidate`,
      handler: (req) => invalidate(ctx, req),
    },
    {
      method: 'POST',
      path: '/_security/saml/complete_logout',
      action: `${A}/complete_logout`,
      handler: (req) => completeLogout(ctx, req),
    },
    {
      method: 'GET',
      path: '/_security/saml/metadata/:realm_name',
      action: 'cluster:monitor/ext/security/saml/metadata',
      handler: (req) => spMetadata(ctx, req),
    },
  ];
}
