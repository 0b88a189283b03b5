/**
 * The token endpoint (`POST|DELETE /_security/oauth2/token`, Elasticsearch's RestGetTokenAction
 * and RestInvalidateTokenAction): grants and their validation, with the OAuth2 error bodies
 * Elasticsearch answers the get-token request with, and invalidation by token, refresh token,
 * realm or user.
 */
import {
  actionRequestValidation,
  featureNotEnabled,
  illegalArgument,
  notImplemented,
  oauth2Error,
} from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import { authenticateBody } from '../authc/authentication.ts';
import { SERVICE_ACCOUNT_REALM } from '../authc/service-tokens.ts';
import type { InvalidationResult, IssuedTokens, TokenService } from '../authc/token-service.ts';
import type { SecurityContext } from '../context.ts';
import { checkFields, stringField } from './object-parser.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest, type SecurityRoute } from './route.ts';

const A = 'cluster:admin/ext/security/token';
const PATH = '/_security/oauth2/token';
const GRANT_TYPES = ['password', '_kerberos', 'refresh_token', 'client_credentials'];

interface TokenRequest {
  grantType: string;
  username?: string;
  password?: string;
  kerberosTicket?: string;
  refreshToken?: string;
  scope?: string;
}

/** CreateTokenRequest.validate: each grant's required and forbidden fields, in its order. */
export function tokenRequestErrors(r: TokenRequest): string[] {
  const errors: string[] = [];
  const required = (field: string, v: string | undefined) => {
    if (v === undefined || v === '') errors.push(`${field} is missing`);
  };
  const unsupported = (field: string, v: string | undefined) => {
    if (v !== undefined) errors.push(`${field} is not supported with the ${r.grantType} grant_type`);
  };
  switch (r.grantType) {
    case 'password':
      required('username', r.username);
      required('password', r.password);
      unsupported('kerberos_ticket', r.kerberosTicket);
      unsupported('refresh_token', r.refreshToken);
      break;
    case '_kerberos':
      unsupported('username', r.username);
      unsupported('password', r.password);
      unsupported('refresh_token', r.refreshToken);
      required('kerberos_ticket', r.kerberosTicket);
      break;
    case 'refresh_token':
      unsupported('username', r.username);
      unsupported('password', r.password);
      unsupported('kerberos_ticket', r.kerberosTicket);
      required('refresh_token', r.refreshToken);
      break;
    case 'client_credentials':
      unsupported('username', r.username);
      unsupported('password', r.password);
      unsupported('kerberos_ticket', r.kerberosTicket);
      unsupported('refresh_token', r.refreshToken);
      break;
    default:
      errors.push(`grant_type only supports the values: [${GRANT_TYPES.join(', ')}]`);
  }
  return errors;
}

/** The token service is off unless HTTP has TLS or `xpack.security.authc.token.enabled` says so. */
function enabledService(ctx: SecurityContext): TokenService {
  if (!ctx.tokens) throw featureNotEnabled('security_tokens', 'security tokens are not enabled');
  return ctx.tokens;
}

function parseTokenRequest(req: SecurityRequest): TokenRequest {
  const parser = 'token_request';
  const body = requiredObjectBody(req);
  checkFields(req, parser, body, [
    'grant_type',
    'username',
    'password',
    'kerberos_ticket',
    'scope',
    'refresh_token',
  ]);
  const grantType = stringField(req, parser, body, 'grant_type');
  if (grantType === undefined) throw illegalArgument('Required [grant_type]');
  const out: TokenRequest = { grantType };
  const put = (key: keyof TokenRequest, field: string) => {
    const v = stringField(req, parser, body, field);
    if (v !== undefined) out[key] = v;
  };
  put('username', 'username');
  put('password', 'password');
  put('kerberosTicket', 'kerberos_ticket');
  put('refreshToken', 'refresh_token');
  put('scope', 'scope');
  return out;
}

function basicHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

