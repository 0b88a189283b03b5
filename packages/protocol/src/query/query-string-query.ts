/**
 * The `query_string` query (QueryStringQueryBuilder.fromXContent, then its doToQuery): the body's
 * options are read and checked here, and the query text goes through the same parser as the URL
 * `q=` parameter (parse-query-string.ts), so both speak one dialect and fail the same way.
 *
 * Elasticsearch parses the text on each shard; Shoal parses it once on the coordinator and throws
 * the shard's `query_shard_exception` without index metadata, which the search action reports
 * per shard exactly as it does for `q=`.
 */
import { notImplemented } from '../errors/catalogue.ts';
import { ShoalError } from '../errors/shoal-error.ts';
import { zoneId } from '../search/aggs/values-source.ts';
import type { FieldBoost, QueryNode } from './ast.ts';
import { fuzziness, multiMatchType, parseOperator } from './full-text.ts';
import { parsingError, queryShardError } from './local-errors.ts';
import { here, isValue, onValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { parseQueryString } from './parse-query-string.ts';
import type { QueryStringOptions } from './query-string-builder.ts';
import { parseFieldsAndWeights } from './simple-query-string.ts';
import { booleanValue, floatValue, intValue, text, textOrNull } from './xcontent-values.ts';

const NAME = 'query_string';

/** MultiMatchQueryBuilder.Type.parse: each type's names (`boolean` is best_fields' old name). */
/** Rewrites that leave a prefix or wildcard term constant-scoring, as Shoal always scores them. */
const CONSTANT_REWRITES = new Set(['constant_score', 'constant_score_boolean', 'constant_score_blended']);

/** Options read from the body, in QueryStringQueryBuilder's terms, before they are applied. */
interface QueryStringBody {
  query?: string;
  defaultField?: string;
  fields?: FieldBoost[];
  options: QueryStringOptions;
  boost: number;
  minimumShouldMatch?: string;
  escape: boolean;
  analyzeWildcard?: boolean;
  enablePositionIncrements: boolean;
  rewrite?: string;
  quoteFieldSuffix?: string;
  timeZone?: string;
}

export function parseQueryStringQuery(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  const b = readBody(body, ctx);
  if (b.query === undefined) {
    throw parsingError(`[${NAME}] must be provided with a [query]`, here(ctx, 'end'));
  }
  // The builder's setters, in fromXContent's order: only time_zone can fail (ZoneId.of).
  if (b.timeZone !== undefined) b.options.timeZone = zoneId(ctx, b.timeZone);
  refuseUnsupported(b);
  return toQuery(b, b.query);
}

function readBody(body: Record<string, unknown>, ctx: ParseCtx): QueryStringBody {
  const o: QueryStringOptions = {};
  const b: QueryStringBody = { options: o, boost: 1, escape: false, enablePositionIncrements: true };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (Array.isArray(v)) {
      if (key !== 'fields') {
        throw parsingError(`[${NAME}] query does not support [${key}]`, here(ctx, 'value', key));
      }
      ctx.path.push(key);
      const names = v.map((x, i) => text(ctx, x, i));
      try {
        b.fields = parseFieldsAndWeights(names);
      } catch (e) {
        here(ctx, 'end');
        throw e;
      }
      ctx.path.pop();
      continue;
    }
    if (!isValue(v)) {
      throw parsingError(`[${NAME}] unknown token [${tokenOf(v)}] after [${key}]`, here(ctx, 'value', key));
    }
    readOption(b, ctx, key, v);
  }
  return b;
}

