/**
 * Term-level queries: term, terms, range, exists, ids, prefix, wildcard. Each follows its
 * Elasticsearch 8 builder's `fromXContent`: a short form (`{"f": value}`) and a long form
 * (`{"f": {"value": …, "boost": …}}`), one field only, and the builder constructor's checks last.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { isShoalError } from '../errors/shoal-error.ts';
import { zoneId } from '../search/aggs/values-source.ts';
import type { JsonScalar, QueryNode } from './ast.ts';
import { asParsingException } from './compound.ts';
import { checkDateFormat } from './date-format-check.ts';
import { parsingError } from './local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  isValue,
  type ParseCtx,
  parseField,
  tokenOf,
  unknownField,
  VT,
} from './parse-context.ts';
import { parseTermsLookup, type TermsLookup } from './terms-lookup.ts';
import { booleanValue, floatValue, objectText, text, textOrNull } from './xcontent-values.ts';

/** AbstractQueryBuilder.throwParsingExceptionOnMultipleFields. */
export function checkSingleField(ctx: ParseCtx, query: string, seen: string | undefined, key: string): void {
  if (seen !== undefined) {
    throw parsingError(
      `[${query}] query doesn't support multiple fields, found [${seen}] and [${key}]`,
      here(ctx, 'value', key),
    );
  }
}

/** A builder-constructor failure, raised once the whole body was read (parser at its `}`). */
/** A builder constructor's IllegalArgumentException, raised once the body was read (at its `}`). */
export function ctorError(ctx: ParseCtx, reason: string) {
  here(ctx, 'end');
  return illegalArgument(reason);
}

/** Term values are scalars; Shoal: an object value is refused at parse time. */
function termValue(ctx: ParseCtx, query: string, v: unknown, key: string): JsonScalar {
  if (isObject(v)) throw parsingError(`[${query}] query does not support [${key}]`, here(ctx, 'value', key));
  return objectText(ctx, v, key);
}

