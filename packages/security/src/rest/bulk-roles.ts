/**
 * Bulk role APIs (8.15+): `POST /_security/role` puts several roles, `DELETE /_security/role`
 * deletes several; each role succeeds or fails on its own, and the failures are listed in
 * `errors` (`{"count":N,"details":{"<role>":{"type":…,"reason":…}}}`).
 */
import { actionRequestValidation, illegalArgument, xContentParse } from '@shoal/protocol';
import { RESERVED_ROLES } from '../authz/reserved-roles.ts';
import { descriptorDoc, parseRoleDescriptor, validateDescriptor } from '../authz/role-descriptor.ts';
import { checkRoleQueries } from '../authz/role-query.ts';
import type { SecurityContext } from '../context.ts';
import {
  checkParams,
  checkRefresh,
  errorCause,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';
import { roleNameError } from './validation.ts';

const A = 'cluster:admin/ext/security/role';

/** The response with its empty parts left out, as Elasticsearch writes it. */
function summary(parts: Record<string, string[]>, errors: Record<string, Record<string, unknown>>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parts)) if (v.length > 0) out[k] = v;
  const count = Object.keys(errors).length;
  if (count > 0) out.errors = { count, details: errors };
  return out;
}

function single(body: Record<string, unknown>, parser: string, field: string): unknown {
  for (const k of Object.keys(body)) {
    if (k !== field) throw xContentParse(1, 2, `[${parser}] unknown field [${k}]`);
  }
  if (!(field in body)) throw actionRequestValidation([`${field} is missing`]);
  return body[field];
}

async function bulkPut(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const roles = single(requiredObjectBody(req), 'bulk_put_roles_request', 'roles');
  if (typeof roles !== 'object' || roles === null || Array.isArray(roles)) {
    throw illegalArgument('[roles] must be an object of role names to role descriptors');
  }
  const created: string[] = [];
  const updated: string[] = [];
  const noop: string[] = [];
  const errors: Record<string, Record<string, unknown>> = {};
  for (const [name, body] of Object.entries(roles)) {
    try {
      const descriptor = parseRoleDescriptor(name, body);
      const problems: string[] = [];
      const nameErr = roleNameError(name);
      if (nameErr) problems.push(nameErr);
      else if (RESERVED_ROLES.has(name)) problems.push(`Role [${name}] is reserved and may not be used.`);
      problems.push(...validateDescriptor(descriptor));
      if (problems.length > 0) throw actionRequestValidation(problems);
      checkRoleQueries(descriptor);
      const existing = await ctx.roles.getNative(name);
      if (existing && JSON.stringify(descriptorDoc(existing)) === JSON.stringify(descriptorDoc(descriptor))) {
        noop.push(name);
        continue;
      }
      const r = await ctx.roles.put(name, descriptor);
      (r === 'created' ? created : updated).push(name);
    } catch (e) {
      errors[name] = errorCause(e);
    }
  }
  return ok(summary({ created, updated, noop }, errors));
}

async function bulkDelete(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const names = single(requiredObjectBody(req), 'bulk_delete_roles_request', 'names');
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
    throw illegalArgument('[names] must be an array of role names');
  }
  const deleted: string[] = [];
  const notFound: string[] = [];
  const errors: Record<string, Record<string, unknown>> = {};
  for (const name of names as string[]) {
    if (RESERVED_ROLES.has(name)) {
      errors[name] = errorCause(illegalArgument(`role [${name}] is reserved and cannot be deleted`));
      continue;
    }
    try {
      ((await ctx.roles.delete(name)) ? deleted : notFound).push(name);
    } catch (e) {
      errors[name] = errorCause(e);
    }
  }
  return ok(summary({ deleted, not_found: notFound }, errors));
}

export function bulkRoleRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    { method: 'POST', path: '/_security/role', action: `${A}/bulk_put`, handler: (req) => bulkPut(ctx, req) },
    {
      method: 'DELETE',
      path: '/_security/role',
      action: `${A}/bulk_delete`,
      handler: (req) => bulkDelete(ctx, req),
    },
  ];
}
