/**
 * The application privilege APIs: `PUT|POST /_security/privilege`,
 * `GET /_security/privilege[/{application}[/{name}]]`,
 * `DELETE /_security/privilege/{application}/{name}` and
 * `POST /_security/privilege/{application}/_clear_cache`.
 */
import { actionRequestValidation, illegalArgument, parseException, xContentParse } from '@shoal/protocol';
import { type ApplicationPrivilegeDescriptor, descriptorErrors } from '../authz/application-privileges.ts';
import { compilePatterns } from '../authz/patterns.ts';
import { clearCacheBody, type SecurityContext } from '../context.ts';
import {
  checkParams,
  checkRefresh,
  listParam,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

const A = 'cluster:admin/ext/security/privilege';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ApplicationPrivilegeDescriptor.parse with the application and name its keys give. */
function parsePrivilege(application: string, name: string, body: unknown): ApplicationPrivilegeDescriptor {
  if (!isObject(body)) {
    throw parseException(`failed to parse privilege [${application}:${name}]. expected an object`);
  }
  const d: ApplicationPrivilegeDescriptor = { application, name, actions: [], metadata: {} };
  for (const [k, v] of Object.entries(body)) {
    if (k === 'actions') {
      if (!Array.isArray(v) || !v.every((a) => typeof a === 'string')) {
        throw xContentParse(1, 1, '[application_privilege] failed to parse field [actions]');
      }
      d.actions = v as string[];
    } else if (k === 'metadata') {
      if (!isObject(v)) throw xContentParse(1, 1, '[application_privilege] failed to parse field [metadata]');
      d.metadata = v;
    } else if (k === 'application') {
      if (v !== application) {
        throw illegalArgument(
          `privilege application [${String(v)}] in source does not match the provided application [${application}]`,
        );
      }
    } else if (k === 'name') {
      if (v !== name) {
        throw illegalArgument(
          `privilege name [${String(v)}] in source does not match the provided name [${name}]`,
        );
      }
    } else throw xContentParse(1, 1, `[application_privilege] unknown field [${k}]`);
  }
  return d;
}

async function putPrivileges(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const privileges: ApplicationPrivilegeDescriptor[] = [];
  for (const [application, byName] of Object.entries(requiredObjectBody(req))) {
    if (!isObject(byName))
      throw parseException(`failed to parse privileges of application [${application}]. expected an object`);
    for (const [name, body] of Object.entries(byName))
      privileges.push(parsePrivilege(application, name, body));
  }
  const errors = privileges.length === 0 ? ['At least one application privilege must be provided'] : [];
  for (const p of privileges) errors.push(...descriptorErrors(p));
  if (errors.length > 0) throw actionRequestValidation(errors);
  const out: Record<string, Record<string, { created: boolean }>> = {};
  for (const p of privileges) {
    const r = await ctx.privileges.put(p);
    out[p.application] ??= {};
    out[p.application]![p.name] = { created: r === 'created' };
  }
  // Roles name privileges: what they grant may have changed.
  ctx.roles.invalidate();
  return ok(out);
}

function privilegeJson(p: ApplicationPrivilegeDescriptor) {
  return { application: p.application, name: p.name, actions: p.actions, metadata: p.metadata };
}

async function getPrivileges(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['application', 'name']);
  const application = req.params.application;
  const names = listParam(req.params.name);
  const appMatches = application === undefined ? () => true : compilePatterns(listParam(application));
  const nameMatches = names.length === 0 ? () => true : compilePatterns(names);
  const found = (await ctx.privileges.list()).filter((p) => appMatches(p.application) && nameMatches(p.name));
  const out: Record<string, Record<string, unknown>> = {};
  for (const p of found) {
    out[p.application] ??= {};
    out[p.application]![p.name] = privilegeJson(p);
  }
  // Named privileges none of which exist are a 404 (`{}`); the whole list is never one.
  return ok(out, found.length === 0 && application !== undefined ? 404 : 200);
}

async function deletePrivileges(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['application', 'name', 'refresh']);
  checkRefresh(req);
  const application = req.params.application!;
  const out: Record<string, Record<string, { found: boolean }>> = { [application]: {} };
  let any = false;
  for (const name of listParam(req.params.name)) {
    const found = await ctx.privileges.delete(application, name);
    any ||= found;
    out[application]![name] = { found };
  }
  ctx.roles.invalidate();
  return ok(out, any ? 200 : 404);
}

export function applicationPrivilegeRoutes(ctx: SecurityContext): SecurityRoute[] {
  const put = (req: SecurityRequest) => putPrivileges(ctx, req);
  const get = (req: SecurityRequest) => getPrivileges(ctx, req);
  return [
    { method: 'PUT', path: '/_security/privilege', action: `${A}/put`, handler: put },
    { method: 'POST', path: '/_security/privilege', action: `${A}/put`, handler: put },
    { method: 'GET', path: '/_security/privilege', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/privilege/:application', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/privilege/:application/:name', action: `${A}/get`, handler: get },
    {
      method: 'DELETE',
      path: '/_security/privilege/:application/:name',
      action: `${A}/delete`,
      handler: (req) => deletePrivileges(ctx, req),
    },
    {
      method: 'POST',
      path: '/_security/privilege/:application/_clear_cache',
      action: `${A}/cache/clear`,
      handler(req) {
        checkParams(req, ['application']);
        ctx.privileges.invalidate();
        ctx.roles.invalidate();
        return ok(clearCacheBody(ctx.host));
      },
    },
  ];
}
