/**
 * The API key APIs: create (`POST|PUT /_security/api_key`), get (`GET /_security/api_key`),
 * invalidate (`DELETE /_security/api_key`) and `_clear_cache`, with Elasticsearch's request
 * validation. Update, grant, query and cross-cluster keys have files of their own.
 */
import { actionRequestValidation, illegalArgument, securityException } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import { compilePatterns } from '../authz/patterns.ts';
import { type RoleDescriptor, validateDescriptor } from '../authz/role-descriptor.ts';
import { checkRoleQueries } from '../authz/role-query.ts';
import { clearCacheBody, permissionOf, type SecurityContext } from '../context.ts';
import {
  boolQuery,
  type KeyFields,
  keyJson,
  metadataErrors,
  nameErrors,
  ownedBy,
  ownerDescriptors,
  readKeyField,
  typeError,
  unknownField,
} from './api-key-body.ts';
import {
  checkParams,
  checkRefresh,
  errorCause,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

const A = 'cluster:admin/ext/security/api_key';

async function createApiKey(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const body = requiredObjectBody(req);
  const fields: KeyFields = {};
  for (const [k, v] of Object.entries(body)) {
    if (
      !readKeyField('api_key_request', k, v, fields, ['name', 'expirationMs', 'metadata', 'role_descriptors'])
    )
      throw unknownField(req, 'api_key_request', k);
  }
  const roleDescriptors = fields.roleDescriptors ?? [];
  const errors = [...nameErrors(fields.name), ...metadataErrors(fields.metadata)];
  for (const d of roleDescriptors) errors.push(...validateDescriptor(d.descriptor));
  if (errors.length > 0) throw actionRequestValidation(errors);
  for (const d of roleDescriptors) checkRoleQueries(d.descriptor);
  if (auth.apiKey && !(roleDescriptors.length === 1 && isEmptyDescriptor(roleDescriptors[0]!.descriptor))) {
    throw illegalArgument(
      'creating derived api keys requires an explicit role descriptor that is empty (has no privileges)',
    );
  }
  const created = await ctx.apiKeys.create(auth, await ownerDescriptors(ctx, auth), {
    name: fields.name!,
    expirationMs: fields.expirationMs,
    roleDescriptors,
    metadata: fields.metadata ?? {},
  });
  return ok(created);
}

function isEmptyDescriptor(d: RoleDescriptor): boolean {
  return (
    d.cluster.length === 0 &&
    d.indices.length === 0 &&
    d.applications.length === 0 &&
    d.runAs.length === 0 &&
    d.global === undefined
  );
}

async function getApiKeys(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, [
    'id',
    'name',
    'username',
    'realm_name',
    'owner',
    'with_limited_by',
    'active_only',
    'with_profile_uid',
  ]);
  const { id, name, username, realm_name: realm } = req.query;
  const owner = boolQuery(req, 'owner');
  const withLimitedBy = boolQuery(req, 'with_limited_by');
  const activeOnly = boolQuery(req, 'active_only');
  boolQuery(req, 'with_profile_uid');
  const errors: string[] = [];
  if ((realm || username) && (id || name)) {
    errors.push(
      'username or realm name must not be specified when the api key id or api key name is specified',
    );
  }
  if (owner && (realm || username)) {
    errors.push('neither username nor realm-name may be specified when retrieving owned API keys');
  }
  if (id && name) errors.push('only one of [api key id, api key name] can be specified');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const nameMatches = name ? compilePatterns([name]) : undefined;
  const now = ctx.host.now();
  const keys = (await ctx.apiKeys.store.list())
    .filter((k) => !owner || ownedBy(auth, k))
    .filter((k) => !id || k.id === id)
    .filter((k) => !nameMatches || nameMatches(k.name))
    .filter((k) => !username || k.creator.principal === username)
    .filter((k) => !realm || k.creator.realm === realm)
    .filter((k) => !activeOnly || (!k.invalidated && (k.expiration === null || k.expiration > now)))
    .sort((a, b) => a.creation - b.creation || (a.id < b.id ? -1 : 1));
  return ok({ api_keys: keys.map((k) => keyJson(k, withLimitedBy)) });
}

function stringList(v: unknown, field: string): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw typeError('invalidate_api_key', field);
}

