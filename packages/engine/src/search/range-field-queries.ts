/**
 * `term`, `terms` and `range` queries on range fields (RangeFieldMapper's RangeFieldType): the
 * query's bounds become an inclusive range of the field's type, and a document matches when
 * one of its ranges stands in the asked relation to it — `intersects` (the default; a `term`
 * is a range of one value that a document's range must hold), `contains` (the document's
 * range holds the query's) or `within`. Each distinct range is one term of the dictionary, so
 * a query decodes and tests each once.
 */
import { illegalArgument, isShoalError, type JsonScalar } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { resolveDateMath } from '../dates/index.ts';
import {
  decodeRange,
  nextValue,
  parseRangeBound,
  type RangeBound,
  rangeMatches,
  rangeMax,
  rangeMin,
} from '../mapping/range-values.ts';
import type { RangeType } from '../mapping/special-types.ts';
import type { CompileEnv } from './compile-env.ts';
import { failedToCreateQuery } from './field-values.ts';
import { allTerms, dictionaryDocs } from './segment-scans.ts';
import type { RangeBounds } from './term-level.ts';
import { ConstantWeight, type Weight } from './weights.ts';

export type RangeRelation = 'intersects' | 'contains' | 'within';

function bound(
  env: CompileEnv,
  field: ResolvedField,
  value: JsonScalar,
  roundUp: boolean,
  r?: RangeBounds,
): RangeBound {
  const type = field.rangeType as RangeType;
  try {
    if (type === 'date_range') {
      const format = r?.format ?? field.format ?? 'strict_date_optional_time||epoch_millis';
      return BigInt(
        resolveDateMath(String(value), format, 'millis', {
          roundUp,
          timeZone: r?.timeZone,
          nowMillis: env.nowMillis,
        }),
      );
    }
    return parseRangeBound(type, value, true);
  } catch (e) {
    if (isShoalError(e) && e.type === 'illegal_argument_exception') throw failedToCreateQuery(env, e);
    throw e;
  }
}

function rangeWeight(
  field: ResolvedField,
  relation: RangeRelation,
  from: RangeBound,
  to: RangeBound,
  boost: number,
): Weight {
  const type = field.rangeType as RangeType;
  const path = field.path;
  return new ConstantWeight(
    (rs) =>
      dictionaryDocs(rs, path, allTerms, (term) => {
        const [a, b] = decodeRange(type, term);
        return rangeMatches(relation, a, b, from, to);
      }),
    Math.fround(boost),
  );
}

export function rangeFieldTermQuery(
  env: CompileEnv,
  field: ResolvedField,
  value: JsonScalar,
  boost: number,
): Weight {
  if (value === null) throw failedToCreateQuery(env, illegalArgument('value cannot be null'));
  const from = bound(env, field, value, false);
  const to = field.rangeType === 'date_range' ? bound(env, field, value, true) : from;
  return rangeWeight(field, 'intersects', from, to, boost);
}

export function rangeFieldTermsQuery(
  env: CompileEnv,
  field: ResolvedField,
  values: JsonScalar[],
  boost: number,
): Weight {
  const points = values.map((v) => {
    const from = bound(env, field, v, false);
    return [from, field.rangeType === 'date_range' ? bound(env, field, v, true) : from] as const;
  });
  const type = field.rangeType as RangeType;
  return new ConstantWeight(
    (rs) =>
      dictionaryDocs(rs, field.path, allTerms, (term) => {
        const [a, b] = decodeRange(type, term);
        return points.some(([from, to]) => rangeMatches('intersects', a, b, from, to));
      }),
    Math.fround(boost),
  );
}

export function rangeFieldRangeQuery(
  env: CompileEnv,
  field: ResolvedField,
  r: RangeBounds,
  boost: number,
): Weight {
  const type = field.rangeType as RangeType;
  const has = (v: JsonScalar | undefined): v is JsonScalar => v !== undefined && v !== null;
  let from = rangeMin(type);
  let to = rangeMax(type);
  // As for date fields: `gt` and `lte` round up, `gte` and `lt` down.
  if (has(r.gte)) from = bound(env, field, r.gte, false, r);
  else if (has(r.gt)) from = nextValue(type, bound(env, field, r.gt, true, r), true);
  if (has(r.lte)) to = bound(env, field, r.lte, true, r);
  else if (has(r.lt)) to = nextValue(type, bound(env, field, r.lt, false, r), false);
  return rangeWeight(field, r.relation ?? 'intersects', from, to, boost);
}
