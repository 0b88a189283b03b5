/**
 * Full-text queries: match, match_phrase, multi_match, following the
 * Elasticsearch 8 builders' hand-written `fromXContent` loops (`parsing_exception`s) and their
 * setters' IllegalArgumentExceptions.
 */
import { illegalArgument, parseException } from '../errors/catalogue.ts';
import type { FieldBoost, JsonScalar, QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, onValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { checkSingleField } from './term-level.ts';
import { booleanValue, floatValue, intValue, javaParseDouble, objectText, text } from './xcontent-values.ts';

type MatchNode = Extract<QueryNode, { type: 'match' }>;
type MultiMatchNode = Extract<QueryNode, { type: 'multi_match' }>;
type MatchType = MultiMatchNode['matchType'];

/** Operator.fromString: `valueOf(op.toUpperCase())`, so Java's enum message on failure. */
export function parseOperator(op: string): 'or' | 'and' {
  const up = op.toUpperCase();
  if (up === 'OR') return 'or';
  if (up === 'AND') return 'and';
  throw illegalArgument(`No enum constant org.elasticsearch.index.query.Operator.${up}`);
}

function zeroTerms(ctx: ParseCtx, v: unknown, key: string): 'none' | 'all' {
  const s = text(ctx, v, key);
  const lower = s.toLowerCase();
  if (lower === 'none' || lower === 'all') return lower;
  throw parsingError(`Unsupported zero_terms_query value [${s}]`, here(ctx, 'value', key));
}

/** Fuzziness.parse / fromString, normalised to `AUTO`, `AUTO:low,high`, `0`, `1` or `2`. */
export function fuzziness(ctx: ParseCtx, v: unknown, key: string): string {
  const s = text(ctx, v, key);
  return onValue(ctx, key, () => fuzzinessFromString(s));
}

function fuzzinessFromString(s: string): string {
  if (s.length === 0) throw illegalArgument('fuzziness cannot be null or empty.');
  const up = s.toUpperCase();
  if (up === 'AUTO') return 'AUTO';
  if (up.startsWith('AUTO:')) {
    const limits = up.slice(5).split(',');
    if (limits.length !== 2) throw parseException('failed to find low and high distance values');
    const [low, high] = limits.map((x) => (/^[+-]?\d+$/.test(x) ? Number(x) : Number.NaN)) as [
      number,
      number,
    ];
    if (Number.isNaN(low) || Number.isNaN(high)) {
      throw parseException(`failed to parse [${up}] as a "auto:int,int"`);
    }
    return `AUTO:${low},${high}`;
  }
  const f = Math.fround(javaParseDouble(up));
  if (f < 0) throw illegalArgument(`Invalid fuzziness value: ${s}`);
  return f >= 2 ? '2' : f >= 1 ? '1' : '0';
}

export function parseMatch(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  return parseMatchLike(body, ctx, 'match');
}

/**
 * match_bool_prefix: the analysed terms as a bool of term queries (fuzzy with `fuzziness`) but
 * the last, a prefix query. It takes match's options but lenient, zero_terms_query and
 * auto_generate_synonyms_phrase_query.
 */
export function parseMatchBoolPrefix(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  return parseMatchLike(body, ctx, 'match_bool_prefix');
}

const MATCH_ONLY_KEYS = new Set(['lenient', 'zero_terms_query', 'auto_generate_synonyms_phrase_query']);

function parseMatchLike(
  body: Record<string, unknown>,
  ctx: ParseCtx,
  name: 'match' | 'match_bool_prefix',
): QueryNode {
  let field: string | undefined;
  let value: JsonScalar = null;
  // Every required key up front, in order: one object shape, no copy at the end.
  const node: MatchNode = {
    type: 'match',
    field: '',
    query: null,
    operator: 'or',
    zeroTermsQuery: 'none',
    lenient: false,
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isObject(v)) {
      checkSingleField(ctx, name, field, key);
      field = key;
      value = objectText(ctx, v, key);
      continue;
    }
    checkSingleField(ctx, name, field, key);
    field = key;
    ctx.path.push(key);
    for (const ik of Object.keys(v)) {
      const iv = v[ik];
      if (!isValue(iv)) {
        throw parsingError(`[${name}] unknown token [${tokenOf(iv)}] after [${ik}]`, here(ctx, 'value', ik));
      }
      if (name === 'match_bool_prefix' && MATCH_ONLY_KEYS.has(ik)) {
        throw parsingError(`[${name}] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
      switch (ik) {
        case 'query':
          value = iv;
          break;
        case 'analyzer':
          node.analyzer = text(ctx, iv, ik);
          break;
        case 'boost':
          node.boost = floatValue(ctx, iv, ik);
          break;
        case 'fuzziness':
          node.fuzziness = fuzziness(ctx, iv, ik);
          break;
        case 'prefix_length':
          node.prefixLength = intValue(ctx, iv, ik);
          break;
        case 'max_expansions':
          node.maxExpansions = intValue(ctx, iv, ik);
          break;
        case 'operator':
          node.operator = operatorValue(ctx, iv, ik);
          break;
        case 'minimum_should_match':
          node.minimumShouldMatch = text(ctx, iv, ik);
          break;
        case 'fuzzy_transpositions':
          node.fuzzyTranspositions = booleanValue(ctx, iv, ik);
          break;
        case 'lenient':
          node.lenient = booleanValue(ctx, iv, ik);
          break;
        case 'zero_terms_query':
          node.zeroTermsQuery = zeroTerms(ctx, iv, ik);
          break;
        case 'fuzzy_rewrite':
          node.fuzzyRewrite = text(ctx, iv, ik);
          break;
        case '_name':
          text(ctx, iv, ik);
          break;
        case 'auto_generate_synonyms_phrase_query':
          booleanValue(ctx, iv, ik);
          break;
        default:
          throw parsingError(`[${name}] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
    }
    ctx.path.pop();
  }
  if (name === 'match_bool_prefix') {
    if (!field) throw atEnd(ctx, illegalArgument(`[${name}] requires fieldName`));
    if (value === null) throw atEnd(ctx, illegalArgument(`[${name}] requires query value`));
  }
  if (value === null) throw parsingError('No text specified for text query', here(ctx, 'end'));
  if (node.prefixLength !== undefined && node.prefixLength < 0) {
    throw atEnd(ctx, illegalArgument(`[${name}] requires prefix length to be non-negative.`));
  }
  if (node.maxExpansions !== undefined && node.maxExpansions <= 0) {
    throw atEnd(ctx, illegalArgument(`[${name}] requires maxExpansions to be positive.`));
  }
  node.field = field!;
  node.query = value;
  if (name === 'match_bool_prefix') {
    const { type: _, lenient: _l, zeroTermsQuery: _z, ...rest } = node;
    return { type: 'match_bool_prefix', ...rest };
  }
  return node;
}

function operatorValue(ctx: ParseCtx, v: unknown, key: string): 'or' | 'and' {
  const op = text(ctx, v, key);
  try {
    return parseOperator(op);
  } catch (e) {
    here(ctx, 'value', key);
    throw e;
  }
}

/** A builder check made once the body was read: the parser stands on the body's `}`. */
function atEnd<E>(ctx: ParseCtx, e: E): E {
  here(ctx, 'end');
  return e;
}

export function parseMatchPhrase(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  return parsePhrase(body, ctx, 'match_phrase');
}

/** match_phrase_prefix: a phrase whose last term is a prefix of at most `max_expansions` terms. */
export function parseMatchPhrasePrefix(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  return parsePhrase(body, ctx, 'match_phrase_prefix');
}

function parsePhrase(
  body: Record<string, unknown>,
  ctx: ParseCtx,
  name: 'match_phrase' | 'match_phrase_prefix',
): QueryNode {
  let field: string | undefined;
  let value: JsonScalar = null;
  let analyzer: string | undefined;
  let boost = 1;
  let slop = 0;
  let maxExpansions = 50;
  let zeroTermsQuery: 'none' | 'all' = 'none';
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isObject(v)) {
      checkSingleField(ctx, name, field, key);
      field = key;
      value = objectText(ctx, v, key);
      continue;
    }
    checkSingleField(ctx, name, field, key);
    field = key;
    ctx.path.push(key);
    for (const ik of Object.keys(v)) {
      const iv = v[ik];
      if (!isValue(iv)) {
        throw parsingError(`[${name}] unknown token [${tokenOf(iv)}] after [${ik}]`, here(ctx, 'value', ik));
      }
      if (ik === 'query') value = iv;
      else if (ik === 'analyzer') analyzer = text(ctx, iv, ik);
      else if (ik === 'boost') boost = floatValue(ctx, iv, ik);
      else if (ik === 'slop') slop = intValue(ctx, iv, ik);
      else if (ik === 'max_expansions' && name === 'match_phrase_prefix')
        maxExpansions = intValue(ctx, iv, ik);
      else if (ik === '_name') text(ctx, iv, ik);
      else if (ik === 'zero_terms_query') zeroTermsQuery = zeroTerms(ctx, iv, ik);
      else throw parsingError(`[${name}] query does not support [${ik}]`, here(ctx, 'value', ik));
    }
    ctx.path.pop();
  }
  if (!field) throw atEnd(ctx, illegalArgument(`[${name}] requires fieldName`));
  if (value === null) throw atEnd(ctx, illegalArgument(`[${name}] requires query value`));
  if (slop < 0) throw atEnd(ctx, illegalArgument('No negative slop allowed.'));
  if (maxExpansions < 0) throw atEnd(ctx, illegalArgument('No negative maxExpansions allowed.'));
  const node: QueryNode =
    name === 'match_phrase'
      ? { type: 'match_phrase', field, query: String(value), slop, zeroTermsQuery, boost }
      : {
          type: 'match_phrase_prefix',
          field,
          query: String(value),
          slop,
          maxExpansions,
          zeroTermsQuery,
          boost,
        };
  if (analyzer !== undefined) node.analyzer = analyzer;
  return node;
}

