/**
 * Sort specs resolved against the mapping (FieldSortBuilder.build): which doc values a field
 * sort reads, the multi-value mode, numeric_type conversion, the missing substitute
 * (paging.md §7.2: Long.MAX/MIN, ±Infinity, 0 / MAX for date_nanos, null for strings),
 * and how the value is displayed (dates with `format`, booleans, ips). Errors #38–#41.
 */
import {
  illegalArgument,
  queryShardException,
  type SortMode,
  type SortSpec,
  type SortValue,
} from '@shoal/protocol';
import type { IndexMapping, ResolvedField } from '../contract.ts';
import { formatDate } from '../dates/index.ts';
import type { LeafType } from '../index/segment.ts';
import { resolveScriptSort, type ScriptSortPlan } from '../script/script-sort.ts';
import type { ShardContext } from './field-values.ts';
import { type GeoSortPlan, resolveGeoDistanceSort } from './geo-distance-sort.ts';
import { formatIp } from './ip.ts';
import { toComparable, type ValueTarget } from './sort-value-parse.ts';
import { LONG_MAX, LONG_MIN } from './sort-values.ts';

/** What a field sort produces: its comparable value kind. */
export type ValueKind =
  | 'long' // bigint (long, date_nanos, numeric_type long / date_nanos)
  | 'int' // number holding an integer of a long-typed field (integer, short, byte, date)
  | 'double' // number (double, float, numeric_type double)
  | 'string' // keyword
  | 'ip' // hex key of the 128-bit address
  | 'bool'; // 0 / 1

export type Conversion = 'none' | 'millisToNanos' | 'nanosToMillis' | 'toLong' | 'toDouble' | 'truncate';

export interface FieldSort {
  path: string;
  type: LeafType;
  /** Unmapped with unmapped_type: every doc is missing. */
  unmapped: boolean;
  /** `geo`: distances computed from a geo_point field (the `_geo_distance` sort); `script`: a `_script` sort. */
  source: 'numeric' | 'ords' | 'geo' | 'script';
  mode: SortMode;
  /** Integer-valued mode arithmetic (Elasticsearch's long-typed numeric field data). */
  longSemantics: boolean;
  conversion: Conversion;
  kind: ValueKind;
  /** The value a doc without one sorts with. */
  missing: SortValue;
  display?: (v: SortValue) => SortValue;
  /** How search_after values and custom missing values convert to this key. */
  target: ValueTarget;
  /** The `_geo_distance` sort's points and unit (source `geo`). */
  geo?: GeoSortPlan;
  /** The `_script` sort's compiled script (source `script`). */
  script?: ScriptSortPlan;
}

export interface SortKey {
  spec: SortSpec;
  reverse: boolean;
  field?: FieldSort;
}

export const TEXT_FIELDDATA =
  'Text fields are not optimised for operations that require per-document field data like aggregations and sorting, ' +
  'so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true ' +
  'on [%s] in order to load field data by uninverting the inverted index. Note that this can use significant memory.';

export function resolveSortKeys(
  specs: readonly SortSpec[],
  mapping: IndexMapping,
  ctx: ShardContext,
): SortKey[] {
  return specs.map((spec) => {
    const reverse = spec.order === 'desc';
    if (spec.kind !== 'field') return { spec, reverse };
    return { spec, reverse, field: resolveFieldSort(spec, mapping, ctx) };
  });
}

