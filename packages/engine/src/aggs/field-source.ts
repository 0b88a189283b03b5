/**
 * Where an aggregation reads its values (ValuesSourceConfig.resolve): the mapped field, what
 * kind of values it has, how they print, and the `missing` substitute converted to that kind.
 * Per segment, values are read from doc values: numbers, dates and booleans as doubles (dates in
 * epoch millis — date_nanos too: aggregations work at millisecond resolution, as Elasticsearch's
 * do), keywords and ips as ordinals into the segment's sorted terms.
 *
 * Errors are Elasticsearch's: a text field without fielddata fails exactly as sorting on it
 * does; a field of a type the aggregation cannot use is `Field [f] of type [t] is not supported
 * for aggregation [a]`. An unmapped field is no error: it has no values.
 */
import {
  illegalArgument,
  numberFormat,
  RAW_FORMAT,
  type ValueFormat,
  type ValuesSourceSpec,
} from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT, resolveDateMath } from '../dates/index.ts';
import { javaParseDouble } from '../dates/java-numbers.ts';
import type { LeafType, NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import { NUMERIC_TYPES as MAPPING_NUMBER_TYPES } from '../mapping/params.ts';
import type { ShardContext } from '../search/field-values.ts';
import { ipSortKey, parseIp } from '../search/ip.ts';
import { resolveSortKeys } from '../search/sort-keys.ts';
import type { ScoreSource } from './doc-scores.ts';

/** What a shard's aggregations need besides the specs. */
export interface AggShardContext extends ShardContext {
  nowMillis: number;
  isCancelled?: () => boolean;
}

export interface AggEnv {
  readonly reader: ShardReader;
  /** The query's scores, for the aggregations that use them (top_hits). */
  scores?: ScoreSource;
  /** The mapping as top-level queries see it (fields inside nested objects are hidden). */
  readonly mapping: IndexMapping;
  readonly ctx: AggShardContext;
}

export type SourceKind = 'number' | 'date' | 'bool' | 'keyword' | 'ip' | 'geo' | 'unmapped';

export interface FieldSource {
  readonly path: string;
  readonly kind: SourceKind;
  /** The mapped type (undefined when unmapped). */
  readonly type?: LeafType;
  /** long fields: doc values are 64-bit integers (terms keys stay exact). */
  readonly long: boolean;
  /** date_nanos: doc values are epoch nanos, read as millis. */
  readonly nanos: boolean;
  readonly fmt: ValueFormat;
  /** The date format text is parsed with (date fields and date_range bounds). */
  readonly dateFormat: string;
  readonly spec: ValuesSourceSpec;
  /** `_index`: every doc has this one keyword value, the index name. */
  readonly constant?: string;
}

/** The number field types (the mapping's list). */
const NUMBER_TYPES: ReadonlySet<string> = MAPPING_NUMBER_TYPES;

function kindOf(type: LeafType): SourceKind {
  if (NUMBER_TYPES.has(type)) return 'number';
  switch (type) {
    case 'date':
    case 'date_nanos':
      return 'date';
    case 'boolean':
      return 'bool';
    case 'keyword':
      return 'keyword';
    case 'ip':
      return 'ip';
    case 'geo_point':
      return 'geo';
    default:
      return 'unmapped';
  }
}

/**
 * Resolves an aggregation's values source. `allowed` are the kinds the aggregation type takes;
 * `aggType` names it in errors; `unmappedAsDate` makes an unmapped field print as dates.
 */
export function resolveSource(
  spec: ValuesSourceSpec,
  aggType: string,
  allowed: ReadonlySet<SourceKind>,
  env: AggEnv,
  unmappedAsDate = false,
): FieldSource {
  const path = spec.field;
  if (path === '_index') {
    if (!allowed.has('keyword')) {
      throw illegalArgument(`Field [_index] of type [_index] is not supported for aggregation [${aggType}]`);
    }
    const dateFormat = DEFAULT_DATE_FORMAT;
    return {
      path,
      kind: 'unmapped',
      long: false,
      nanos: false,
      fmt: RAW_FORMAT,
      dateFormat,
      spec,
      constant: env.ctx.index,
    };
  }
  const field = env.mapping.field(path);
  const rankFeature = field?.mappedType === 'rank_feature' || field?.mappedType === 'rank_features';
  if (path === '_id' || (field && (field.type === 'text' || !field.docValues || rankFeature))) {
    // Elasticsearch refuses field data for aggregations exactly as for sorting.
    resolveSortKeys([{ kind: 'field', field: path, order: 'asc', missing: '_last' }], env.mapping, env.ctx);
  }
  if (!field) {
    const dateFormat = spec.format ?? DEFAULT_DATE_FORMAT;
    // Date aggregations read an unmapped field as a date field (their default values source type).
    const dateHint = spec.valueType === 'date' || (unmappedAsDate && spec.valueType === undefined);
    // `value_type: boolean` prints keys and values as booleans (ValueType.BOOLEAN's format).
    let fmt: ValueFormat = RAW_FORMAT;
    if (dateHint) fmt = dateFormatOf(dateFormat, spec);
    else if (spec.valueType === 'boolean') fmt = { kind: 'bool' };
    return { path, kind: 'unmapped', long: false, nanos: false, fmt, dateFormat, spec };
  }
  if (field.vector) {
    throw illegalArgument(
      `Field [${path}] of type [dense_vector] is not supported for aggregation [${aggType}]`,
    );
  }
  const kind = kindOf(field.type);
  if (!allowed.has(kind)) {
    throw illegalArgument(
      `Field [${path}] of type [${field.type}] is not supported for aggregation [${aggType}]`,
    );
  }
  const nanos = field.type === 'date_nanos';
  const dateFormat = spec.format ?? field.format ?? (nanos ? DEFAULT_DATE_NANOS_FORMAT : DEFAULT_DATE_FORMAT);
  let fmt: ValueFormat = RAW_FORMAT;
  if (kind === 'date') fmt = dateFormatOf(dateFormat, spec);
  else if (kind === 'bool') fmt = { kind: 'bool' };
  else if (kind === 'ip') fmt = { kind: 'ip' };
  else if (kind === 'number' && spec.format !== undefined) fmt = { kind: 'decimal', pattern: spec.format };
  // field.path, not the name asked for: an alias reads its target's values.
  return {
    path: field.path,
    kind,
    type: field.type,
    long: field.type === 'long',
    nanos,
    fmt,
    dateFormat,
    spec,
  };
}

function dateFormatOf(pattern: string, spec: ValuesSourceSpec): ValueFormat {
  return spec.timeZone === undefined
    ? { kind: 'date', pattern }
    : { kind: 'date', pattern, timeZone: spec.timeZone };
}

/** Per-doc values as doubles: `values[starts[d]] … values[starts[d + 1] - 1]`, ascending. */
export interface DoubleView {
  readonly starts: Uint32Array;
  readonly values: Float64Array;
}

/** The segment's values of a number, date or boolean source as doubles (null: none here). */
export function doubleView(src: FieldSource, rs: ReaderSegment): DoubleView | null {
  const sf = rs.segment.field(src.path);
  if (!sf) return null;
  if (src.kind === 'bool') {
    const ss = sf.sortedSet;
    return ss ? rs.segment.cached(`agg:bool:${src.path}`, () => booleanView(ss)) : null;
  }
  const n = sf.numeric;
  if (!n) return null;
  if (n.kind === 'double') return n;
  return rs.segment.cached(`agg:dbl:${src.path}`, () => longView(n, src.nanos));
}

function booleanView(ss: SortedSetValues): DoubleView {
  const values = new Float64Array(ss.ords.length);
  const truth = ss.terms.map((t) => (t === 'true' || t === 'T' ? 1 : 0));
  for (let i = 0; i < values.length; i++) values[i] = truth[ss.ords[i]!]!;
  return { starts: ss.starts, values };
}

function longView(n: Extract<NumericValues, { kind: 'long' }>, nanos: boolean): DoubleView {
  const src = n.values;
  const values = new Float64Array(src.length);
  for (let i = 0; i < src.length; i++) values[i] = nanos ? Number(src[i]! / 1_000_000n) : Number(src[i]!);
  return { starts: n.starts, values };
}

/** The segment's sorted-set doc values of a keyword or ip source. */
export function ordsView(src: FieldSource, rs: ReaderSegment): SortedSetValues | null {
  return rs.segment.field(src.path)?.sortedSet ?? null;
}

/** The raw 64-bit values of a long source (terms keys stay exact). */
export function longValues(
  src: FieldSource,
  rs: ReaderSegment,
): Extract<NumericValues, { kind: 'long' }> | null {
  const n = rs.segment.field(src.path)?.numeric;
  return n && n.kind === 'long' && !src.nanos ? n : null;
}

/** An ip segment's terms as hex keys that order like the addresses. */
export function ipKeys(src: FieldSource, rs: ReaderSegment, terms: readonly string[]): readonly string[] {
  return rs.segment.cached(`agg:ip:${src.path}`, () =>
    terms.map((t) => {
      const v = parseIp(t);
      return v === undefined ? t : ipSortKey(v);
    }),
  );
}

/** A double from a request value for a number/date/bool source (missing, range bounds). */
export function numberFor(src: FieldSource, v: unknown, env: AggEnv, roundUp = false): number {
  if (src.kind === 'bool' || src.fmt.kind === 'bool' || typeof v === 'boolean') return booleanNumber(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const text = String(v);
  if (src.kind === 'date' || (src.kind === 'unmapped' && src.fmt.kind === 'date')) {
    return Number(
      resolveDateMath(text, src.dateFormat, 'millis', {
        roundUp,
        timeZone: src.spec.timeZone,
        nowMillis: env.ctx.nowMillis,
      }),
    );
  }
  const d = javaParseDouble(text);
  if (Number.isNaN(d) && text.trim() !== 'NaN') throw numberFormat(text.trim());
  return d;
}

function booleanNumber(v: unknown): number {
  if (v === true || v === 'true') return 1;
  if (v === false || v === 'false' || v === '') return 0;
  throw illegalArgument(`Cannot parse boolean [${String(v)}], expected either [true] or [false]`);
}

/** An ip request value as its hex key. */
export function ipKeyFor(v: unknown): string {
  const parsed = parseIp(String(v));
  if (parsed === undefined) throw illegalArgument(`'${String(v)}' is not an IP string literal.`);
  return ipSortKey(parsed);
}

/** A long request value, exact: number when it is a safe integer, bigint beyond. */
export function exactLong(v: unknown): number | bigint {
  if (typeof v === 'bigint') return normalizeLong(v);
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : Math.trunc(v);
  const text = String(v).trim();
  if (/^[+-]?\d+$/.test(text)) return normalizeLong(BigInt(text));
  const d = javaParseDouble(text);
  if (Number.isNaN(d)) throw numberFormat(text);
  return Math.trunc(d);
}

/** A 64-bit value as a terms key: a number when exact, else the bigint. */
export function normalizeLong(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/** The kinds of field each family of aggregations reads (resolveSource refuses the others). */
export const NUMERIC_KINDS: ReadonlySet<FieldSource['kind']> = new Set(['number', 'date', 'bool']);
export const TERMS_KINDS: ReadonlySet<FieldSource['kind']> = new Set([
  'number',
  'date',
  'bool',
  'keyword',
  'ip',
]);
export const ANY_KINDS: ReadonlySet<FieldSource['kind']> = new Set([
  'number',
  'date',
  'bool',
  'keyword',
  'ip',
  'geo',
]);
