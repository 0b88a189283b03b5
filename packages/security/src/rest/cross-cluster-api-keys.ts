/**
 * Cross-cluster API keys (`POST /_security/cross_cluster/api_key`,
 * `PUT /_security/cross_cluster/api_key/{id}`): a key a remote cluster uses to search or
 * replicate this one's indices. Its `access` becomes one role descriptor named `cross_cluster`
 * (CrossClusterApiKeyRoleDescriptorBuilder); it has no `limited_by`, and it never
 * authenticates a REST request.
 */
import { actionRequestValidation, illegalArgument } from '@shoal/protocol';
import type { ApiKeyChange } from '../authc/api-keys.ts';
import type { Authentication } from '../authc/authentication.ts';
import type { FieldSecurity, IndicesPrivileges, RoleDescriptor } from '../authz/role-descriptor.ts';
import type { SecurityContext } from '../context.ts';
import {
  isObject,
  type KeyFields,
  metadataErrors,
  nameErrors,
  readKeyField,
  typeError,
  unknownField,
} from './api-key-body.ts';
import { updateKeys } from './api-key-update.ts';
import {
  checkParams,
  checkRefresh,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

const A = 'cluster:admin/ext/security/cross_cluster/api_key';
const SEARCH_PRIVILEGES = ['read', 'read_cross_cluster', 'view_index_metadata'];
const REPLICATION_PRIVILEGES = ['cross_cluster_replication', 'cross_cluster_replication_internal'];

interface AccessEntry {
  names: string[];
  allowRestrictedIndices: boolean;
  fieldSecurity?: FieldSecurity;
  /** The DLS query as JSON text, as a role keeps it. */
  query?: string;
}

const dlsOrFls = (e: AccessEntry) => e.fieldSecurity !== undefined || e.query !== undefined;

function parseEntries(parser: string, kind: 'search' | 'replication', v: unknown): AccessEntry[] {
  if (!Array.isArray(v)) throw typeError(parser, kind);
  return v.map((e) => {
    if (!isObject(e)) throw typeError(parser, kind);
    const entry: AccessEntry = { names: [], allowRestrictedIndices: false };
    let named = false;
    for (const [k, val] of Object.entries(e)) {
      if (k === 'names') {
        if (typeof val === 'string') entry.names = [val];
        else if (Array.isArray(val) && val.every((x) => typeof x === 'string')) entry.names = val as string[];
        else throw typeError(parser, 'names');
        named = true;
      } else if (k === 'allow_restricted_indices') {
        if (typeof val !== 'boolean') throw typeError(parser, k);
        entry.allowRestrictedIndices = val;
      } else if (k === 'query') {
        if (val === null) continue;
        if (typeof val === 'string') entry.query = val;
        else if (isObject(val)) entry.query = JSON.stringify(val);
        else throw typeError(parser, k);
      } else if (k === 'field_security') {
        if (val === null) continue;
        entry.fieldSecurity = parseFieldSecurity(parser, val);
      } else
        throw illegalArgument(
          `failed to parse indices privileges for role [cross_cluster]. unexpected field [${k}]`,
        );
    }
    if (!named) {
      throw illegalArgument(
        'failed to parse indices privileges for role [cross_cluster]. missing required [names] field',
      );
    }
    return entry;
  });
}

function parseFieldSecurity(parser: string, v: unknown): FieldSecurity {
  if (!isObject(v)) throw typeError(parser, 'field_security');
  const out: FieldSecurity = {};
  for (const [k, val] of Object.entries(v)) {
    const list = typeof val === 'string' ? [val] : val;
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw typeError(parser, k);
    if (k === 'grant') out.grant = list as string[];
    else if (k === 'except') out.except = list as string[];
    else {
      throw illegalArgument(
        `failed to parse indices privileges for role [cross_cluster]. expected field [field_security] to contain [grant] and/or [except], but found [${k}]`,
      );
    }
  }
  return out;
}

/** The `access` object: its echo (as `GET` shows it) and the role descriptor it grants. */
function parseAccess(
  parser: string,
  v: unknown,
): { access: Record<string, unknown>; descriptor: RoleDescriptor } {
  if (v === null) throw illegalArgument("access doesn't support values of type: VALUE_NULL");
  if (!isObject(v)) throw typeError(parser, 'access');
  let search: AccessEntry[] = [];
  let replication: AccessEntry[] = [];
  for (const [k, val] of Object.entries(v)) {
    if (k === 'search') search = parseEntries(parser, k, val);
    else if (k === 'replication') replication = parseEntries(parser, k, val);
    else throw illegalArgument(`[cross_cluster_api_key_request_access] unknown field [${k}]`);
  }
  if (search.length === 0 && replication.length === 0) {
    throw illegalArgument('must specify non-empty access for either [search] or [replication]');
  }
  if (replication.some(dlsOrFls)) {
    throw illegalArgument('replication does not support document or field level security');
  }
  if (replication.length > 0 && search.some(dlsOrFls)) {
    throw illegalArgument(
      'search does not support document or field level security if replication is assigned',
    );
  }
  const cluster: string[] = [];
  const indices: IndicesPrivileges[] = [];
  const access: Record<string, unknown> = {};
  const echo = (e: AccessEntry) => {
    const out: Record<string, unknown> = { names: e.names };
    if (e.fieldSecurity) out.field_security = e.fieldSecurity;
    if (e.query !== undefined) out.query = e.query;
    out.allow_restricted_indices = e.allowRestrictedIndices;
    return out;
  };
  if (search.length > 0) {
    cluster.push('cross_cluster_search', 'monitor_enrich');
    for (const e of search) {
      const ip: IndicesPrivileges = {
        names: e.names,
        privileges: SEARCH_PRIVILEGES,
        allowRestrictedIndices: e.allowRestrictedIndices,
      };
      if (e.fieldSecurity) ip.fieldSecurity = e.fieldSecurity;
      if (e.query !== undefined) ip.query = e.query;
      indices.push(ip);
    }
    access.search = search.map(echo);
  }
  if (replication.length > 0) {
    cluster.push('cross_cluster_replication');
    for (const e of replication) {
      indices.push({
        names: e.names,
        privileges: REPLICATION_PRIVILEGES,
        allowRestrictedIndices: e.allowRestrictedIndices,
      });
    }
    access.replication = replication.map(echo);
  }
  return { access, descriptor: { cluster, indices, applications: [], runAs: [], metadata: {} } };
}

/** Only a user signed in as itself makes or changes a cross-cluster key. */
function checkNotApiKey(auth: Authentication, what: string): void {
  if (auth.apiKey) {
    throw illegalArgument(
      `authentication via API key not supported: An API key cannot be used to ${what} a cross-cluster API key`,
    );
  }
}

async function createCrossClusterKey(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const parser = 'cross_cluster_api_key_request';
  const fields: KeyFields = {};
  let parsed: ReturnType<typeof parseAccess> | undefined;
  for (const [k, v] of Object.entries(requiredObjectBody(req))) {
    if (readKeyField(parser, k, v, fields, ['name', 'expirationMs', 'metadata'])) continue;
    if (k === 'access') parsed = parseAccess(parser, v);
    else throw unknownField(req, parser, k);
  }
  if (fields.name === undefined) throw illegalArgument('Required [name]');
  if (!parsed) throw illegalArgument('Required [access]');
  const errors = [...nameErrors(fields.name), ...metadataErrors(fields.metadata)];
  if (errors.length > 0) throw actionRequestValidation(errors);
  checkNotApiKey(auth, 'create');
  const created = await ctx.apiKeys.create(auth, [], {
    name: fields.name,
    expirationMs: fields.expirationMs,
    roleDescriptors: [{ name: 'cross_cluster', descriptor: parsed.descriptor }],
    metadata: fields.metadata ?? {},
    keyType: 'cross_cluster',
    access: parsed.access,
  });
  return ok(created);
}

async function updateCrossClusterKey(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['id', 'refresh']);
  checkRefresh(req);
  const parser = 'update_cross_cluster_api_key_request';
  const fields: KeyFields = {};
  let parsed: ReturnType<typeof parseAccess> | undefined;
  for (const [k, v] of Object.entries(requiredObjectBody(req))) {
    if (readKeyField(parser, k, v, fields, ['expirationMs', 'metadata'])) continue;
    if (k === 'access') parsed = parseAccess(parser, v);
    else throw unknownField(req, parser, k);
  }
  const errors = metadataErrors(fields.metadata);
  if (!parsed && fields.metadata === undefined)
    errors.push('must update either [access] or [metadata] for cross-cluster API keys');
  if (errors.length > 0) throw actionRequestValidation(errors);
  checkNotApiKey(auth, 'update');
  const change: ApiKeyChange = {};
  if (parsed) {
    change.roleDescriptors = [{ name: 'cross_cluster', descriptor: parsed.descriptor }];
    change.access = parsed.access;
  }
  if (fields.metadata) change.metadata = fields.metadata;
  if (fields.expirationMs !== undefined) change.expirationMs = fields.expirationMs;
  const r = await updateKeys(ctx, auth, [req.params.id!], 'cross_cluster', change);
  if (r.first) throw r.first;
  return ok({ updated: r.updated.length > 0 });
}

export function crossClusterApiKeyRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: '/_security/cross_cluster/api_key',
      action: `${A}/create`,
      handler: (req, auth) => createCrossClusterKey(ctx, req, auth),
    },
    {
      method: 'PUT',
      path: '/_security/cross_cluster/api_key/:id',
      action: `${A}/update`,
      handler: (req, auth) => updateCrossClusterKey(ctx, req, auth),
    },
  ];
}
