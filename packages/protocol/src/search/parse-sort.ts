/**
 * `sort`, from the body (SortBuilder.fromXContent and the FieldSortBuilder / ScoreSortBuilder
 * ObjectParsers) and from the URL (`?sort=f:desc,g`, RestSearchAction.parseSearchSource).
 * Defaults are applied: `desc` for `_score`, `asc` otherwise, `missing: _last`.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { JsonScalar } from '../query/ast.ts';
import { parsingError, xContentParseError } from '../query/local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  isValue,
  newCtx,
  onValue,
  type ParseCtx,
  parseField,
  tokenOf,
  unknownField,
  VT,
} from '../query/parse-context.ts';
import { objectText, scalarText, text } from '../query/xcontent-values.ts';
import { parseGeoDistanceSort } from './geo-distance-sort.ts';
import { parseScriptSort } from './script-sort.ts';
import type { NumericType, SortMode, SortOrder, SortSpec } from './sort-spec.ts';

const FIELD_SORT_FIELDS = [
  'missing',
  'unmapped_type',
  'order',
  'mode',
  'nested',
  'numeric_type',
  'format',
  'nested_path',
  'nested_filter',
];

type FieldSort = Extract<SortSpec, { kind: 'field' }>;

/**
 * Parses a body `sort` value (a string, an object, or an array of both) and applies the lone
 * `_score`-descending optimisation: that sort, or no sort at all, gives `undefined`.
 */
export function parseSort(json: unknown): SortSpec[] | undefined {
  return normalizeSort(readSort(newCtx(json), json));
}

/** Parses the URL `sort` parameter: `f:desc,g,_score`. */
export function parseSortParam(param: string): SortSpec[] | undefined {
  return normalizeSort(readSortParam(param));
}

/** SortBuilder.buildSort's optimisation: sorting on the score alone, descending, is no sort. */
export function normalizeSort(specs: SortSpec[]): SortSpec[] | undefined {
  if (specs.length === 0) return undefined;
  if (specs.length === 1 && specs[0]!.kind === 'score' && specs[0]!.order === 'desc') return undefined;
  return specs;
}

/** The sort keys of a body `sort` value at `ctx.path`, in order, without the optimisation. */
export function readSort(ctx: ParseCtx, v: unknown): SortSpec[] {
  const out: SortSpec[] = [];
  if (isValue(v)) {
    // SearchSourceBuilder: a scalar `sort` is a field name, whatever its JSON type.
    out.push(byName(scalarText(v), undefined));
  } else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (isObject(e)) {
        ctx.path.push(i);
        compound(ctx, e, out);
        ctx.path.pop();
      } else if (typeof e === 'string') {
        out.push(byName(e, undefined));
      } else {
        here(ctx, 'value', i);
        throw illegalArgument(
          'malformed sort format, within the sort array, an object, or an actual string are allowed',
        );
      }
    }
  } else if (isObject(v)) {
    compound(ctx, v, out);
  } else {
    here(ctx, 'value');
    throw illegalArgument('malformed sort format, either start with array, object, or an actual string');
  }
  return out;
}

/** RestSearchAction: `field[:asc|:desc]`, split on commas; any other suffix drops the key. */
export function readSortParam(param: string): SortSpec[] {
  const out: SortSpec[] = [];
  for (const s of splitByComma(param)) {
    const colon = s.lastIndexOf(':');
    if (colon === -1) {
      out.push(byName(s, undefined));
      continue;
    }
    const order = s.slice(colon + 1);
    if (order === 'asc' || order === 'desc') out.push(byName(s.slice(0, colon), order));
  }
  return out;
}