async function issue(
  ctx: SecurityContext,
  tokens: TokenService,
  r: TokenRequest,
  req: SecurityRequest,
  caller: Authentication,
): Promise<IssuedTokens> {
  switch (r.grantType) {
    case 'password': {
      // The credentials in the body are authenticated, not the caller's: the caller may ask
      // a token for another user (the dashboard signing a user in).
      const { authentication } = await ctx.authenticator.authenticate(
        basicHeader(r.username!, r.password!),
        req.path,
      );
      return tokens.create(authentication, caller, true);
    }
    case 'client_credentials':
      if (caller.realm.type === SERVICE_ACCOUNT_REALM.type)
        throw illegalArgument('OAuth2 token creation is not supported for service accounts');
      if (caller.apiKey) throw illegalArgument('OAuth2 token creation is not supported for API keys');
      return tokens.create(caller, caller, false);
    case 'refresh_token':
      return tokens.refresh(r.refreshToken!, caller);
    default:
      throw notImplemented('the [_kerberos] grant (Kerberos authentication)');
  }
}

async function getToken(ctx: SecurityContext, req: SecurityRequest, caller: Authentication) {
  checkParams(req, []);
  const tokens = enabledService(ctx);
  const r = parseTokenRequest(req);
  const errors = tokenRequestErrors(r);
  if (errors.length > 0) {
    // RestGetTokenAction answers a validation failure as an OAuth2 error.
    const description = actionRequestValidation(errors).reason;
    throw oauth2Error(
      description.includes('grant_type') ? 'unsupported_grant_type' : 'invalid_request',
      description,
    );
  }
  const issued = await issue(ctx, tokens, r, req, caller);
  const body: Record<string, unknown> = {
    access_token: issued.accessToken,
    type: 'Bearer',
    expires_in: Math.floor(tokens.timeoutMs / 1000),
  };
  if (issued.refreshToken !== undefined) body.refresh_token = issued.refreshToken;
  if (r.scope !== undefined) body.scope = 'full';
  body.authentication = authenticateBody(issued.authentication);
  return ok(body);
}

function invalidationBody(r: InvalidationResult) {
  return ok(
    {
      invalidated_tokens: r.invalidated,
      previously_invalidated_tokens: r.previouslyInvalidated,
      error_count: 0,
    },
    r.notFound ? 404 : 200,
  );
}

async function invalidateToken(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const tokens = enabledService(ctx);
  const parser = 'invalidate_token';
  const body = requiredObjectBody(req);
  checkFields(req, parser, body, ['token', 'refresh_token', 'realm_name', 'username']);
  const token = stringField(req, parser, body, 'token');
  const refreshToken = stringField(req, parser, body, 'refresh_token');
  const realm = stringField(req, parser, body, 'realm_name');
  const username = stringField(req, parser, body, 'username');
  if (token !== undefined && refreshToken !== undefined)
    throw illegalArgument('only one of [token, refresh_token] may be sent per request');
  const tokenString = token ?? refreshToken;
  const errors: string[] = [];
  if (realm || username) {
    if (tokenString)
      errors.push('token string must not be provided when realm name or username is specified');
    if (tokenString !== undefined)
      errors.push('token type must not be provided when realm name or username is specified');
  } else if (!tokenString) {
    errors.push('token string must be provided when not specifying a realm name or a username');
  }
  if (errors.length > 0) throw actionRequestValidation(errors);
  if (realm || username) {
    const filter: { realm?: string; username?: string } = {};
    if (realm) filter.realm = realm;
    if (username) filter.username = username;
    return invalidationBody(await tokens.invalidateAll(filter));
  }
  return invalidationBody(
    token !== undefined
      ? await tokens.invalidateAccessToken(token)
      : await tokens.invalidateRefreshToken(refreshToken!),
  );
}

/**
 * RestGetTokenAction sends the `refresh_token` grant as the refresh action (which
 * `manage_saml` grants) and every other grant as the create action. A body that cannot be
 * read is authorized as a create, and its handler reports the problem.
 */
function refreshOrCreate(req: SecurityRequest): string {
  try {
    const body = req.json() as { grant_type?: unknown } | undefined;
    return body?.grant_type === 'refresh_token' ? `${A}/refresh` : `${A}/create`;
  } catch {
    return `${A}/create`;
  }
}

export function tokenRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: PATH,
      action: `${A}/create`,
      actionOf: refreshOrCreate,
      handler: (req, auth) => getToken(ctx, req, auth),
    },
    { method: 'DELETE', path: PATH, action: `${A}/invalidate`, handler: (req) => invalidateToken(ctx, req) },
  ];
}
