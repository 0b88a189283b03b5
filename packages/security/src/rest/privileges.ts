/**
 * What a user may do: `_authenticate`, `GET /_security/user/_privileges`,
 * `_has_privileges`, and the built-in privilege names.
 */
import { illegalArgument, parseException } from '@shoal/protocol';
import { type Authentication, authenticateBody } from '../authc/authentication.ts';
import { CLUSTER_PRIVILEGE_NAMES } from '../authz/cluster-privileges.ts';
import { INDEX_PRIVILEGE_NAMES } from '../authz/index-privileges.ts';
import { checkPrivileges } from '../authz/privilege-check.ts';
import type { ApplicationPrivileges, FieldSecurity, IndicesPrivileges } from '../authz/role-descriptor.ts';
import { permissionOf, type SecurityContext } from '../context.ts';
import { checkParams, ok, type SecurityRequest, type SecurityRoute } from './route.ts';

const A = 'cluster:admin/ext/security';

/**
 * A role set's application entries as GET _privileges lists them: the privileges granted on
 * the same resources together, then the resources given the same privileges together.
 */
function mergeApplications(entries: readonly ApplicationPrivileges[]): ApplicationPrivileges[] {
  const group = (list: ApplicationPrivileges[], by: 'resources' | 'privileges') => {
    const other = by === 'resources' ? 'privileges' : 'resources';
    const out = new Map<string, ApplicationPrivileges>();
    for (const e of list) {
      const key = JSON.stringify([e.application, [...new Set(e[by])].sort()]);
      const found = out.get(key);
      if (found) found[other] = [...new Set([...found[other], ...e[other]])];
      else out.set(key, { ...e, [by]: [...new Set(e[by])], [other]: [...new Set(e[other])] });
    }
    return [...out.values()];
  };
  return group(group([...entries], 'resources'), 'privileges');
}

interface IndexEntry {
  names: string[];
  privileges: string[];
  allowRestricted: boolean;
  /** Every merged entry's `field_security` (null: one entry has none, so every field). */
  fieldSecurity: FieldSecurity[] | null;
  /** Every merged entry's query (null: one entry has none, so every document). */
  queries: string[] | null;
}

function newEntry(names: string[], privileges: string[], ip: IndicesPrivileges): IndexEntry {
  return {
    names,
    privileges,
    allowRestricted: ip.allowRestrictedIndices,
    fieldSecurity: ip.fieldSecurity ? [ip.fieldSecurity] : null,
    queries: ip.query !== undefined ? [ip.query] : null,
  };
}

/** Roles' entries for the same names and privileges: their restrictions together. */
function mergeRestrictions(entry: IndexEntry, ip: IndicesPrivileges): void {
  if (!ip.fieldSecurity) entry.fieldSecurity = null;
  else if (
    entry.fieldSecurity &&
    !entry.fieldSecurity.some((f) => JSON.stringify(f) === JSON.stringify(ip.fieldSecurity))
  )
    entry.fieldSecurity.push(ip.fieldSecurity);
  if (ip.query === undefined) entry.queries = null;
  else if (entry.queries && !entry.queries.includes(ip.query)) entry.queries.push(ip.query);
}

/** GetUserPrivilegesResponse.Indices: `field_security` and `query` only when they restrict. */
function indexEntryJson(e: IndexEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { names: e.names, privileges: e.privileges };
  if (e.fieldSecurity) {
    out.field_security = e.fieldSecurity.map((f) => {
      const g: Record<string, unknown> = {};
      if (f.grant?.length) g.grant = f.grant;
      if (f.except?.length) g.except = f.except;
      return g;
    });
  }
  if (e.queries) out.query = e.queries;
  out.allow_restricted_indices = e.allowRestricted;
  return out;
}

async function userPrivileges(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, []);
  // A key with descriptors of its own has two layers of privileges, which no one list shows.
  if (auth.apiKey && ((await ctx.apiKeys.store.get(auth.apiKey.id))?.roleDescriptors.length ?? 0) > 0) {
    throw illegalArgument(
      'Cannot retrieve privileges for API keys with assigned role descriptors. Please use the Get API key information API https://ela.st/es-api-get-api-key',
    );
  }
  const role = await permissionOf(ctx, auth);
  const cluster = new Set<string>();
  const runAs = new Set<string>();
  const indices = new Map<string, IndexEntry>();
  const applicationEntries: ApplicationPrivileges[] = [];
  const global: Record<string, unknown>[] = [];
  for (const d of role.descriptors) {
    // GetUserPrivilegesResponse: one object per configurable privilege, under its category.
    if (d.global?.manageApplications)
      global.push({ application: { manage: { applications: d.global.manageApplications } } });
    if (d.global?.writeProfileApplications)
      global.push({ profile: { write: { applications: d.global.writeProfileApplications } } });
    for (const c of d.cluster) cluster.add(c);
    for (const r of d.runAs) runAs.add(r);
    for (const ip of d.indices) {
      // One entry per set of names, privileges and restricted-ness, as the roles merge them.
      const names = [...new Set(ip.names)].sort();
      const privileges = [...new Set(ip.privileges)].sort();
      const key = JSON.stringify([names, privileges, ip.allowRestrictedIndices]);
      const entry = indices.get(key);
      if (entry) mergeRestrictions(entry, ip);
      else indices.set(key, newEntry(names, privileges, ip));
    }
    applicationEntries.push(...d.applications);
  }
  return ok({
    cluster: [...cluster].sort(),
    global,
    indices: [...indices.values()].map(indexEntryJson),
    applications: mergeApplications(applicationEntries),
    run_as: [...runAs].sort(),
  });
}

