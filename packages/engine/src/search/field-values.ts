/**
 * Query values converted to a field's type, as the field mappers' `termQuery`/`rangeQuery` do:
 * numbers to the field's numeric kind (longs exact as bigint), booleans to their indexed
 * term, ip addresses to integers. Bad values fail as Elasticsearch fails them.
 */
import { illegalArgument, type JsonScalar, numberFormat, ShoalError } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import type { LeafType } from '../index/segment.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { scaledFloat, storedFloating } from '../mapping/number-values.ts';
import { NUMERIC_TYPES as NUMBER_TYPES } from '../mapping/params.ts';

export interface ShardContext {
  index: string;
  indexUuid: string;
}

/** The number types and the date types (their values are numbers too). */
export const NUMERIC_TYPES: ReadonlySet<LeafType> = new Set([
  ...(NUMBER_TYPES as ReadonlySet<LeafType>),
  'date',
  'date_nanos',
]);

export function isNumericType(t: LeafType): boolean {
  return NUMERIC_TYPES.has(t) && t !== 'date' && t !== 'date_nanos';
}

export function isIntegerType(t: LeafType): boolean {
  return t === 'long' || t === 'integer' || t === 'short' || t === 'byte';
}

/** Doc values of long and date_nanos fields are bigint; every other numeric field is a double. */
export function isLongKind(t: LeafType): boolean {
  return t === 'long' || t === 'date_nanos';
}

/**
 * SearchExecutionContext.toQuery: an exception thrown while a field builds its query becomes a
 * query_shard_exception quoting its message and keeping it as the cause.
 */
export function failedToCreateQuery(ctx: ShardContext, cause: ShoalError): ShoalError {
  return new ShoalError(
    'query_shard_exception',
    `failed to create query: ${cause.reason}`,
    400,
    { index_uuid: ctx.indexUuid, index: ctx.index },
    cause,
  );
}

/**
 * MappedFieldType.failIfNotIndexed: a text field mapped with `index: false` has no terms to
 * search (keyword, numeric and date fields fall back to their doc values instead).
 */
export function checkSearchable(ctx: ShardContext, field: ResolvedField): void {
  // DenseVectorFieldType.termQuery: a vector is only found by the knn query.
  if (field.vector) {
    throw failedToCreateQuery(
      ctx,
      illegalArgument(`Field [${field.path}] of type [dense_vector] doesn't support term queries`),
    );
  }
  // BinaryFieldType: its values are kept (for `exists` and doc values), never searched.
  if (field.mappedType === 'binary')
    throw failedToCreateQuery(ctx, illegalArgument('Binary fields do not support searching'));
  if (field.index || field.type !== 'text') return;
  throw failedToCreateQuery(
    ctx,
    illegalArgument(`Cannot search on field [${field.path}] since it is not indexed.`),
  );
}

const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * A numeric query value for a numeric field: bigint when it is an integer for a long field,
 * otherwise a number (a decimal bound on an integer field stays fractional, which compares
 * exactly like Elasticsearch's rounding of the bound).
 */
export function toFieldNumber(
  type: LeafType,
  value: JsonScalar,
  ctx: ShardContext,
  /** A range bound: a half_float compares its halves with the float bound, not its half. */
  bound = false,
  /** A scaled_float's factor: a term matches the value the field keeps. */
  scalingFactor?: number,
): number | bigint {
  let n: number | bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && NUMBER_TEXT.test(value)) {
    const t = value.trim();
    n = isLongKind(type) && /^[+-]?\d+$/.test(t) ? BigInt(t) : Number(t);
  } else {
    throw failedToCreateQuery(ctx, numberFormat(String(value)));
  }
  if (type === 'float' || (type === 'half_float' && bound)) return Math.fround(Number(n));
  if (type === 'half_float') return storedFloating(type, Number(n));
  if (type === 'scaled_float' && !bound && scalingFactor !== undefined)
    return scaledFloat(Number(n), scalingFactor);
  if (isLongKind(type)) {
    if (typeof n === 'number' && Number.isInteger(n)) return BigInt(n);
    return n;
  }
  return Number(n);
}

export function parseBooleanValue(value: JsonScalar, ctx: ShardContext): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  if (value === '') return false;
  throw failedToCreateQuery(
    ctx,
    illegalArgument(`Can't parse boolean value [${String(value)}], expected [true] or [false]`),
  );
}

/** The indexed form of a boolean: Elasticsearch indexes `T`/`F`; `true`/`false` is accepted too. */
export function booleanTerm(reader: ShardReader, field: string, value: boolean): string {
  for (const s of reader.segments) {
    const terms = s.segment.field(field)?.postings?.terms;
    if (!terms || terms.length === 0) continue;
    if (terms.includes('T') || terms.includes('F')) return value ? 'T' : 'F';
    return value ? 'true' : 'false';
  }
  return value ? 'T' : 'F';
}

export function scalarText(value: JsonScalar): string {
  return value === null ? '' : String(value);
}
