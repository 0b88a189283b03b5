/**
 * The service-account APIs: the built-in accounts (`GET /_security/service/…`), their
 * credentials, and index-backed tokens (create, delete, clear cache).
 */
import { actionRequestValidation, illegalArgument, versionConflict } from '@shoal/protocol';
import {
  SERVICE_ACCOUNT_NAMES,
  serviceAccountDescriptor,
  tokenNameError,
} from '../authc/service-accounts.ts';
import { descriptorJson } from '../authz/role-descriptor.ts';
import { clearCacheBody, type SecurityContext } from '../context.ts';
import { SECURITY_INDEX } from '../store/documents.ts';
import {
  checkParams,
  checkRefresh,
  listParam,
  ok,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

const A = 'cluster:admin/ext/security/service_account';

function principalOf(req: SecurityRequest): string {
  const principal = `${req.params.namespace}/${req.params.service}`;
  if (!serviceAccountDescriptor(principal))
    throw illegalArgument(`service account [${principal}] does not exist`);
  return principal;
}

function getAccounts(req: SecurityRequest) {
  checkParams(req, ['namespace', 'service']);
  const { namespace, service } = req.params;
  const out: Record<string, unknown> = {};
  for (const name of SERVICE_ACCOUNT_NAMES) {
    const [ns, svc] = name.split('/');
    if (namespace !== undefined && ns !== namespace) continue;
    if (service !== undefined && svc !== service) continue;
    const { description: _d, ...descriptor } = descriptorJson(serviceAccountDescriptor(name)!);
    out[name] = { role_descriptor: descriptor };
  }
  return ok(out);
}

async function credentials(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['namespace', 'service']);
  const principal = principalOf(req);
  const names = await ctx.serviceTokens.names(principal);
  return ok({
    service_account: principal,
    count: names.length,
    tokens: Object.fromEntries(names.map((n) => [n, {}])),
    nodes_credentials: { _nodes: { total: 1, successful: 1, failed: 0 }, file_tokens: {} },
  });
}

async function createToken(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['namespace', 'service', 'name', 'refresh']);
  checkRefresh(req);
  const principal = principalOf(req);
  const name = req.params.name ?? `token_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const bad = tokenNameError(name);
  if (bad) throw actionRequestValidation([bad]);
  const created = await ctx.serviceTokens.create(principal, name);
  if (created === 'exists') {
    throw versionConflict(
      `service_account_token-${principal}/${name}`,
      'version conflict, document already exists (current version [1])',
      SECURITY_INDEX,
      '_na_',
      0,
    );
  }
  return ok({ created: true, token: created });
}

async function deleteToken(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['namespace', 'service', 'name', 'refresh']);
  checkRefresh(req);
  const found = await ctx.serviceTokens.delete(principalOf(req), req.params.name!);
  return ok({ found }, found ? 200 : 404);
}

export function serviceAccountRoutes(ctx: SecurityContext): SecurityRoute[] {
  const get = (req: SecurityRequest) => getAccounts(req);
  const create = (req: SecurityRequest) => createToken(ctx, req);
  const base = '/_security/service/:namespace/:service/credential';
  return [
    { method: 'GET', path: '/_security/service', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/service/:namespace', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/service/:namespace/:service', action: `${A}/get`, handler: get },
    { method: 'GET', path: base, action: `${A}/credential/get`, handler: (req) => credentials(ctx, req) },
    { method: 'POST', path: `${base}/token`, action: `${A}/token/create`, handler: create },
    { method: 'PUT', path: `${base}/token/:name`, action: `${A}/token/create`, handler: create },
    { method: 'POST', path: `${base}/token/:name`, action: `${A}/token/create`, handler: create },
    {
      method: 'DELETE',
      path: `${base}/token/:name`,
      action: `${A}/token/delete`,
      handler: (req) => deleteToken(ctx, req),
    },
    {
      method: 'POST',
      path: `${base}/token/:name/_clear_cache`,
      action: 'cluster:admin/ext/security/service_account/token/clear_cache',
      handler(req) {
        checkParams(req, ['namespace', 'service', 'name']);
        ctx.serviceTokens.clearCache(principalOf(req), listParam(req.params.name));
        return ok(clearCacheBody(ctx.host));
      },
    },
  ];
}