export function parseTerm(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let value: JsonScalar = null;
  let boost = 1;
  let caseInsensitive = false;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      checkSingleField(ctx, 'term', field, key);
      field = key;
      ctx.path.push(key);
      for (const ik of Object.keys(v)) {
        const iv = v[ik];
        if (ik === 'term' || ik === 'value') {
          if (ik === 'value' && Array.isArray(iv)) {
            throw parsingError(
              '[term] query does not support arrays for value - use a bool query with multiple term clauses ' +
                'in the should section or use a Terms query if scoring is not required',
              here(ctx, 'value', ik),
            );
          }
          value = termValue(ctx, 'term', iv, ik);
        } else if (ik === '_name') text(ctx, iv, ik);
        else if (ik === 'boost') boost = floatValue(ctx, iv, ik);
        else if (ik === 'case_insensitive') caseInsensitive = booleanValue(ctx, iv, ik);
        else throw parsingError(`[term] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
      ctx.path.pop();
    } else if (isValue(v)) {
      checkSingleField(ctx, 'term', field, key);
      field = key;
      value = v;
    } else if (Array.isArray(v)) {
      throw parsingError('[term] query does not support array of values', here(ctx, 'value', key));
    }
  }
  if (!field) throw ctorError(ctx, 'field name is null or empty');
  if (value === null) throw ctorError(ctx, 'value cannot be null');
  return { type: 'term', field, value, boost, caseInsensitive };
}

export function parseTerms(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let values: JsonScalar[] | undefined;
  let lookup: TermsLookup | undefined;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (Array.isArray(v)) {
      if (field !== undefined) {
        throw parsingError('[terms] query does not support multiple fields', here(ctx, 'value', key));
      }
      field = key;
      values = termsValues(ctx, key, v);
    } else if (isObject(v)) {
      if (field !== undefined) {
        throw parsingError(
          `[terms] query does not support more than one field. Already got: [${field}] but also found [${key}]`,
          here(ctx, 'value', key),
        );
      }
      field = key;
      lookup = parseTermsLookup(ctx, key, v);
    } else if (isValue(v)) {
      if (key === 'boost') boost = floatValue(ctx, v, key);
      else if (key === '_name') text(ctx, v, key);
      else throw parsingError(`[terms] query does not support [${key}]`, here(ctx, 'value', key));
    } else {
      throw parsingError(`[terms] unknown token [${tokenOf(v)}] after [${key}]`, here(ctx, 'value', key));
    }
  }
  if (field === undefined || (values === undefined && lookup === undefined)) {
    throw parsingError(
      '[terms] query requires a field name, followed by array of terms or a document lookup specification',
      here(ctx, 'end'),
    );
  }
  if (field.length === 0) throw ctorError(ctx, 'field name cannot be null.');
  if (lookup) return { type: 'terms_lookup', field, lookup, boost };
  return { type: 'terms', field, values: values!, boost };
}

export function termsValues(ctx: ParseCtx, key: string, arr: unknown[]): JsonScalar[] {
  const out: JsonScalar[] = [];
  ctx.path.push(key);
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (v === null) throw parsingError('No value specified for terms query', here(ctx, 'value', i));
    out.push(termValue(ctx, 'terms', v, String(i)));
  }
  ctx.path.pop();
  return out;
}

export function parseRange(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let from: JsonScalar = null;
  let to: JsonScalar = null;
  let includeLower = true;
  let includeUpper = true;
  let boost = 1;
  let format: string | undefined;
  let timeZone: string | undefined;
  let relation: string | undefined;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      checkSingleField(ctx, 'range', field, key);
      field = key;
      ctx.path.push(key);
      for (const ik of Object.keys(v)) {
        const iv = v[ik];
        switch (ik) {
          case 'from':
            from = termValue(ctx, 'range', iv, ik);
            break;
          case 'to':
            to = termValue(ctx, 'range', iv, ik);
            break;
          case 'include_lower':
            includeLower = booleanValue(ctx, iv, ik);
            break;
          case 'include_upper':
            includeUpper = booleanValue(ctx, iv, ik);
            break;
          case 'boost':
            boost = floatValue(ctx, iv, ik);
            break;
          case 'gt':
          case 'gte':
            from = termValue(ctx, 'range', iv, ik);
            includeLower = ik === 'gte';
            break;
          case 'lt':
          case 'lte':
            to = termValue(ctx, 'range', iv, ik);
            includeUpper = ik === 'lte';
            break;
          case 'time_zone':
            timeZone = text(ctx, iv, ik);
            break;
          case 'format':
            format = text(ctx, iv, ik);
            break;
          case 'relation':
            relation = text(ctx, iv, ik);
            break;
          case '_name':
            text(ctx, iv, ik);
            break;
          default:
            throw parsingError(`[range] query does not support [${ik}]`, here(ctx, 'value', ik));
        }
      }
      ctx.path.pop();
    } else if (isValue(v) || Array.isArray(v)) {
      // An array is skipped token by token until its first value, which fails the same way.
      if (!Array.isArray(v) || v.length > 0) {
        throw parsingError(`[range] query does not support [${key}]`, here(ctx, 'value', key));
      }
    }
  }
  // The builder's setters run in this order once the body is read, whatever the field's type.
  if (!field) throw ctorError(ctx, 'field name is null or empty');
  if (timeZone !== undefined) checkTimeZone(ctx, timeZone);
  if (format !== undefined) {
    try {
      checkDateFormat(format);
    } catch (e) {
      here(ctx, 'end');
      throw e;
    }
  }
  if (relation !== undefined) checkRelation(ctx, relation);
  const node: QueryNode = { type: 'range', field, boost };
  if (from !== null) node[includeLower ? 'gte' : 'gt'] = from;
  if (to !== null) node[includeUpper ? 'lte' : 'lt'] = to;
  if (format !== undefined) node.format = format;
  if (timeZone !== undefined) node.timeZone = timeZone;
  if (relation !== undefined) node.relation = relation.toLowerCase() as 'intersects' | 'contains' | 'within';
  return node;
}

/** The java.time exceptions ZoneId.of throws, by their Elasticsearch type name. */
const JAVA_TIME_EXCEPTIONS: Record<string, string> = {
  zone_rules_exception: 'java.time.zone.ZoneRulesException',
  date_time_exception: 'java.time.DateTimeException',
};

/**
 * RangeQueryBuilder.timeZone: ZoneId.of at parse time, its DateTimeException rethrown as
 * `new IllegalArgumentException(e)`, whose message is the cause's toString().
 */
function checkTimeZone(ctx: ParseCtx, id: string): void {
  try {
    zoneId(ctx, id);
  } catch (e) {
    if (!isShoalError(e)) throw e;
    here(ctx, 'end');
    throw illegalArgument(`${JAVA_TIME_EXCEPTIONS[e.type] ?? e.type}: ${e.reason}`, e);
  }
}

/** RangeQueryBuilder.relation: a ShapeRelation name other than `disjoint`. */
function checkRelation(ctx: ParseCtx, relation: string): void {
  const r = relation.toLowerCase();
  if (r === 'intersects' || r === 'contains' || r === 'within') return;
  here(ctx, 'end');
  if (r === 'disjoint') throw illegalArgument(`[range] query does not support relation [${relation}]`);
  throw illegalArgument(`${relation} is not a valid relation`);
}

export function parseExists(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | null = null;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isValue(v)) {
      throw parsingError(`[exists] unknown token [${tokenOf(v)}] after [${key}]`, here(ctx, 'value', key));
    }
    if (key === 'field') field = text(ctx, v, key);
    else if (key === '_name') text(ctx, v, key);
    else if (key === 'boost') boost = floatValue(ctx, v, key);
    else throw parsingError(`[exists] query does not support [${key}]`, here(ctx, 'value', key));
  }
  if (field === null) throw parsingError('[exists] must be provided with a [field]', here(ctx, 'end'));
  if (field.length === 0) throw ctorError(ctx, 'field name is null or empty');
  return { type: 'exists', field, boost };
}

/** ids is an ObjectParser whose IllegalArgumentExceptions become ParsingExceptions. */
export function parseIds(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  const ids = new Set<string>();
  let boost = 1;
  try {
    for (const key of Object.keys(body)) {
      const v = body[key];
      if (key === 'values') {
        assertSupports(ctx, 'ids', key, v, VT.STRING_ARRAY);
        parseField(ctx, 'ids', key, () => {
          if (!Array.isArray(v)) ids.add(text(ctx, v));
          else for (let i = 0; i < v.length; i++) ids.add(text(ctx, v[i], i));
        });
      } else if (key === 'boost') {
        assertSupports(ctx, 'ids', key, v, VT.FLOAT);
        boost = parseField(ctx, 'ids', key, () => floatValue(ctx, v));
      } else if (key === '_name') {
        assertSupports(ctx, 'ids', key, v, VT.STRING);
      } else {
        throw unknownField(ctx, 'ids', key, ['values', 'boost', '_name']);
      }
    }
  } catch (e) {
    throw asParsingException(ctx, e);
  }
  return { type: 'ids', values: [...ids], boost };
}

/** prefix and wildcard share one shape: `{"f": "v"}` or `{"f": {"value": "v", …}}`. */
function parseMultiTerm(body: Record<string, unknown>, ctx: ParseCtx, query: 'prefix' | 'wildcard') {
  let field: string | undefined;
  let value: string | null = null;
  let boost = 1;
  let caseInsensitive = false;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      checkSingleField(ctx, query, field, key);
      field = key;
      ctx.path.push(key);
      for (const ik of Object.keys(v)) {
        const iv = v[ik];
        if (ik === 'value' || (query === 'wildcard' && ik === 'wildcard')) {
          value = query === 'prefix' ? textOrNull(ctx, iv, ik) : text(ctx, iv, ik);
        } else if (ik === 'boost') boost = floatValue(ctx, iv, ik);
        else if (ik === 'rewrite') textOrNull(ctx, iv, ik);
        else if (ik === 'case_insensitive') caseInsensitive = booleanValue(ctx, iv, ik);
        else if (ik === '_name') text(ctx, iv, ik);
        else throw parsingError(`[${query}] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
      ctx.path.pop();
    } else {
      checkSingleField(ctx, query, field, key);
      field = key;
      value = query === 'prefix' ? textOrNull(ctx, v, key) : text(ctx, v, key);
    }
  }
  if (!field) throw ctorError(ctx, 'field name is null or empty');
  if (value === null) throw ctorError(ctx, 'value cannot be null');
  return { field, value, boost, caseInsensitive };
}

export function parsePrefix(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  return { type: 'prefix', ...parseMultiTerm(body, ctx, 'prefix') };
}

export function parseWildcard(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  return { type: 'wildcard', ...parseMultiTerm(body, ctx, 'wildcard') };
}
