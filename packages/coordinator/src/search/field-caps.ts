/**
 * `_field_caps` (Elasticsearch's FieldCapabilitiesResponse): for every field matching the
 * requested patterns, across the target indices, each type it has with whether it is
 * searchable and aggregatable — and, where the indices disagree, which indices hold that type
 * (`indices`), and which of them cannot search or aggregate it. Objects and nested fields are
 * listed as `object` / `nested`; the metadata fields as their own types; `include_unmapped`
 * adds an `unmapped` type for the indices that lack a field.
 */
import {
  type FieldPredicate,
  flattenRuntimeFields,
  illegalArgument,
  type RuntimeMappings,
} from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';

interface FieldCap {
  type: string;
  metadata: boolean;
  searchable: boolean;
  aggregatable: boolean;
  meta?: Record<string, unknown>;
}

/** The metadata fields `_field_caps` reports, as Elasticsearch 8 describes them. */
const METADATA: FieldCap[] = [
  { type: '_id', metadata: true, searchable: true, aggregatable: false },
  { type: '_ignored', metadata: true, searchable: true, aggregatable: false },
  { type: '_index', metadata: true, searchable: true, aggregatable: true },
  { type: '_routing', metadata: true, searchable: true, aggregatable: false },
  { type: '_seq_no', metadata: true, searchable: true, aggregatable: true },
  { type: '_source', metadata: true, searchable: false, aggregatable: false },
  { type: '_version', metadata: true, searchable: false, aggregatable: true },
];

/** Types whose doc values can be searched when the field is not indexed (Elasticsearch 8.1+). */
const DOC_VALUE_SEARCHABLE = new Set([
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'unsigned_long',
  'date',
  'date_nanos',
  'boolean',
  'ip',
  'keyword',
  'geo_point',
]);

/** `*` matches any run of characters; a pattern without one matches the name exactly. */
function matcher(patterns: string[]): (name: string) => boolean {
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return (name) => res.some((r) => r.test(name));
}

/** Object and nested paths of a mapping JSON, with their type. */
function objectPaths(mapping: Record<string, unknown>, prefix = '', out = new Map<string, string>()) {
  const props = mapping.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, def] of Object.entries(props ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const type = def.type as string | undefined;
    if (type === undefined || type === 'object' || type === 'nested') {
      out.set(path, type ?? 'object');
      objectPaths(def, path, out);
    }
  }
  return out;
}

/** Every field of one index with its capabilities. */
function indexFields(
  meta: IndexMetadata,
  runtime: RuntimeMappings | undefined,
  visible: FieldPredicate | undefined,
): Map<string, FieldCap> {
  const out = new Map<string, FieldCap>();
  for (const f of METADATA) out.set(f.type, f);
  const leaves = meta.mapping.fieldsMatching('*').filter((f) => !visible || visible(f.path));
  for (const [path, type] of objectPaths(meta.mapping.toJSON())) {
    // With field-level security, an object shows when one of its fields does.
    if (visible && !leaves.some((f) => f.path.startsWith(`${path}.`))) continue;
    out.set(path, { type, metadata: false, searchable: false, aggregatable: false });
  }
  for (const f of leaves) {
    out.set(f.path, {
      type: f.mappedType ?? f.type,
      metadata: false,
      searchable: f.index || (f.docValues && DOC_VALUE_SEARCHABLE.has(f.type)),
      // A rank feature's value is kept for its query only (RankFeatureFieldType: not aggregatable).
      aggregatable: f.docValues && f.mappedType !== 'rank_feature' && f.mappedType !== 'rank_features',
    });
  }
  // Runtime fields (the mapping's, then the request's over them) shadow mapped ones.
  const own = Object.entries(meta.mapping.runtimeFields?.() ?? {}).filter(([n]) => !visible || visible(n));
  const rt = flattenRuntimeFields({ ...Object.fromEntries(own), ...runtime });
  for (const [name, def] of Object.entries(rt)) {
    out.set(name, { type: def.type, metadata: false, searchable: true, aggregatable: true });
  }
  return out;
}

