/**
 * Updating API keys: `PUT /_security/api_key/{id}` and `POST /_security/api_key/_bulk_update`
 * (ApiKeyService.updateApiKeys). Only the owner, signed in as itself, updates its own keys; each
 * updated key takes the owner's present privileges as its `limited_by`; a key whose stored form
 * would not change is a noop.
 */
import { actionRequestValidation, illegalArgument, resourceNotFound } from '@shoal/protocol';
import type { ApiKeyChange } from '../authc/api-keys.ts';
import type { Authentication } from '../authc/authentication.ts';
import { validateDescriptor } from '../authz/role-descriptor.ts';
import { checkRoleQueries } from '../authz/role-query.ts';
import type { SecurityContext } from '../context.ts';
import type { ApiKeyRecord } from '../store/api-key-store.ts';
import {
  checkUpdater,
  type KeyFields,
  metadataErrors,
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

const notFound = (id: string) => resourceNotFound(`no API key owned by requesting user found for ID [${id}]`);

/** ApiKeyService.validateForUpdate: the key as it stands must be one that can change. */
function checkUpdatable(k: ApiKeyRecord, expectedType: ApiKeyRecord['keyType'], now: number): void {
  if (k.invalidated) throw illegalArgument(`cannot update invalidated API key [${k.id}]`);
  if (k.expiration !== null && now > k.expiration)
    throw illegalArgument(`cannot update expired API key [${k.id}]`);
  if (k.keyType !== expectedType) {
    throw illegalArgument(
      `cannot update API key of type [${k.keyType}] while expected type is [${expectedType}]`,
    );
  }
}

/**
 * Updates the caller's own keys by id; per id: `updated`, `noop`, or the error. A key of
 * another owner is "not found", as Elasticsearch answers.
 */
export async function updateKeys(
  ctx: SecurityContext,
  auth: Authentication,
  ids: readonly string[],
  expectedType: ApiKeyRecord['keyType'],
  change: ApiKeyChange,
): Promise<{
  updated: string[];
  noops: string[];
  errors: Record<string, Record<string, unknown>>;
  first?: Error;
}> {
  checkUpdater(auth);
  const limitedBy = expectedType === 'rest' ? await ownerDescriptors(ctx, auth) : [];
  const out = {
    updated: [] as string[],
    noops: [] as string[],
    errors: {} as Record<string, Record<string, unknown>>,
  };
  let first: Error | undefined;
  for (const id of ids) {
    try {
      const k = await ctx.apiKeys.store.get(id);
      if (!k || !ownedBy(auth, k)) throw notFound(id);
      checkUpdatable(k, expectedType, ctx.host.now());
      if (await ctx.apiKeys.update(k, auth, limitedBy, change)) out.updated.push(id);
      else out.noops.push(id);
    } catch (e) {
      first ??= e as Error;
      out.errors[id] = errorCause(e);
    }
  }
  return first ? { ...out, first } : out;
}

function readChange(req: SecurityRequest, parser: string, body: Record<string, unknown>, extra: string[]) {
  const fields: KeyFields = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (readKeyField(parser, k, v, fields, ['expirationMs', 'metadata', 'role_descriptors'])) continue;
    if (extra.includes(k)) rest[k] = v;
    else throw unknownField(req, parser, k);
  }
  const errors = metadataErrors(fields.metadata);
  for (const d of fields.roleDescriptors ?? []) errors.push(...validateDescriptor(d.descriptor));
  if (errors.length > 0) throw actionRequestValidation(errors);
  for (const d of fields.roleDescriptors ?? []) checkRoleQueries(d.descriptor);
  const change: ApiKeyChange = {};
  if (fields.roleDescriptors) change.roleDescriptors = fields.roleDescriptors;
  if (fields.metadata) change.metadata = fields.metadata;
  if (fields.expirationMs !== undefined) change.expirationMs = fields.expirationMs;
  return { change, rest };
}

async function updateApiKey(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['id', 'refresh']);
  checkRefresh(req);
  const body = req.body !== undefined && req.body.length > 0 ? requiredObjectBody(req) : {};
  const { change } = readChange(req, 'update_api_key_request', body, []);
  const r = await updateKeys(ctx, auth, [req.params.id!], 'rest', change);
  if (r.first) throw r.first;
  return ok({ updated: r.updated.length > 0 });
}

async function bulkUpdateApiKeys(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['refresh']);
  checkRefresh(req);
  const { change, rest } = readChange(req, 'bulk_update_api_key_request', requiredObjectBody(req), ['ids']);
  let ids: string[] | undefined;
  if (typeof rest.ids === 'string') ids = [rest.ids];
  else if (Array.isArray(rest.ids) && rest.ids.every((x) => typeof x === 'string'))
    ids = rest.ids as string[];
  else if (rest.ids !== undefined) throw typeError('bulk_update_api_key_request', 'ids');
  if (ids === undefined) throw illegalArgument('Required [ids]');
  if (ids.length === 0) throw actionRequestValidation(['Field [ids] cannot be empty']);
  // Each key once, however often it is named.
  const r = await updateKeys(ctx, auth, [...new Set(ids)], 'rest', change);
  const out: Record<string, unknown> = { updated: r.updated, noops: r.noops };
  const count = Object.keys(r.errors).length;
  if (count > 0) out.errors = { count, details: r.errors };
  return ok(out);
}

export function apiKeyUpdateRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'PUT',
      path: '/_security/api_key/:id',
      action: `${A}/update`,
      handler: (req, auth) => updateApiKey(ctx, req, auth),
    },
    {
      method: 'POST',
      path: '/_security/api_key/_bulk_update',
      action: `${A}/bulk_update`,
      handler: (req, auth) => bulkUpdateApiKeys(ctx, req, auth),
    },
  ];
}
