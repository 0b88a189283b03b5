/**
 * Full-text queries: match, match_phrase, multi_match, simple_query_string, following the
 * Elasticsearch 8 builders' hand-written `fromXContent` loops (`parsing_exception`s) and their
 * setters' IllegalArgumentExceptions.
 */
import { illegalArgument, parseException } from '../errors/catalogue.ts';
import type { FieldBoost, JsonScalar, QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { checkSingleField } from './term-level.ts';
import {
  booleanValue,
  floatValue,
  intValue,
  javaParseDouble,
  objectText,
  text,
  textOrNull,
} from './xcontent-values.ts';

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
function fuzziness(ctx: ParseCtx, v: unknown, key: string): string {
  const s = text(ctx, v, key);
  return withLoc(ctx, key, () => fuzzinessFromString(s));
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
  let field: string | undefined;
  let value: JsonScalar = null;
  const node: Omit<MatchNode, 'field' | 'query'> = {
    type: 'match',
    operator: 'or',
    zeroTermsQuery: 'none',
    lenient: false,
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isObject(v)) {
      checkSingleField(ctx, 'match', field, key);
      field = key;
      value = objectText(ctx, v, key);
      continue;
    }
    checkSingleField(ctx, 'match', field, key);
    field = key;
    ctx.path.push(key);
    for (const ik of Object.keys(v)) {
      const iv = v[ik];
      if (!isValue(iv)) {
        throw parsingError(`[match] unknown token [${tokenOf(iv)}] after [${ik}]`, here(ctx, 'value', ik));
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
          node.operator = withLoc(ctx, ik, () => parseOperator(text(ctx, iv, ik)));
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
        case '_name':
          text(ctx, iv, ik);
          break;
        case 'auto_generate_synonyms_phrase_query':
          booleanValue(ctx, iv, ik);
          break;
        default:
          throw parsingError(`[match] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
    }
    ctx.path.pop();
  }
  if (value === null) throw parsingError('No text specified for text query', here(ctx, 'end'));
  if (node.prefixLength !== undefined && node.prefixLength < 0) {
    throw atEnd(ctx, illegalArgument('[match] requires prefix length to be non-negative.'));
  }
  if (node.maxExpansions !== undefined && node.maxExpansions <= 0) {
    throw atEnd(ctx, illegalArgument('[match] requires maxExpansions to be positive.'));
  }
  return { ...node, field: field!, query: value };
}

/** A builder check made once the body was read: the parser stands on the body's `}`. */
function atEnd<E>(ctx: ParseCtx, e: E): E {
  here(ctx, 'end');
  return e;
}

/** Runs `fn`, positioning any failure on the value of `key`. */
function withLoc<T>(ctx: ParseCtx, key: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    here(ctx, 'value', key);
    throw e;
  }
}

export function parseMatchPhrase(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let value: JsonScalar = null;
  let analyzer: string | undefined;
  let boost = 1;
  let slop = 0;
  let zeroTermsQuery: 'none' | 'all' = 'none';
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isObject(v)) {
      checkSingleField(ctx, 'match_phrase', field, key);
      field = key;
      value = objectText(ctx, v, key);
      continue;
    }
    checkSingleField(ctx, 'match_phrase', field, key);
    field = key;
    ctx.path.push(key);
    for (const ik of Object.keys(v)) {
      const iv = v[ik];
      if (!isValue(iv)) {
        throw parsingError(
          `[match_phrase] unknown token [${tokenOf(iv)}] after [${ik}]`,
          here(ctx, 'value', ik),
        );
      }
      if (ik === 'query') value = iv;
      else if (ik === 'analyzer') analyzer = text(ctx, iv, ik);
      else if (ik === 'boost') boost = floatValue(ctx, iv, ik);
      else if (ik === 'slop') slop = intValue(ctx, iv, ik);
      else if (ik === '_name') text(ctx, iv, ik);
      else if (ik === 'zero_terms_query') zeroTermsQuery = zeroTerms(ctx, iv, ik);
      else throw parsingError(`[match_phrase] query does not support [${ik}]`, here(ctx, 'value', ik));
    }
    ctx.path.pop();
  }
  if (!field) throw atEnd(ctx, illegalArgument('[match_phrase] requires fieldName'));
  if (value === null) throw atEnd(ctx, illegalArgument('[match_phrase] requires query value'));
  if (slop < 0) throw atEnd(ctx, illegalArgument('No negative slop allowed.'));
  const node: QueryNode = { type: 'match_phrase', field, query: String(value), slop, zeroTermsQuery, boost };
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

/** MultiMatchQueryBuilder.Type's default tie breakers. */
const DEFAULT_TIE_BREAKER: Record<MatchType, number> = {
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
      withLoc(ctx, String(key), () => Math.fround(javaParseDouble(s.slice(caret + 1)))),
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
  const node: Omit<MultiMatchNode, 'fields' | 'query' | 'lenient' | 'tieBreaker'> = {
    type: 'multi_match',
    matchType: 'best_fields',
    operator: 'or',
    slop: 0,
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
      case 'type': {
        const t = text(ctx, v, key);
        const type = MULTI_MATCH_TYPES[t];
        if (type === undefined) {
          here(ctx, 'value', key);
          throw parseException(`failed to parse [multi_match] query type [${t}]. unknown type.`);
        }
        node.matchType = type;
        break;
      }
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
        node.operator = withLoc(ctx, key, () => parseOperator(text(ctx, v, key)));
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
  const fieldBoosts = toFieldBoosts(fields);
  return {
    ...node,
    fields: fieldBoosts,
    query: value,
    tieBreaker: tieBreaker ?? DEFAULT_TIE_BREAKER[t],
    // Elasticsearch turns leniency on for all-field queries unless the request set it.
    lenient: lenient ?? isAllFields(fieldBoosts),
  };
}

/** SimpleQueryStringFlag values. */
const SQS_FLAGS: Record<string, number> = {
  ALL: -1,
  NONE: 0,
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  NEAR: 1 << 9,
  SLOP: 1 << 9,
};

/** SimpleQueryStringFlag.resolveFlags: `AND|OR|PREFIX`; NONE and ALL win outright. */
function resolveFlags(flags: string): number {
  if (flags.length === 0) return -1;
  let magic = 0;
  for (const s of flags.split('|')) {
    if (s.length === 0) continue;
    const flag = SQS_FLAGS[s.toUpperCase()];
    if (flag === undefined) throw illegalArgument(`Unknown simple_query_string flag [${s}]`);
    if (flag === 0) return 0;
    if (flag === -1) return -1;
    magic |= flag;
  }
  return magic;
}

/** QueryParserHelper.parseFieldsAndWeights. */
export function parseFieldsAndWeights(fields: readonly string[]): FieldBoost[] {
  const map = new Map<string, number>();
  for (const f of fields) {
    const caret = f.indexOf('^');
    const name = caret === -1 ? f : f.slice(0, caret);
    let boost = caret === -1 ? 1 : Math.fround(javaParseDouble(f.slice(caret + 1)));
    const prior = map.get(f);
    if (prior !== undefined) boost = Math.fround(boost * prior);
    map.set(name, boost);
  }
  return toFieldBoosts(map);
}

export function parseSimpleQueryString(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let query: string | undefined;
  let fields: FieldBoost[] = [];
  let lenient: boolean | undefined;
  const node: Omit<Extract<QueryNode, { type: 'simple_query_string' }>, 'query' | 'fields' | 'lenient'> = {
    type: 'simple_query_string',
    defaultOperator: 'or',
    analyzeWildcard: false,
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (Array.isArray(v)) {
      if (key !== 'fields') {
        throw parsingError(`[simple_query_string] query does not support [${key}]`, here(ctx, 'value', key));
      }
      ctx.path.push(key);
      const names = v.map((x, i) => text(ctx, x, i));
      fields = withLoc(ctx, String(v.length - 1), () => parseFieldsAndWeights(names));
      ctx.path.pop();
      continue;
    }
    if (!isValue(v)) {
      throw parsingError(
        `[simple_query_string] unknown token [${tokenOf(v)}] after [${key}]`,
        here(ctx, 'value', key),
      );
    }
    switch (key) {
      case 'query':
        query = text(ctx, v, key);
        break;
      case 'boost':
        node.boost = floatValue(ctx, v, key);
        break;
      case 'analyzer':
        node.analyzer = text(ctx, v, key);
        break;
      case 'default_operator':
        node.defaultOperator = withLoc(ctx, key, () => parseOperator(text(ctx, v, key)));
        break;
      case 'flags': {
        const flags =
          typeof v === 'number' || typeof v === 'bigint'
            ? intValue(ctx, v, key)
            : withLoc(ctx, key, () => resolveFlags(text(ctx, v, key)));
        if (flags !== -1) node.flags = flags < 0 ? -1 : flags;
        break;
      }
      case 'lenient':
        lenient = booleanValue(ctx, v, key);
        break;
      case 'analyze_wildcard':
        node.analyzeWildcard = booleanValue(ctx, v, key);
        break;
      case 'minimum_should_match':
        node.minimumShouldMatch = text(ctx, v, key);
        break;
      case 'quote_field_suffix': {
        const suffix = textOrNull(ctx, v, key);
        if (suffix !== null) node.quoteFieldSuffix = suffix;
        break;
      }
      case 'auto_generate_synonyms_phrase_query':
      case 'fuzzy_transpositions':
        booleanValue(ctx, v, key);
        break;
      case 'fuzzy_prefix_length':
      case 'fuzzy_max_expansions':
        intValue(ctx, v, key);
        break;
      case '_name':
        text(ctx, v, key);
        break;
      default:
        throw parsingError(`[simple_query_string] unsupported field [${key}]`, here(ctx, 'value', key));
    }
  }
  if (query === undefined) throw parsingError('[simple_query_string] query text missing', here(ctx, 'end'));
  return { ...node, query, fields, lenient: lenient ?? isAllFields(fields) };
}