const MULTI_MATCH_TYPES: Record<string, MatchType> = {
  best_fields: 'best_fields',
  boolean: 'best_fields',
  most_fields: 'most_fields',
  cross_fields: 'cross_fields',
  phrase: 'phrase',
  phrase_prefix: 'phrase_prefix',
  bool_prefix: 'bool_prefix',
};

/** MultiMatchQueryBuilder.Type.parse: a type by its name (`boolean` is best_fields). */
export function multiMatchType(ctx: ParseCtx, v: unknown, key: string): MatchType {
  const t = text(ctx, v, key);
  const type = MULTI_MATCH_TYPES[t];
  if (type === undefined) {
    here(ctx, 'value', key);
    throw parseException(`failed to parse [multi_match] query type [${t}]. unknown type.`);
  }
  return type;
}

/** MultiMatchQueryBuilder.Type's default tie breakers. */
export const DEFAULT_TIE_BREAKER: Record<MatchType, number> = {
  best_fields: 0,
  most_fields: 1,
  cross_fields: 0,
  phrase: 0,
  phrase_prefix: 0,
  bool_prefix: 1,
};

/** `field^boost` as MultiMatchQueryBuilder.parseFieldAndBoost reads it; later entries win. */
function addFieldAndBoost(ctx: ParseCtx, v: unknown, key: string | number, out: Map<string, number>): void {
  const s = text(ctx, v, key);
  const caret = s.indexOf('^');
  if (caret === -1) out.set(s, 1);
  else
    out.set(
      s.slice(0, caret),
      onValue(ctx, key, () => Math.fround(javaParseDouble(s.slice(caret + 1)))),
    );
}

