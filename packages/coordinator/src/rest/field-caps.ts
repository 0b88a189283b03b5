/** `GET|POST /_field_caps` and `/{index}/_field_caps`. */
import {
  actionRequestValidation,
  fieldPredicate,
  illegalArgument,
  notImplemented,
  parseRuntimeMappings,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { fieldCaps, parseFieldCapsFilters } from '../search/field-caps.ts';
import { readRestriction } from '../search/read-restrictions.ts';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { boolParam } from './params.ts';

function list(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const items = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return items.map((x) => x.trim()).filter((x) => x !== '');
}

function handler(req: RestRequest, s: NodeServices): RestResponse {
  const body = (req.json() ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body))
    throw illegalArgument('Malformed content, must start with an object');
  for (const key of Object.keys(body)) {
    if (key === 'index_filter') throw notImplemented('[index_filter] in _field_caps');
    if (key !== 'fields' && key !== 'runtime_mappings')
      throw illegalArgument(`[field_caps_request] unknown field [${key}]`);
  }
  const fields = list(req.query.fields) ?? list(body.fields);
  if (!fields || fields.length === 0) throw actionRequestValidation(['no fields specified']);
  const indices = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const opts = {
    fields,
    runtimeMappings:
      body.runtime_mappings === undefined
        ? undefined
        : parseRuntimeMappings(body.runtime_mappings, undefined),
    includeUnmapped: boolParam(req.query, 'include_unmapped', false),
    types: list(req.query.types),
    filters: parseFieldCapsFilters(req.query.filters),
    visibility: (meta: IndexMetadata) => {
      const v = readRestriction(req.indexAccess, meta)?.fieldVisibility;
      return v ? fieldPredicate(v) : undefined;
    },
  };
  return { status: 200, body: fieldCaps(indices, opts) };
}

export function fieldCapsRoutes(): Route<NodeServices>[] {
  const action = 'indices:data/read/field_caps';
  return [
    { method: 'GET', path: '/_field_caps', action, handler },
    { method: 'POST', path: '/_field_caps', action, handler },
    { method: 'GET', path: '/:index/_field_caps', action, handler },
    { method: 'POST', path: '/:index/_field_caps', action, handler },
  ];
}
