/**
 * The role-mapping APIs (`/_security/role_mapping/…`): put, get and delete. The rules and the
 * role templates (mustache scripts) are checked when the mapping is put
 * (authz/role-mapping.ts, authz/role-templates.ts).
 */
import { actionRequestValidation, parseException } from '@shoal/protocol';
import { parseRules, type RoleMapping, type RoleMappingRule } from '../authz/role-mapping.ts';
import {
  checkRoleTemplate,
  parseRoleTemplate,
  type RoleTemplate,
  roleTemplateJson,
} from '../authz/role-templates.ts';
import type { SecurityContext } from '../context.ts';
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

const A = 'cluster:admin/ext/security/role_mapping';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseMapping(name: string, body: Record<string, unknown>): RoleMapping {
  const fail = (what: string): never => {
    throw parseException(`failed to parse role-mapping [${name}]. ${what}`);
  };
  let enabled: boolean | undefined;
  let rules: RoleMappingRule | undefined;
  let roles: string[] = [];
  let roleTemplates: RoleTemplate[] = [];
  let metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'enabled') {
      if (typeof v !== 'boolean') fail(`expected field [enabled] to be a boolean`);
      enabled = v as boolean;
    } else if (k === 'roles') {
      if (!Array.isArray(v) || !v.every((r) => typeof r === 'string'))
        fail('expected field [roles] to be an array of strings');
      roles = v as string[];
    } else if (k === 'role_templates') {
      if (!Array.isArray(v) || !v.every(isObject))
        fail('expected field [role_templates] to be an array of objects');
      roleTemplates = (v as unknown[]).map((t) => parseRoleTemplate(name, t));
    } else if (k === 'rules') rules = parseRules(v);
    else if (k === 'metadata') {
      if (!isObject(v)) fail('expected field [metadata] to be an object');
      metadata = v as Record<string, unknown>;
    } else if (k === 'run_as') {
      if (!Array.isArray(v)) fail('expected field [run_as] to be an array of strings');
    } else fail(`unexpected field [${k}]`);
  }
  if (enabled === undefined) fail('missing field [enabled]');
  if (rules === undefined) fail('missing field [rules]');
  return { enabled: enabled!, roles, roleTemplates, rules: rules!, metadata };
}

function mappingJson(m: RoleMapping): Record<string, unknown> {
  const out: Record<string, unknown> = { enabled: m.enabled };
  if (m.roleTemplates.length > 0) out.role_templates = m.roleTemplates.map(roleTemplateJson);
  else out.roles = m.roles;
  out.rules = m.rules;
  out.metadata = m.metadata;
  return out;
}

async function putMapping(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name', 'refresh']);
  checkRefresh(req);
  const name = req.params.name!;
  const mapping = parseMapping(name, requiredObjectBody(req));
  const errors: string[] = [];
  if (mapping.roles.length === 0 && mapping.roleTemplates.length === 0) {
    errors.push('role-mapping roles or role-templates are missing');
  }
  if (mapping.roles.length > 0 && mapping.roleTemplates.length > 0) {
    errors.push('role-mapping cannot have both roles and role-templates');
  }
  if (Object.keys(mapping.metadata).some((k) => k.startsWith('_')))
    errors.push('metadata keys may not start with [_]');
  if (errors.length > 0) throw actionRequestValidation(errors);
  for (const t of mapping.roleTemplates) checkRoleTemplate(t);
  const r = await ctx.roleMappings.put(name, mapping);
  return ok({ role_mapping: { created: r === 'created' } });
}

async function getMappings(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name']);
  return byNames(
    listParam(req.params.name),
    async () =>
      (await ctx.roleMappings.list())
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((m): [string, unknown] => [m.name, mappingJson(m.mapping)]),
    async (name) => {
      const m = await ctx.roleMappings.get(name);
      return m && mappingJson(m);
    },
  );
}

async function deleteMapping(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['name', 'refresh']);
  checkRefresh(req);
  const found = await ctx.roleMappings.delete(req.params.name!);
  return ok({ found }, found ? 200 : 404);
}

export function roleMappingRoutes(ctx: SecurityContext): SecurityRoute[] {
  const get = (req: SecurityRequest) => getMappings(ctx, req);
  const put = (req: SecurityRequest) => putMapping(ctx, req);
  return [
    { method: 'GET', path: '/_security/role_mapping', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/role_mapping/:name', action: `${A}/get`, handler: get },
    { method: 'PUT', path: '/_security/role_mapping/:name', action: `${A}/put`, handler: put },
    { method: 'POST', path: '/_security/role_mapping/:name', action: `${A}/put`, handler: put },
    {
      method: 'DELETE',
      path: '/_security/role_mapping/:name',
      action: `${A}/delete`,
      handler: (req) => deleteMapping(ctx, req),
    },
  ];
}
