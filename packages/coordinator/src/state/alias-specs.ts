/** The `aliases` of a create-index request and of alias actions, as index metadata holds them. */
import { ShoalError } from '@shoal/protocol';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';

/** The `aliases` object of `PUT /{index}`: no alias may share a name with an index. */
export function parseCreateAliases(
  raw: unknown,
  indices: ReadonlyMap<string, IndexMetadata>,
): Map<string, AliasMetadata> {
  const out = new Map<string, AliasMetadata>();
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ShoalError('parse_exception', 'key [aliases] must be an object', 400);
  }
  for (const [alias, spec] of Object.entries(raw as Record<string, unknown>)) {
    if (indices.has(alias)) {
      throw new ShoalError(
        'invalid_alias_name_exception',
        `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
        400,
        {
          index_uuid: '_na_',
          index: alias,
        },
      );
    }
    out.set(alias, aliasFromJson(spec));
  }
  return out;
}

export function aliasFromJson(spec: unknown): AliasMetadata {
  const s = (spec ?? {}) as Record<string, unknown>;
  const a: AliasMetadata = {};
  if (s.filter) a.filter = s.filter as Record<string, unknown>;
  const routing = s.routing as string | undefined;
  if (s.index_routing ?? routing) a.indexRouting = String(s.index_routing ?? routing);
  if (s.search_routing ?? routing) a.searchRouting = String(s.search_routing ?? routing);
  if (typeof s.is_write_index === 'boolean') a.isWriteIndex = s.is_write_index;
  if (typeof s.is_hidden === 'boolean') a.isHidden = s.is_hidden;
  return a;
}