interface IndexRequest {
  names: string[];
  privileges: string[];
  allowRestricted: boolean;
}

interface ApplicationRequest {
  application: string;
  privileges: string[];
  resources: string[];
}

function strings(field: string, v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw parseException(
    `failed to parse privileges check. expected field [${field}] value to be a string or an array of strings`,
  );
}

function parseHasPrivileges(body: unknown): {
  cluster: string[];
  index: IndexRequest[];
  application: ApplicationRequest[];
} {
  const out = {
    cluster: [] as string[],
    index: [] as IndexRequest[],
    application: [] as ApplicationRequest[],
  };
  if (body === undefined) return out;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw parseException('failed to parse privileges check. expected an object');
  for (const [k, v] of Object.entries(body)) {
    if (k === 'cluster') out.cluster = strings(k, v);
    else if (k === 'index') {
      if (!Array.isArray(v))
        throw parseException('failed to parse privileges check. expected field [index] value to be an array');
      out.index = v.map((e) => {
        const entry = e as Record<string, unknown>;
        const r: IndexRequest = { names: [], privileges: [], allowRestricted: false };
        for (const [ek, ev] of Object.entries(entry ?? {})) {
          if (ek === 'names') r.names = strings(ek, ev);
          else if (ek === 'privileges') r.privileges = strings(ek, ev);
          else if (ek === 'allow_restricted_indices' && typeof ev === 'boolean') r.allowRestricted = ev;
          else
            throw parseException(
              `failed to parse indices privileges for role [has_privileges]. unexpected field [${ek}]`,
            );
        }
        return r;
      });
    } else if (k === 'application') {
      if (!Array.isArray(v))
        throw parseException(
          'failed to parse privileges check. expected field [application] value to be an array',
        );
      out.application = v.map((e) => {
        const entry = (e ?? {}) as Record<string, unknown>;
        for (const ek of Object.keys(entry)) {
          if (!['application', 'privileges', 'resources'].includes(ek)) {
            throw parseException(
              `failed to parse application privileges for role [has_privileges]. unexpected field [${ek}]`,
            );
          }
        }
        return {
          application: String(entry.application ?? ''),
          privileges: strings('privileges', entry.privileges ?? []),
          resources: strings('resources', entry.resources ?? []),
        };
      });
    } else throw parseException(`failed to parse privileges check. unexpected field [${k}]`);
  }
  return out;
}

async function hasPrivileges(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['user']);
  const user = req.params.user;
  if (user !== undefined && user !== auth.user.username) {
    throw illegalArgument('users may only check the privileges of their own account');
  }
  const asked = parseHasPrivileges(req.body && req.body.length > 0 ? req.json() : undefined);
  if (asked.cluster.length === 0 && asked.index.length === 0 && asked.application.length === 0) {
    throw illegalArgument('must specify at least one privilege');
  }
  const role = await permissionOf(ctx, auth);
  const stored = asked.application.length > 0 ? await ctx.privileges.list() : [];
  const { all, cluster, index, application } = checkPrivileges(role, asked, stored);
  return ok({ username: auth.user.username, has_all_requested: all, cluster, index, application });
}

export function privilegeRoutes(ctx: SecurityContext): SecurityRoute[] {
  const has = (req: SecurityRequest, auth: Authentication) => hasPrivileges(ctx, req, auth);
  const hasAction = `${A}/user/has_privileges`;
  return [
    {
      method: 'GET',
      path: '/_security/_authenticate',
      action: `${A}/user/authenticate`,
      handler(req, auth) {
        checkParams(req, []);
        return ok(authenticateBody(auth));
      },
    },
    {
      method: 'GET',
      path: '/_security/user/_privileges',
      action: `${A}/user/list_privileges`,
      handler: (req, auth) => userPrivileges(ctx, req, auth),
    },
    { method: 'GET', path: '/_security/user/_has_privileges', action: hasAction, handler: has },
    { method: 'POST', path: '/_security/user/_has_privileges', action: hasAction, handler: has },
    { method: 'GET', path: '/_security/user/:user/_has_privileges', action: hasAction, handler: has },
    { method: 'POST', path: '/_security/user/:user/_has_privileges', action: hasAction, handler: has },
    {
      method: 'GET',
      path: '/_security/privilege/_builtin',
      action: `${A}/privilege/builtin/get`,
      handler(req) {
        checkParams(req, []);
        return ok({
          cluster: CLUSTER_PRIVILEGE_NAMES,
          index: INDEX_PRIVILEGE_NAMES,
          remote_cluster: ['monitor_enrich', 'monitor_stats'],
        });
      },
    },
  ];
}