/** Strings.splitStringByCommaToArray: Java's String.split(","), which drops trailing empties. */
export function splitByComma(s: string): string[] {
  if (s.length === 0) return [];
  const parts = s.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function byName(name: string, order: SortOrder | undefined): SortSpec {
  switch (name) {
    case '_score':
      return { kind: 'score', order: order ?? 'desc' };
    case '_doc':
      return { kind: 'doc', order: order ?? 'asc' };
    case '_shard_doc':
      return { kind: 'shard_doc', order: order ?? 'asc' };
    default:
      return { kind: 'field', field: name, order: order ?? 'asc', missing: '_last' };
  }
}

/** SortOrder.fromString: Java's `valueOf(op.toUpperCase())`. */
export function sortOrder(s: string): SortOrder {
  const up = s.toUpperCase();
  if (up === 'ASC') return 'asc';
  if (up === 'DESC') return 'desc';
  throw illegalArgument(`No enum constant org.elasticsearch.search.sort.SortOrder.${up}`);
}

const SORT_MODES: readonly string[] = ['min', 'max', 'sum', 'avg', 'median'];

export function sortMode(s: string): SortMode {
  const lower = s.toLowerCase();
  if (SORT_MODES.includes(lower)) return lower as SortMode;
  throw illegalArgument(`Unknown SortMode [${s}]`);
}

const NUMERIC_TYPES: readonly string[] = ['long', 'double', 'date', 'date_nanos'];

function numericType(s: string): NumericType {
  const lower = s.toLowerCase();
  if (NUMERIC_TYPES.includes(lower)) return lower as NumericType;
  throw illegalArgument(
    `invalid value for [numeric_type], must be [long, double, date, date_nanos], got ${lower}`,
  );
}

/** SortBuilder.parseCompoundSortField: `{"f": "desc"}` or `{"f": {…}}`, several keys allowed. */
function compound(ctx: ParseCtx, obj: Record<string, unknown>, out: SortSpec[]): void {
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const name = keys[k]!;
    const v = obj[name];
    if (typeof v === 'string') {
      out.push(
        byName(
          name,
          onValue(ctx, name, () => sortOrder(v)),
        ),
      );
      continue;
    }
    if (name === '_geo_distance' || name === '_geoDistance') {
      if (!isObject(v)) throw parsingError(`[${name}] expects an object`, here(ctx, 'value', name));
      ctx.path.push(name);
      out.push(parseGeoDistanceSort(ctx, v));
      ctx.path.pop();
      continue;
    }
    if (name === '_script') {
      if (!isObject(v)) throw parsingError(`[${name}] expects an object`, here(ctx, 'value', name));
      ctx.path.push(name);
      out.push(parseScriptSort(ctx, v, sortOrder, sortMode));
      ctx.path.pop();
      continue;
    }
    const parser = name === '_score' ? '_score' : 'field_sort';
    if (!isObject(v)) {
      // ObjectParser moves to the next token, expecting the object that is not there.
      const next = Array.isArray(v)
        ? v.length > 0
          ? tokenOf(v[0])
          : 'END_ARRAY'
        : k + 1 < keys.length
          ? 'FIELD_NAME'
          : 'END_OBJECT';
      throw xContentParseError(
        `[${parser}] Expected START_OBJECT but was: ${next}`,
        here(ctx, 'value', name),
      );
    }
    ctx.path.push(name);
    out.push(parser === '_score' ? scoreSort(ctx, v) : fieldSort(ctx, name, v));
    ctx.path.pop();
  }
}

function scoreSort(ctx: ParseCtx, body: Record<string, unknown>): SortSpec {
  let order: SortOrder = 'desc';
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key !== 'order') throw unknownField(ctx, '_score', key, ['order']);
    assertSupports(ctx, '_score', key, v, VT.STRING);
    order = parseField(ctx, '_score', key, () => sortOrder(v as string));
  }
  return { kind: 'score', order };
}

function fieldSort(ctx: ParseCtx, name: string, body: Record<string, unknown>): SortSpec {
  const spec: FieldSort = { kind: 'field', field: name, order: 'asc', missing: '_last' };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!FIELD_SORT_FIELDS.includes(key)) throw unknownField(ctx, 'field_sort', key, FIELD_SORT_FIELDS);
    const allowed =
      key === 'missing' ? VT.VALUE : key === 'nested' || key === 'nested_filter' ? VT.OBJECT : VT.STRING;
    assertSupports(ctx, 'field_sort', key, v, allowed);
    parseField(ctx, 'field_sort', key, () => {
      switch (key) {
        case 'missing':
          spec.missing = missingValue(objectText(ctx, v));
          break;
        case 'unmapped_type':
          spec.unmappedType = v as string;
          break;
        case 'order':
          spec.order = sortOrder(v as string);
          break;
        case 'mode':
          spec.mode = sortMode(v as string);
          break;
        case 'numeric_type':
          spec.numericType = numericType(v as string);
          break;
        case 'format':
          spec.format = text(ctx, v);
          break;
        case 'nested':
          spec.nested = v as Record<string, unknown>;
          break;
        default:
          throw parsingError(
            `[${key}] has been removed in favour of the [nested] parameter`,
            here(ctx, 'value'),
          );
      }
    });
  }
  return name === '_doc' || name === '_shard_doc' ? byNameWithOrder(name, spec.order) : spec;
}

function byNameWithOrder(name: '_doc' | '_shard_doc', order: SortOrder): SortSpec {
  return { kind: name === '_doc' ? 'doc' : 'shard_doc', order };
}

function missingValue(v: JsonScalar): FieldSort['missing'] {
  return v === null ? '_last' : v;
}
