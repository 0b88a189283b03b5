/**
 * The role APIs: get, put, delete and `_clear_cache` (`/_security/role/…`). Built-in roles are
 * listed and cannot be changed; native roles live in the security index.
 */
import { actionRequestValidation, illegalArgument } from '@shoal/protocol';
import { RESERVED_ROLES } from '../authz/reserved-roles.ts';
import { descriptorJson, parseRoleDescriptor, validateDescriptor } from '../authz/role-descriptor.ts';
import { checkRoleQueries } from '../authz/role-query.ts';
import { clearCacheBody, type SecurityContext } from '../context.ts';
import {
  byNames,
  checkParams,
  checkRefresh,
  listParam,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';
import { roleNameError } from './validation.ts';

const A = 'cluster:admin/ext/security/role';

async function getRoles(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name']);
  return byNames(
    listParam(req.params.name),
    async () => {
      const natives = (await ctx.roles.listNative()).sort((a, b) => (a.name < b.name ? -1 : 1));
      return [
        ...[...RESERVED_ROLES].map(([name, d]): [string, unknown] => [name, descriptorJson(d)]),
        ...natives.map((n): [string, unknown] => [n.name, descriptorJson(n.descriptor)]),
      ];
    },
    async (name) => {
      const d = await ctx.roles.descriptor(name);
      return d && descriptorJson(d);
    },
  );
}

async function putRole(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name', 'refresh']);
  checkRefresh(req);
  const name = req.params.name!;
  const descriptor = parseRoleDescriptor(name, requiredObjectBody(req));
  const errors: string[] = [];
  const nameErr = roleNameError(name);
  if (nameErr) errors.push(nameErr);
  else if (RESERVED_ROLES.has(name)) errors.push(`Role [${name}] is reserved and may not be used.`);
  errors.push(...validateDescriptor(descriptor));
  if (errors.length > 0) throw actionRequestValidation(errors);
  checkRoleQueries(descriptor);
  const r = await ctx.roles.put(name, descriptor);
  return ok({ role: { created: r === 'created' } });
}

async function deleteRole(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name', 'refresh']);
  checkRefresh(req);
  const name = req.params.name!;
  if (RESERVED_ROLES.has(name)) throw illegalArgument(`role [${name}] is reserved and cannot be deleted`);
  const found = await ctx.roles.delete(name);
  return ok({ found }, found ? 200 : 404);
}

function clearRoleCache(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name']);
  const names = listParam(req.params.name);
  ctx.roles.invalidate(names.includes('*') ? undefined : names);
  return ok(clearCacheBody(ctx.host));
}

export function roleRoutes(ctx: SecurityContext): SecurityRoute[] {
  const get = (req: SecurityRequest) => getRoles(ctx, req);
  const put = (req: SecurityRequest) => putRole(ctx, req);
  return [
    { method: 'GET', path: '/_security/role', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/role/:name', action: `${A}/get`, handler: get },
    { method: 'PUT', path: '/_security/role/:name', action: `${A}/put`, handler: put },
    { method: 'POST', path: '/_security/role/:name', action: `${A}/put`, handler: put },
    {
      method: 'DELETE',
      path: '/_security/role/:name',
      action: `${A}/delete`,
      handler: (req) => deleteRole(ctx, req),
    },
    {
      method: 'POST',
      path: '/_security/role/:name/_clear_cache',
      action: `${A}/clear_cache`,
      handler: (req) => clearRoleCache(ctx, req),
    },
  ];
}