export interface FieldCapsOptions {
  fields: string[];
  includeUnmapped: boolean;
  /** Field types to keep (`types`), or all. */
  types?: string[];
  /** `filters`: `+metadata`, `-metadata`, `-nested`, `-multifield`, `-parent`. */
  filters?: string[];
  /** `runtime_mappings` of the request. */
  runtimeMappings?: RuntimeMappings;
  /** The fields of an index the user may see (field-level security); undefined: all. */
  visibility?: (meta: IndexMetadata) => FieldPredicate | undefined;
}

const FILTERS = new Set(['+metadata', '-metadata', '-nested', '-multifield', '-parent']);

export function parseFieldCapsFilters(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const list = text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  for (const f of list) if (!FILTERS.has(f)) throw illegalArgument(`Unknown field caps filter [${f}]`);
  return list;
}

function keep(name: string, cap: FieldCap, opts: FieldCapsOptions, multiField: boolean): boolean {
  const filters = opts.filters ?? [];
  if (opts.types && !opts.types.includes(cap.type)) return false;
  if (filters.includes('-metadata') && cap.metadata) return false;
  if (filters.includes('+metadata') && !cap.metadata) return false;
  if (filters.includes('-parent') && (cap.type === 'object' || cap.type === 'nested')) return false;
  if (filters.includes('-nested') && cap.type === 'nested') return false;
  if (filters.includes('-multifield') && multiField) return false;
  return name !== '';
}

export function fieldCaps(indices: IndexMetadata[], opts: FieldCapsOptions): Record<string, unknown> {
  const matches = matcher(opts.fields);
  const perIndex = indices.map((m) => ({
    name: m.name,
    fields: indexFields(m, opts.runtimeMappings, opts.visibility?.(m)),
    meta: m,
  }));
  const names = new Set<string>();
  for (const i of perIndex) for (const name of i.fields.keys()) if (matches(name)) names.add(name);
  const fields: Record<string, unknown> = {};
  for (const name of [...names].sort()) {
    const byType = new Map<
      string,
      { cap: FieldCap; indices: string[]; notSearchable: string[]; notAggregatable: string[] }
    >();
    const missing: string[] = [];
    for (const i of perIndex) {
      const cap = i.fields.get(name);
      if (!cap) {
        missing.push(i.name);
        continue;
      }
      const multiField = i.meta.mapping.field(name) !== undefined && isMultiField(i.meta, name);
      if (!keep(name, cap, opts, multiField)) continue;
      const entry = byType.get(cap.type) ?? { cap, indices: [], notSearchable: [], notAggregatable: [] };
      entry.indices.push(i.name);
      if (!cap.searchable) entry.notSearchable.push(i.name);
      if (!cap.aggregatable) entry.notAggregatable.push(i.name);
      byType.set(cap.type, entry);
    }
    if (byType.size === 0) continue;
    const types: Record<string, unknown> = {};
    const spread = byType.size > 1 || (opts.includeUnmapped && missing.length > 0);
    for (const [type, e] of byType) {
      const searchable = e.notSearchable.length === 0;
      const aggregatable = e.notAggregatable.length === 0;
      const json: Record<string, unknown> = {
        type,
        metadata_field: e.cap.metadata,
        searchable,
        aggregatable,
      };
      if (spread) json.indices = e.indices;
      if (!searchable && e.notSearchable.length < e.indices.length)
        json.non_searchable_indices = e.notSearchable;
      if (!aggregatable && e.notAggregatable.length < e.indices.length) {
        json.non_aggregatable_indices = e.notAggregatable;
      }
      types[type] = json;
    }
    if (opts.includeUnmapped && missing.length > 0) {
      types.unmapped = {
        type: 'unmapped',
        metadata_field: false,
        searchable: false,
        aggregatable: false,
        indices: missing,
      };
    }
    fields[name] = types;
  }
  return { indices: indices.map((m) => m.name), fields };
}

/** `title.keyword` under a `title` leaf: a multi-field. */
function isMultiField(meta: IndexMetadata, name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && meta.mapping.field(name.slice(0, dot)) !== undefined;
}
