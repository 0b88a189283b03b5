/**
 * The API key APIs: create (`POST|PUT /_security/api_key`), get (`GET /_security/api_key`) and
 * invalidate (`DELETE /_security/api_key`), with Elasticsearch's request validation.
 */
import { actionRequestValidation, illegalArgument, parseTimeValue, xContentParse } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import { compilePatterns } from '../authz/patterns.ts';
import {
  descriptorJson,
  parseRoleDescriptor,
  type RoleDescriptor,
  validateDescriptor,
} from '../authz/role-descriptor.ts';
import { clearCacheBody, type SecurityContext } from '../context.ts';
import type { ApiKeyRecord } from '../store/api-key-store.ts';
import {
  checkParams,
  checkRefresh,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

const A = 'cluster:admin/ext/security/api_key';

/** ObjectParser's unknown-field error, placed where the field is in the body. */
function unknownField(req: SecurityRequest, parser: string, field: string): Error {
  const text = req.body?.toString('utf8') ?? '';
  const at = Math.max(0, text.indexOf(`"${field}"`));
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const col = at - before.lastIndexOf('\n');
  return xContentParse(line, col, `[${parser}] unknown field [${field}]`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeError(parser: string, field: string): Error {
  return xContentParse(1, 1, `[${parser}] failed to parse field [${field}]`);
}

/** The caller's permission as a key's `limited_by`: its roles' descriptors, or its parent key's. */
async function ownerDescriptors(ctx: SecurityContext, auth: Authentication) {
  if (auth.apiKey) {
    const parent = await ctx.apiKeys.store.get(auth.apiKey.id);
    if (!parent) return [];
    return parent.roleDescriptors.length > 0 ? parent.roleDescriptors : parent.limitedBy;
  }
  const out: { name: string; descriptor: RoleDescriptor }[] = [];
  for (const name of auth.user.roles) {
    const descriptor = await ctx.roles.descriptor(name);
    if (descriptor) out.push({ name, descriptor });
  }
  return out;
}

async function createApiKey(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const body = requiredObjectBody(req);
  let name: string | undefined;
  let expirationMs: number | undefined;
  let metadata: Record<string, unknown> = {};
  const roleDescriptors: { name: string; descriptor: RoleDescriptor }[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (k === 'name') {
      if (v !== null && typeof v !== 'string') throw typeError('api_key_request', k);
      name = v ?? undefined;
    } else if (k === 'expiration') {
      if (v !== null && typeof v !== 'string') throw typeError('api_key_request', k);
      if (typeof v === 'string') expirationMs = parseTimeValue(v, 'expiration');
    } else if (k === 'metadata') {
      if (!isObject(v)) throw typeError('api_key_request', k);
      metadata = v;
    } else if (k === 'role_descriptors') {
      if (!isObject(v)) throw typeError('api_key_request', k);
      for (const [roleName, d] of Object.entries(v)) {
        roleDescriptors.push({ name: roleName, descriptor: parseRoleDescriptor(roleName, d) });
      }
    } else throw unknownField(req, 'api_key_request', k);
  }
  const errors: string[] = [];
  if (name === undefined) errors.push('api key name is required');
  else {
    if (name.length > 256) errors.push('api key name may not be more than 256 characters long');
    if (name !== name.trim()) errors.push('api key name may not begin or end with whitespace');
    if (name.startsWith('_')) errors.push('api key name may not begin with an underscore');
  }
  if (Object.keys(metadata).some((k) => k.startsWith('_')))
    errors.push('API key metadata keys may not start with [_]');
  for (const d of roleDescriptors) errors.push(...validateDescriptor(d.descriptor));
  if (errors.length > 0) throw actionRequestValidation(errors);
  if (auth.apiKey && !(roleDescriptors.length === 1 && isEmptyDescriptor(roleDescriptors[0]!.descriptor))) {
    throw illegalArgument(
      'creating derived api keys requires an explicit role descriptor that is empty (has no privileges)',
    );
  }
  const created = await ctx.apiKeys.create(auth, await ownerDescriptors(ctx, auth), {
    name: name!,
    expirationMs,
    roleDescriptors,
    metadata,
  });
  return ok(created);
}

function isEmptyDescriptor(d: RoleDescriptor): boolean {
  return (
    d.cluster.length === 0 && d.indices.length === 0 && d.applications.length === 0 && d.runAs.length === 0
  );
}

function boolQuery(req: SecurityRequest, name: string): boolean {
  const v = req.query[name];
  if (v === undefined || v === 'false') return false;
  if (v === '' || v === 'true') return true;
  throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

function descriptorsMap(list: { name: string; descriptor: RoleDescriptor }[]): Record<string, unknown> {
  return Object.fromEntries(list.map((d) => [d.name, descriptorJson(d.descriptor)]));
}

function keyJson(k: ApiKeyRecord, withLimitedBy: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: k.id, name: k.name, type: k.keyType, creation: k.creation };
  if (k.expiration !== null) out.expiration = k.expiration;
  out.invalidated = k.invalidated;
  if (k.invalidation !== null) out.invalidation = k.invalidation;
  out.username = k.creator.principal;
  out.realm = k.creator.realm;
  out.realm_type = k.creator.realmType;
  out.metadata = k.metadata;
  out.role_descriptors = descriptorsMap(k.roleDescriptors);
  if (withLimitedBy) out.limited_by = [descriptorsMap(k.limitedBy)];
  return out;
}

/** Whose keys "own" means: the user's, or, for a request made with a key, that key's owner's. */
function ownedBy(auth: Authentication, k: ApiKeyRecord): boolean {
  if (auth.apiKey) return k.creator.principal === auth.user.username;
  return k.creator.principal === auth.user.username && k.creator.realm === auth.realm.name;
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
  const fresh = matching.filter((k) => !k.invalidated);
  await ctx.apiKeys.invalidate(fresh);
  return ok({
    invalidated_api_keys: fresh.map((k) => k.id),
    previously_invalidated_api_keys: matching.filter((k) => k.invalidated).map((k) => k.id),
    error_count: 0,
  });
}

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