export function toFieldBoosts(fields: Map<string, number>): FieldBoost[] {
  const out: FieldBoost[] = [];
  for (const [field, boost] of fields) out.push({ field, boost });
  return out;
}

/** QueryParserHelper.hasAllFieldsWildcard; no fields means index.query.default_field (`*`). */
export function isAllFields(fields: readonly FieldBoost[]): boolean {
  return fields.length === 0 || fields.some((f) => f.field === '*');
}

export function parseMultiMatch(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let value: JsonScalar = null;
  const fields = new Map<string, number>();
  let lenient: boolean | undefined;
  let tieBreaker: number | undefined;
  const node: MultiMatchNode = {
    type: 'multi_match',
    fields: [],
    query: null,
    matchType: 'best_fields',
    operator: 'or',
    tieBreaker: 0,
    slop: 0,
    lenient: false,
    zeroTermsQuery: 'none',
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === 'fields') {
      if (Array.isArray(v)) {
        ctx.path.push(key);
        for (let i = 0; i < v.length; i++) addFieldAndBoost(ctx, v[i], i, fields);
        ctx.path.pop();
      } else if (isValue(v)) {
        addFieldAndBoost(ctx, v, key, fields);
      } else {
        throw parsingError(`[multi_match] query does not support [${key}]`, here(ctx, 'value', key));
      }
      continue;
    }
    if (!isValue(v)) {
      throw parsingError(
        `[multi_match] unknown token [${tokenOf(v)}] after [${key}]`,
        here(ctx, 'value', key),
      );
    }
    switch (key) {
      case 'query':
        value = v;
        break;
      case 'type':
        node.matchType = multiMatchType(ctx, v, key);
        break;
      case 'analyzer':
        node.analyzer = text(ctx, v, key);
        break;
      case 'boost':
        node.boost = floatValue(ctx, v, key);
        break;
      case 'slop':
        node.slop = intValue(ctx, v, key);
        break;
      case 'fuzziness':
        node.fuzziness = fuzziness(ctx, v, key);
        break;
      case 'prefix_length':
        node.prefixLength = intValue(ctx, v, key);
        break;
      case 'max_expansions':
        node.maxExpansions = intValue(ctx, v, key);
        break;
      case 'operator':
        node.operator = operatorValue(ctx, v, key);
        break;
      case 'minimum_should_match':
        node.minimumShouldMatch = text(ctx, v, key);
        break;
      case 'tie_breaker':
        tieBreaker = floatValue(ctx, v, key);
        break;
      case 'lenient':
        lenient = booleanValue(ctx, v, key);
        break;
      case 'zero_terms_query':
        node.zeroTermsQuery = zeroTerms(ctx, v, key);
        break;
      case 'fuzzy_transpositions':
        node.fuzzyTranspositions = booleanValue(ctx, v, key);
        break;
      case 'auto_generate_synonyms_phrase_query':
        booleanValue(ctx, v, key);
        break;
      case 'fuzzy_rewrite':
        node.fuzzyRewrite = text(ctx, v, key);
        break;
      case '_name':
        text(ctx, v, key);
        break;
      default:
        throw parsingError(`[multi_match] query does not support [${key}]`, here(ctx, 'value', key));
    }
  }
  if (value === null) throw parsingError('No text specified for multi_match query', here(ctx, 'end'));
  const t = node.matchType;
  if (node.fuzziness !== undefined && (t === 'cross_fields' || t === 'phrase' || t === 'phrase_prefix')) {
    throw parsingError(`Fuzziness not allowed for type [${t}]`, here(ctx, 'end'));
  }
  if (node.slop !== 0 && t === 'bool_prefix')
    throw parsingError(`[slop] not allowed for type [${t}]`, here(ctx, 'end'));
  if (node.slop < 0) throw atEnd(ctx, illegalArgument('No negative slop allowed.'));
  node.fields = toFieldBoosts(fields);
  node.query = value;
  node.tieBreaker = tieBreaker ?? DEFAULT_TIE_BREAKER[t];
  // Elasticsearch turns leniency on for all-field queries unless the request set it.
  node.lenient = lenient ?? isAllFields(node.fields);
  return node;
}