function resolveFieldSort(
  spec: Extract<SortSpec, { kind: 'field' }>,
  mapping: IndexMapping,
  ctx: ShardContext,
): FieldSort {
  if (spec.geoDistance) return resolveGeoDistanceSort(spec, spec.geoDistance, mapping, ctx);
  if (spec.script) return resolveScriptSort(spec, mapping, ctx);
  let field: Pick<ResolvedField, 'path' | 'type' | 'docValues' | 'format' | 'vector'> | undefined =
    mapping.field(spec.field);
  let unmapped = false;
  if (spec.field === '_id') {
    // Elasticsearch 8 keeps _id out of fielddata unless a cluster setting re-enables it.
    throw illegalArgument(
      'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled',
    );
  }
  if (!field) {
    if (spec.unmappedType === undefined) {
      throw queryShardException(
        `No mapping found for [${spec.field}] in order to sort on`,
        ctx.index,
        ctx.indexUuid,
      );
    }
    field = { path: spec.field, type: unmappedType(spec.unmappedType), docValues: true };
    unmapped = true;
  }
  const type = field.type;
  if (field.vector)
    throw illegalArgument(`Field [${spec.field}] of type [dense_vector] doesn't support sort`);
  // RankFeatureFieldType.fielddataBuilder: the value lives in a term frequency, not doc values.
  const mappedType = (field as { mappedType?: string }).mappedType;
  if (mappedType === 'rank_feature' || mappedType === 'rank_features') {
    throw illegalArgument(`[${mappedType}] fields do not support sorting, scripting or aggregating`);
  }
  if (type === 'text') {
    throw illegalArgument(
      `Fielddata is disabled on [${spec.field}] in [${ctx.index}]. ${TEXT_FIELDDATA.replace('%s', spec.field)}`,
    );
  }
  if (type === 'geo_point') {
    throw illegalArgument(
      `can't sort on geo_point field without using specific sorting feature, like geo_distance`,
    );
  }
  if (!field.docValues && !unmapped) {
    throw illegalArgument(
      `Can't load fielddata on [${spec.field}] because fielddata is unsupported on fields of type [${type}]. Use doc values instead.`,
    );
  }
  const numeric = type !== 'keyword' && type !== 'ip' && type !== 'boolean';
  const reverse = spec.order === 'desc';
  const mode: SortMode = spec.mode ?? (reverse ? 'max' : 'min');
  if ((mode === 'sum' || mode === 'avg' || mode === 'median') && !numeric) {
    throw queryShardException(
      'we only support AVG, MEDIAN and SUM on number based fields',
      ctx.index,
      ctx.indexUuid,
    );
  }
  if (spec.numericType !== undefined && !numeric) {
    throw queryShardException(
      `[numeric_type] option cannot be set on a non-numeric field, got ${type}`,
      ctx.index,
      ctx.indexUuid,
    );
  }
  const first = spec.missing === '_first';
  // paging.md §7.2: the substitute is the minimum when (_first XOR reverse).
  const useMin = first !== reverse;
  const base: FieldBase = {
    path: field.path,
    type,
    unmapped,
    source: numeric ? 'numeric' : 'ords',
    mode,
  };
  if (type === 'keyword') {
    const target: ValueTarget = { name: spec.field, kind: 'string' };
    return fieldSort(base, 'none', 'string', false, custom(spec, target), target);
  }
  if (type === 'ip') {
    const target: ValueTarget = { name: spec.field, kind: 'ip' };
    return fieldSort(base, 'none', 'ip', false, custom(spec, target), target, displayIp);
  }
  if (type === 'boolean') {
    const target: ValueTarget = { name: spec.field, kind: 'bool' };
    const missing = isCustom(spec.missing) ? custom(spec, target) : useMin ? LONG_MIN : LONG_MAX;
    return fieldSort(base, 'none', 'bool', true, missing, target, displayBoolean);
  }
  // Numeric and date fields: the stored kind, then numeric_type.
  const longSemantics =
    type !== 'double' && type !== 'float' && type !== 'half_float' && type !== 'scaled_float';
  let conversion: Conversion = 'none';
  let kind: ValueKind = type === 'long' || type === 'date_nanos' ? 'long' : longSemantics ? 'int' : 'double';
  let nanos = type === 'date_nanos';
  let millis = type === 'date';
  switch (spec.numericType) {
    case 'date_nanos':
      if (type === 'date') conversion = 'millisToNanos';
      else if (kind !== 'long') conversion = 'toLong';
      kind = 'long';
      nanos = true;
      millis = false;
      break;
    case 'date':
      if (type === 'date_nanos') conversion = 'nanosToMillis';
      else if (kind === 'long') conversion = 'toDouble';
      else if (kind === 'double') conversion = 'truncate';
      kind = 'int';
      millis = true;
      nanos = false;
      break;
    case 'long':
      if (kind !== 'long') conversion = 'toLong';
      kind = 'long';
      break;
    case 'double':
      if (kind === 'long') conversion = 'toDouble';
      kind = 'double';
      break;
  }
  const dateFormat = spec.format ?? field.format ?? 'strict_date_optional_time||epoch_millis';
  const target: ValueTarget = {
    name: spec.field,
    kind,
    // A half_float sorts as a float (HALF_FLOAT's sort field is a float one).
    float: (type === 'float' || type === 'half_float') && kind === 'double',
  };
  if (nanos || millis) target.date = { format: dateFormat, resolution: nanos ? 'nanos' : 'millis' };
  let missing: SortValue;
  if (isCustom(spec.missing)) missing = custom(spec, target);
  else if (kind === 'double') missing = useMin ? -Infinity : Infinity;
  else if (nanos) missing = useMin ? 0n : LONG_MAX;
  else missing = useMin ? LONG_MIN : LONG_MAX;
  let display: ((v: SortValue) => SortValue) | undefined;
  if (spec.format !== undefined && (nanos || millis)) {
    const format = spec.format;
    const res = nanos ? 'nanos' : 'millis';
    const substitute = isCustom(spec.missing) ? undefined : missing;
    display = (v) => (v === substitute || v === null ? v : formatDate(v as number | bigint, res, format));
  }
  return fieldSort(base, conversion, kind, longSemantics, missing, target, display);
}

type FieldBase = Pick<FieldSort, 'path' | 'type' | 'unmapped' | 'source' | 'mode'>;

/**
 * A FieldSort as one literal with every property (display too), so every key has the same
 * shape: a spread of the common part plus the rest made slow, dictionary-like objects.
 */
function fieldSort(
  b: FieldBase,
  conversion: Conversion,
  kind: ValueKind,
  longSemantics: boolean,
  missing: SortValue,
  target: ValueTarget,
  display?: (v: SortValue) => SortValue,
): FieldSort {
  return {
    path: b.path,
    type: b.type,
    unmapped: b.unmapped,
    source: b.source,
    mode: b.mode,
    longSemantics,
    conversion,
    kind,
    missing,
    display,
    target,
  };
}

function displayIp(v: SortValue): SortValue {
  return typeof v === 'string' ? formatIp(BigInt(`0x${v}`)) : v;
}

function displayBoolean(v: SortValue): SortValue {
  return v !== 0 && v !== 0n;
}

function isCustom(m: Extract<SortSpec, { kind: 'field' }>['missing']): boolean {
  return m !== '_last' && m !== '_first';
}

/** The substitute for docs without a value: null for strings, else a custom value converted. */
function custom(spec: Extract<SortSpec, { kind: 'field' }>, target: ValueTarget): SortValue {
  return isCustom(spec.missing) ? toComparable(spec.missing, target) : null;
}

function unmappedType(t: string): LeafType {
  switch (t) {
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'double':
    case 'float':
    case 'half_float':
    case 'date':
    case 'date_nanos':
    case 'boolean':
    case 'keyword':
    case 'ip':
      return t;
    case 'scaled_float':
      return 'double';
    case 'unsigned_long':
      return 'long';
    case 'text':
    case 'constant_keyword':
    case 'wildcard':
      return 'keyword';
    default:
      throw illegalArgument(`No mapper found for type [${t}]`);
  }
}