function readOption(
  b: QueryStringBody,
  ctx: ParseCtx,
  key: string,
  v: string | number | bigint | boolean,
): void {
  const o = b.options;
  switch (key) {
    case 'query':
      b.query = text(ctx, v, key);
      return;
    case 'default_field':
      b.defaultField = text(ctx, v, key);
      return;
    case 'default_operator':
      o.defaultOperator = onValue(ctx, key, () => parseOperator(text(ctx, v, key)));
      return;
    case 'analyzer':
      o.analyzer = text(ctx, v, key);
      return;
    case 'quote_analyzer':
      o.quoteAnalyzer = text(ctx, v, key);
      return;
    case 'allow_leading_wildcard':
      o.allowLeadingWildcard = booleanValue(ctx, v, key);
      return;
    case 'max_determinized_states':
      o.maxDeterminizedStates = intValue(ctx, v, key);
      return;
    case 'enable_position_increments':
      b.enablePositionIncrements = booleanValue(ctx, v, key);
      return;
    case 'escape':
      b.escape = booleanValue(ctx, v, key);
      return;
    case 'fuzzy_prefix_length':
      o.fuzzyPrefixLength = intValue(ctx, v, key);
      return;
    case 'fuzzy_max_expansions':
      o.fuzzyMaxExpansions = intValue(ctx, v, key);
      return;
    case 'fuzzy_rewrite': {
      const r = textOrNull(ctx, v, key);
      if (r !== null) o.fuzzyRewrite = r;
      return;
    }
    case 'phrase_slop':
      o.phraseSlop = intValue(ctx, v, key);
      return;
    case 'fuzziness':
      o.fuzziness = fuzziness(ctx, v, key);
      return;
    case 'boost':
      b.boost = floatValue(ctx, v, key);
      return;
    case 'type':
      o.type = multiMatchType(ctx, v, key);
      return;
    case 'tie_breaker':
      o.tieBreaker = floatValue(ctx, v, key);
      return;
    case 'analyze_wildcard':
      b.analyzeWildcard = booleanValue(ctx, v, key);
      return;
    case 'rewrite': {
      const r = textOrNull(ctx, v, key);
      if (r !== null) b.rewrite = r;
      return;
    }
    case 'minimum_should_match': {
      const m = textOrNull(ctx, v, key);
      if (m !== null) b.minimumShouldMatch = m;
      return;
    }
    case 'quote_field_suffix': {
      const s = textOrNull(ctx, v, key);
      if (s !== null) b.quoteFieldSuffix = s;
      return;
    }
    case 'lenient':
      o.lenient = booleanValue(ctx, v, key);
      return;
    case 'time_zone':
      b.timeZone = text(ctx, v, key);
      return;
    case '_name':
      text(ctx, v, key);
      return;
    case 'auto_generate_synonyms_phrase_query':
      // Only multi-word synonyms make it matter, and Shoal's analyzers have no synonym filter.
      booleanValue(ctx, v, key);
      return;
    case 'fuzzy_transpositions':
      o.fuzzyTranspositions = booleanValue(ctx, v, key);
      return;
    default:
      throw parsingError(`[${NAME}] query does not support [${key}]`, here(ctx, 'value', key));
  }
}

/** Options that would change the result but that Shoal cannot carry out. */
function refuseUnsupported(b: QueryStringBody): void {
  if (b.quoteFieldSuffix !== undefined) {
    throw notImplemented('the [quote_field_suffix] option of the [query_string] query');
  }
  if (b.analyzeWildcard === true) {
    throw notImplemented('the [analyze_wildcard] option of the [query_string] query');
  }
  if (!b.enablePositionIncrements) {
    throw notImplemented('[enable_position_increments] set to false in the [query_string] query');
  }
  if (b.rewrite !== undefined && !CONSTANT_REWRITES.has(b.rewrite)) {
    throw notImplemented(`the [rewrite] method [${b.rewrite}] of the [query_string] query`);
  }
}

/** QueryStringQueryBuilder.doToQuery. */
function toQuery(b: QueryStringBody, queryText: string): QueryNode {
  if (b.fields !== undefined && b.fields.length > 0 && b.defaultField !== undefined) {
    const cause = new ShoalError(
      'query_validation_exception',
      `Validation Failed: 1: [${NAME}] cannot use [fields] parameter in conjunction with [default_field];`,
      400,
      {},
      undefined,
      // An IllegalArgumentException, not an ElasticsearchException: never a root cause.
      { foreign: true },
    );
    throw queryShardError(`failed to create query: ${cause.reason}`, cause);
  }
  const opts: QueryStringOptions = { ...b.options };
  if (b.defaultField !== undefined) opts.defaultField = b.defaultField;
  if (b.fields !== undefined && b.fields.length > 0) opts.fields = b.fields;
  const rewritten = b.escape ? escapeQueryString(queryText) : queryText;
  const query = parseQueryString(rewritten, opts, queryText);
  if (b.minimumShouldMatch !== undefined) applyMinimumShouldMatch(query, b.minimumShouldMatch);
  if (b.boost !== 1 && 'boost' in query) query.boost = Math.fround(query.boost * b.boost);
  return query;
}

/**
 * Queries.maybeApplyMinimumShouldMatch: only a top-level Lucene BooleanQuery takes it. That is a
 * bool, or analysed text on one field (several terms), or cross_fields' per-term bool; several
 * fields otherwise make a dis_max, which ignores it.
 */
function applyMinimumShouldMatch(q: QueryNode, msm: string): void {
  switch (q.type) {
    case 'bool':
    case 'match':
      q.minimumShouldMatch = msm;
      return;
    case 'multi_match': {
      const one = q.fields.length === 1 && !q.fields[0]!.field.includes('*');
      const boolShaped = q.matchType !== 'phrase' && q.matchType !== 'phrase_prefix';
      if (q.matchType === 'cross_fields' || (one && boolShaped)) q.minimumShouldMatch = msm;
      return;
    }
    default:
      return;
  }
}

/** QueryParser.escape: a backslash before each character the syntax gives a meaning. */
export function escapeQueryString(s: string): string {
  return s.replace(/[\\+\-!():^[\]"{}~*?|&/]/g, '\\$&');
}
