/**
 * `GET|POST /_security/profile/_has_privileges` (ProfileHasPrivilegesAction): which of the
 * given profiles' users hold every privilege asked for, by the roles stored in each profile
 * (a disabled profile counts too); profiles not found are errors.
 */
import { actionRequestValidation, errorFragment, parseException } from '@shoal/protocol';
import { compilePatterns } from '../authz/patterns.ts';
import { hasClusterPrivilege, hasIndexPrivilege } from '../authz/privilege-check.ts';
import type { Permission } from '../authz/role.ts';
import type { SecurityContext } from '../context.ts';
import { type ProfileService, profileNotFound } from '../profiles/profile-service.ts';
import { checkFields } from './object-parser.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest } from './route.ts';

interface PrivilegesToCheck {
  cluster: string[];
  index: { names: string[]; privileges: string[] }[];
  application: { application: string; privileges: string[]; resources: string[] }[];
}

function strings(field: string, v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw parseException(
    `failed to parse privileges check. expected field [${field}] value to be a string or an array of strings`,
  );
}

function entries(field: string, v: unknown): Record<string, unknown>[] {
  if (!Array.isArray(v))
    throw parseException(`failed to parse privileges check. expected field [${field}] value to be an array`);
  return v.map((e) => (typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : {}));
}

function parsePrivileges(v: unknown): PrivilegesToCheck {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw parseException('failed to parse privileges check. expected an object');
  const out: PrivilegesToCheck = { cluster: [], index: [], application: [] };
  for (const [k, val] of Object.entries(v)) {
    if (k === 'cluster') out.cluster = strings('cluster', val);
    else if (k === 'index') {
      out.index = entries('index', val).map((e) => ({
        names: strings('names', e.names ?? []),
        privileges: strings('privileges', e.privileges ?? []),
      }));
    } else if (k === 'application') {
      out.application = entries('application', val).map((e) => ({
        application: String(e.application ?? ''),
        privileges: strings('privileges', e.privileges ?? []),
        resources: strings('resources', e.resources ?? []),
      }));
    } else throw parseException(`failed to parse privileges check. unexpected field [${k}]`);
  }
  return out;
}

/** Whether the permission holds every privilege asked for. */
export function holdsAll(role: Permission, asked: PrivilegesToCheck): boolean {
  if (!asked.cluster.every((p) => hasClusterPrivilege(role, p))) return false;
  for (const r of asked.index) {
    for (const name of r.names)
      if (!r.privileges.every((p) => hasIndexPrivilege(role, name, p))) return false;
  }
  for (const r of asked.application) {
    for (const resource of r.resources) {
      for (const p of r.privileges) {
        const granted = role.descriptors.some((d) =>
          d.applications.some(
            (a) =>
              compilePatterns([a.application])(r.application) &&
              compilePatterns(a.resources)(resource) &&
              (a.privileges.includes('*') || a.privileges.includes('all') || a.privileges.includes(p)),
          ),
        );
        if (!granted) return false;
      }
    }
  }
  return true;
}

export async function profileHasPrivileges(
  ctx: SecurityContext,
  profiles: ProfileService,
  req: SecurityRequest,
) {
  checkParams(req, []);
  const body = requiredObjectBody(req);
  checkFields(req, 'profile_has_privileges_request', body, ['uids', 'privileges']);
  const problems: string[] = [];
  const uids = body.uids === undefined ? undefined : strings('uids', body.uids);
  if (uids === undefined) problems.push('profile uids must not be null');
  else if (uids.length === 0) problems.push('profile uids list must not be empty');
  const asked = body.privileges === undefined ? undefined : parsePrivileges(body.privileges);
  if (asked === undefined) problems.push('privileges to check must not be null');
  else if (asked.cluster.length + asked.index.length + asked.application.length === 0)
    problems.push('must specify at least one privilege');
  if (problems.length > 0) throw actionRequestValidation(problems);
  const granted: string[] = [];
  const details: Record<string, unknown> = {};
  for (const uid of new Set(uids)) {
    const p = await profiles.get(uid);
    if (!p) {
      details[uid] = errorFragment(profileNotFound());
      continue;
    }
    if (holdsAll(await ctx.roles.role(p.user.roles), asked!)) granted.push(uid);
  }
  const out: Record<string, unknown> = { has_privilege_uids: granted };
  const count = Object.keys(details).length;
  if (count > 0) out.errors = { count, details };
  return ok(out);
}