async function invalidateApiKeys(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, []);
  const body = requiredObjectBody(req);
  let ids: string[] | undefined;
  let singleId: string | undefined;
  let name: string | undefined;
  let owner = false;
  let realm: string | undefined;
  let username: string | undefined;
  for (const [k, v] of Object.entries(body)) {
    if (k === 'id') singleId = stringList(v, k)[0];
    else if (k === 'ids') ids = stringList(v, k);
    else if (k === 'name') name = stringList(v, k)[0];
    else if (k === 'realm_name') realm = stringList(v, k)[0];
    else if (k === 'username') username = stringList(v, k)[0];
    else if (k === 'owner') {
      if (typeof v !== 'boolean') throw typeError('invalidate_api_key', k);
      owner = v;
    } else throw unknownField(req, 'invalidate_api_key', k);
  }
  if (singleId !== undefined && ids !== undefined) {
    throw illegalArgument('Must use either [id] or [ids], not both at the same time');
  }
  if (singleId !== undefined) {
    ids = [singleId];
    req.warnings.push('Deprecated field [id] used, replaced by [ids]');
  }
  const errors: string[] = [];
  if (!realm && !username && ids === undefined && !name && !owner) {
    errors.push(
      'One of [api key id(s), api key name, username, realm name] must be specified if [owner] flag is false',
    );
  }
  if ((ids !== undefined || name) && (realm || username)) {
    errors.push(
      'username or realm name must not be specified when the api key id(s) or api key name are specified',
    );
  }
  if (owner && (realm || username))
    errors.push('user name and realm name must not be specified when invalidating owned API keys');
  if (ids !== undefined && name) errors.push('only one of [api key id(s), api key name] can be specified');
  if (ids !== undefined && ids.length === 0) errors.push('Field [ids] cannot be an empty array');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const nameMatches = name ? compilePatterns([name]) : undefined;
  const matching = (await ctx.apiKeys.store.list())
    .filter((k) => !owner || ownedBy(auth, k))
    .filter((k) => ids === undefined || ids.includes(k.id))
    .filter((k) => !nameMatches || nameMatches(k.name))
    .filter((k) => !username || k.creator.principal === username)
    .filter((k) => !realm || k.creator.realm === realm);
  // A cross-cluster key is invalidated only with manage_security (ApiKeyService.invalidateAllApiKeys).
  const crossClusterAllowed = matching.some((k) => k.keyType === 'cross_cluster')
    ? (await permissionOf(ctx, auth)).cluster(CROSS_CLUSTER_UPDATE)
    : true;
  const refused = matching.filter(
    (k) => !k.invalidated && k.keyType === 'cross_cluster' && !crossClusterAllowed,
  );
  const fresh = matching.filter((k) => !k.invalidated && !refused.includes(k));
  await ctx.apiKeys.invalidate(fresh);
  const out: Record<string, unknown> = {
    invalidated_api_keys: fresh.map((k) => k.id),
    previously_invalidated_api_keys: matching.filter((k) => k.invalidated).map((k) => k.id),
    error_count: refused.length,
  };
  if (refused.length > 0) {
    out.error_details = refused.map((k) =>
      errorCause(
        securityException(
          `Cannot invalidate cross-cluster API key [${k.id}]. This requires [manage_security] cluster privilege or higher`,
        ),
      ),
    );
  }
  return ok(out);
}

const CROSS_CLUSTER_UPDATE = 'cluster:admin/ext/security/cross_cluster/api_key/update';

export function apiKeyRoutes(ctx: SecurityContext): SecurityRoute[] {
  const create = (req: SecurityRequest, auth: Authentication) => createApiKey(ctx, req, auth);
  return [
    { method: 'POST', path: '/_security/api_key', action: `${A}/create`, handler: create },
    { method: 'PUT', path: '/_security/api_key', action: `${A}/create`, handler: create },
    {
      method: 'GET',
      path: '/_security/api_key',
      action: `${A}/get`,
      handler: (req, auth) => getApiKeys(ctx, req, auth),
    },
    {
      method: 'DELETE',
      path: '/_security/api_key',
      action: `${A}/invalidate`,
      handler: (req, auth) => invalidateApiKeys(ctx, req, auth),
    },
    {
      method: 'POST',
      path: '/_security/api_key/:ids/_clear_cache',
      action: 'cluster:admin/ext/security/api_key/clear_cache',
      handler(req) {
        checkParams(req, ['ids']);
        const ids = (req.params.ids ?? '').split(',').filter((s) => s !== '');
        ctx.apiKeys.clearCache(ids.includes('*') ? undefined : ids);
        return ok(clearCacheBody(ctx.host));
      },
    },
  ];
}
