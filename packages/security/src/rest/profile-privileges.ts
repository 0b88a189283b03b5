/**
 * `GET|POST /_security/profile/_has_privileges` (ProfileHasPrivilegesAction): which of the
 * given profiles' users hold every privilege asked for, by the roles stored in each profile
 * (a disabled profile counts too), checked as the user `_has_privileges` checks them; profiles
 * not found are errors.
 */
import { actionRequestValidation, errorFragment, parseException } from '@shoal/protocol';
import { checkPrivileges, type PrivilegesToCheck } from '../authz/privilege-check.ts';
import type { SecurityContext } from '../context.ts';
import { type ProfileService, profileNotFound } from '../profiles/profile-service.ts';
import { checkFields } from './object-parser.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest } from './route.ts';

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
  const stored = asked!.application.length > 0 ? await ctx.privileges.list() : [];
  const granted: string[] = [];
  const details: Record<string, unknown> = {};
  for (const uid of new Set(uids)) {
    const p = await profiles.get(uid);
    if (!p) {
      details[uid] = errorFragment(profileNotFound());
      continue;
    }
    if (checkPrivileges(await ctx.roles.role(p.user.roles), asked!, stored).all) granted.push(uid);
  }
  const out: Record<string, unknown> = { has_privilege_uids: granted };
  const count = Object.keys(details).length;
  if (count > 0) out.errors = { count, details };
  return ok(out);
}
