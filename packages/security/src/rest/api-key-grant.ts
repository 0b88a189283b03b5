/**
 * `POST /_security/api_key/grant` (TransportGrantApiKeyAction): a privileged caller makes an
 * API key for another user whose credentials it holds — the `password` grant authenticates
 * them through the realm chain, the `access_token` grant takes an access token of the token
 * service (as a Bearer credential would be), `run_as` makes the key for a user they may run
 * as. The key belongs to that user and is limited by that user's roles.
 */
import { accessDenied, actionRequestValidation, securityException } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import { actionDeniedMessage, principalText } from '../authz/denial.ts';
import { validateDescriptor } from '../authz/role-descriptor.ts';
import { checkRoleQueries } from '../authz/role-query.ts';
import type { SecurityContext } from '../context.ts';
import {
  isObject,
  type KeyFields,
  metadataErrors,
  nameErrors,
  ownerDescriptors,
  readKeyField,
  typeError,
  unknownField,
} from './api-key-body.ts';
import {
  checkParams,
  checkRefresh,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

export const GRANT_ACTION = 'cluster:admin/ext/security/api_key/grant';
const PARSER = 'grant_api_key_request';

interface Grant {
  grantType?: string;
  username?: string;
  password?: string;
  accessToken?: string;
  runAs?: string;
  clientAuthentication?: unknown;
  key?: KeyFields;
}

function readGrant(req: SecurityRequest): Grant {
  const g: Grant = {};
  const str = (k: string, v: unknown): string | undefined => {
    if (v === null) return undefined;
    if (typeof v !== 'string') throw typeError(PARSER, k);
    return v;
  };
  for (const [k, v] of Object.entries(requiredObjectBody(req))) {
    if (k === 'grant_type') g.grantType = str(k, v);
    else if (k === 'username') g.username = str(k, v);
    else if (k === 'password') g.password = str(k, v);
    else if (k === 'access_token') g.accessToken = str(k, v);
    else if (k === 'run_as') g.runAs = str(k, v);
    else if (k === 'client_authentication') g.clientAuthentication = v;
    else if (k === 'api_key') {
      if (!isObject(v)) throw typeError(PARSER, k);
      const key: KeyFields = {};
      for (const [kk, kv] of Object.entries(v)) {
        if (
          !readKeyField('api_key_request', kk, kv, key, [
            'name',
            'expirationMs',
            'metadata',
            'role_descriptors',
          ])
        )
          throw unknownField(req, 'api_key_request', kk);
      }
      g.key = key;
    } else throw unknownField(req, PARSER, k);
  }
  return g;
}

/** Grant.validate and the key's own validation, all messages at once. */
function validate(g: Grant): string[] {
  const errors: string[] = [];
  const required = (field: string, v: string | undefined) => {
    if (!v) errors.push(`[${field}] is required for grant_type [${g.grantType}]`);
  };
  const unsupported = (field: string, v: string | undefined) => {
    if (v) errors.push(`[${field}] is not supported for grant_type [${g.grantType}]`);
  };
  if (g.grantType === undefined) errors.push('[grant_type] is required');
  else if (g.grantType === 'password') {
    required('username', g.username);
    required('password', g.password);
    unsupported('access_token', g.accessToken);
    if (g.clientAuthentication !== undefined)
      errors.push(`[client_authentication] is not supported for grant_type [${g.grantType}]`);
  } else if (g.grantType === 'access_token') {
    required('access_token', g.accessToken);
    unsupported('username', g.username);
    unsupported('password', g.password);
  } else errors.push(`grant_type [${g.grantType}] is not supported`);
  if (!g.key) errors.push('api key name is required');
  else {
    errors.push(...nameErrors(g.key.name), ...metadataErrors(g.key.metadata));
    for (const d of g.key.roleDescriptors ?? []) errors.push(...validateDescriptor(d.descriptor));
  }
  return errors;
}

/** The granted user, and the user it runs as when `run_as` asks (which its roles must allow). */
async function grantee(ctx: SecurityContext, g: Grant, uri: string): Promise<Authentication> {
  const { authentication } = await grantAuthentication(ctx, g, uri);
  if (g.runAs === undefined) return authentication;
  const role = await ctx.roles.role(authentication.user.roles);
  const target = g.runAs === '' ? undefined : await ctx.authenticator.lookup(g.runAs);
  if (!target?.user.enabled || !role.runAs(g.runAs)) {
    throw accessDenied(
      `${actionDeniedMessage(GRANT_ACTION, principalText(authentication, role), undefined, false)}, because user [${authentication.user.username}] is unauthorized to run as [${g.runAs}]`,
    );
  }
  // The key belongs to the user run as, in the realm that user was found in.
  return target;
}

/** The grant's own credentials, authenticated (not the caller's). */
function grantAuthentication(ctx: SecurityContext, g: Grant, uri: string) {
  if (g.grantType === 'password') {
    return ctx.authenticator.authenticatePassword(g.username!, g.password!, GRANT_ACTION);
  }
  // Only JWTs take client authentication, and Shoal has no JWT realm: every access token is
  // the token service's.
  if (g.clientAuthentication !== undefined && g.clientAuthentication !== null) {
    throw securityException('[client_authentication] not supported with the supplied access_token type', 400);
  }
  // An unknown, invalidated or expired token fails as that Bearer credential would (a 401).
  return ctx.authenticator.authenticate(`Bearer ${g.accessToken}`, uri);
}

async function grantApiKey(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const g = readGrant(req);
  const errors = validate(g);
  if (errors.length > 0) throw actionRequestValidation(errors);
  for (const d of g.key?.roleDescriptors ?? []) checkRoleQueries(d.descriptor);
  const owner = await grantee(ctx, g, req.path);
  const created = await ctx.apiKeys.create(owner, await ownerDescriptors(ctx, owner), {
    name: g.key!.name!,
    expirationMs: g.key!.expirationMs,
    roleDescriptors: g.key!.roleDescriptors ?? [],
    metadata: g.key!.metadata ?? {},
  });
  return ok(created);
}

export function apiKeyGrantRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: '/_security/api_key/grant',
      action: GRANT_ACTION,
      handler: (req) => grantApiKey(ctx, req),
    },
  ];
}
