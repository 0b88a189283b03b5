/**
 * What the API key handlers share: reading a key's fields from a request body (name,
 * expiration, role descriptors, metadata) with Elasticsearch's parse errors and validation
 * texts, the owner's descriptors a key is limited by, and a key's wire form.
 */
import { illegalArgument, parseException, parseTimeValue, xContentParse } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import { descriptorJson, parseRoleDescriptor, type RoleDescriptor } from '../authz/role-descriptor.ts';
import type { SecurityContext } from '../context.ts';
import type { ApiKeyRecord } from '../store/api-key-store.ts';
import type { SecurityRequest } from './route.ts';

export type NamedDescriptor = { name: string; descriptor: RoleDescriptor };

/** ObjectParser's unknown-field error, placed where the field is in the body. */
export function unknownField(req: SecurityRequest, parser: string, field: string): Error {
  const text = req.body?.toString('utf8') ?? '';
  const at = Math.max(0, text.indexOf(`"${field}"`));
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const col = at - before.lastIndexOf('\n');
  return xContentParse(line, col, `[${parser}] unknown field [${field}]`);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function typeError(parser: string, field: string): Error {
  return xContentParse(1, 1, `[${parser}] failed to parse field [${field}]`);
}

/** The fields a key's body may carry; each undefined when absent. */
export interface KeyFields {
  name?: string;
  expirationMs?: number;
  metadata?: Record<string, unknown>;
  roleDescriptors?: NamedDescriptor[];
}

/**
 * Reads one of a key's fields into `out`; false when `k` is not one of `accepted`. `null`
 * means absent, as Elasticsearch's parsers read it.
 */
export function readKeyField(
  parser: string,
  k: string,
  v: unknown,
  out: KeyFields,
  accepted: readonly (keyof KeyFields | 'role_descriptors')[],
): boolean {
  if (k === 'name' && accepted.includes('name')) {
    if (v !== null && typeof v !== 'string') throw typeError(parser, k);
    if (v !== null) out.name = v;
  } else if (k === 'expiration' && accepted.includes('expirationMs')) {
    if (v !== null && typeof v !== 'string') throw typeError(parser, k);
    if (typeof v === 'string') out.expirationMs = parseTimeValue(v, 'expiration');
  } else if (k === 'metadata' && accepted.includes('metadata')) {
    if (v !== null && !isObject(v)) throw typeError(parser, k);
    if (v !== null) out.metadata = v;
  } else if (k === 'role_descriptors' && accepted.includes('role_descriptors')) {
    if (v !== null && !isObject(v)) throw typeError(parser, k);
    if (v !== null) {
      out.roleDescriptors = Object.entries(v).map(([roleName, d]) => {
        // A key's own descriptors have no description (RoleDescriptor.parse with it disallowed).
        if (isObject(d) && 'description' in d) {
          throw parseException(`failed to parse role [${roleName}]. unexpected field [description]`);
        }
        return { name: roleName, descriptor: parseRoleDescriptor(roleName, d) };
      });
    }
  } else return false;
  return true;
}

/** ApiKeyRequest validation of a key's name (when `required`, also its presence). */
export function nameErrors(name: string | undefined): string[] {
  if (name === undefined) return ['api key name is required'];
  const errors: string[] = [];
  if (name.length > 256) errors.push('api key name may not be more than 256 characters long');
  if (name !== name.trim()) errors.push('api key name may not begin or end with whitespace');
  if (name.startsWith('_')) errors.push('api key name may not begin with an underscore');
  return errors;
}

export function metadataErrors(metadata: Record<string, unknown> | undefined): string[] {
  return metadata && Object.keys(metadata).some((k) => k.startsWith('_'))
    ? ['API key metadata keys may not start with [_]']
    : [];
}

/** The caller's permission as a key's `limited_by`: its roles' descriptors, or its parent key's. */
export async function ownerDescriptors(
  ctx: SecurityContext,
  auth: Authentication,
): Promise<NamedDescriptor[]> {
  if (auth.apiKey) {
    const parent = await ctx.apiKeys.store.get(auth.apiKey.id);
    if (!parent) return [];
    return parent.roleDescriptors.length > 0 ? parent.roleDescriptors : parent.limitedBy;
  }
  const out: NamedDescriptor[] = [];
  for (const name of auth.user.roles) {
    const descriptor = await ctx.roles.descriptor(name);
    // A key keeps what its owner's roles grant, not how they are described.
    if (descriptor) {
      const { description: _d, ...rest } = descriptor;
      out.push({ name, descriptor: rest });
    }
  }
  return out;
}

export function boolQuery(req: SecurityRequest, name: string): boolean {
  const v = req.query[name];
  if (v === undefined || v === 'false') return false;
  if (v === '' || v === 'true') return true;
  throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

function descriptorsMap(list: NamedDescriptor[]): Record<string, unknown> {
  return Object.fromEntries(list.map((d) => [d.name, descriptorJson(d.descriptor)]));
}

/** ApiKey's wire form (get and query); `limited_by` only when asked, never for cross-cluster keys. */
export function keyJson(k: ApiKeyRecord, withLimitedBy: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: k.id, name: k.name, type: k.keyType, creation: k.creation };
  if (k.expiration !== null) out.expiration = k.expiration;
  out.invalidated = k.invalidated;
  if (k.invalidation !== null) out.invalidation = k.invalidation;
  out.username = k.creator.principal;
  out.realm = k.creator.realm;
  out.realm_type = k.creator.realmType;
  out.metadata = k.metadata;
  out.role_descriptors = descriptorsMap(k.roleDescriptors);
  if (k.access) out.access = k.access;
  if (withLimitedBy && k.keyType === 'rest') out.limited_by = [descriptorsMap(k.limitedBy)];
  return out;
}

/** Whose keys "own" means: the user's, or, for a request made with a key, that key's owner's. */
export function ownedBy(auth: Authentication, k: ApiKeyRecord): boolean {
  if (auth.apiKey) return k.creator.principal === auth.user.username;
  return k.creator.principal === auth.user.username && k.creator.realm === auth.realm.name;
}

/** Only the owner, signed in as itself, may change a key (ApiKeyService.updateApiKeys). */
export function checkUpdater(auth: Authentication): void {
  if (auth.apiKey) {
    throw illegalArgument(
      'authentication via API key not supported: only the owner user can update an API key',
    );
  }
}
