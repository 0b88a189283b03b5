/**
 * The query DSL entry point: AbstractQueryBuilder.parseTopLevelQuery / parseInnerQueryBuilder.
 * A clause is an object with exactly one key, the query name, whose value is the query's body;
 * each family file (term-level, full-text, compound) parses the bodies it owns.
 */

import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { parseCombinedFields } from './combined-fields.ts';
import { parseBool, parseConstantScore, parseDisMax, parseMatchAll, parseMatchNone } from './compound.ts';
import { parseDistanceFeature } from './distance-feature.ts';
import {
  parseMatch,
  parseMatchBoolPrefix,
  parseMatchPhrase,
  parseMatchPhrasePrefix,
  parseMultiMatch,
} from './full-text.ts';
import { parseBoosting, parseFunctionScore } from './function-score.ts';
import { parseFuzzy } from './fuzzy.ts';
import { parseGeoBoundingBox, parseGeoDistance } from './geo.ts';
import { parseIntervals } from './intervals.ts';
import type { PathSeg } from './json-location.ts';
import { parseKnnQuery } from './knn.ts';
import { namedObjectNotFound, parsingError } from './local-errors.ts';
import { parseMoreLikeThis } from './more-like-this.ts';
import { bodyQueryName, type Named } from './named-queries.ts';
import { here, isObject, newCtx, type ParseCtx } from './parse-context.ts';
import { parsePinned } from './pinned.ts';
import { parseQueryStringQuery } from './query-string-query.ts';
import { parseRankFeature } from './rank-feature.ts';
import { parseRegexp } from './regexp.ts';
import { parseScriptQuery } from './script-query.ts';
import { parseScriptScoreQuery } from './script-score-query.ts';
import { parseSimpleQueryString } from './simple-query-string.ts';
import { suggest } from './suggest.ts';
import {
  parseExists,
  parseIds,
  parsePrefix,
  parseRange,
  parseTerm,
  parseTerms,
  parseWildcard,
} from './term-level.ts';
import { parseTermsSet } from './terms-set.ts';

/** Parses the clause held by `v` (which sits at `ctx.path`). */
export type InnerParser = (ctx: ParseCtx, v: unknown) => QueryNode;

/** A query body parser; `body` sits at `ctx.path`, which ends with the query name. */
export type BodyParser = (body: Record<string, unknown>, ctx: ParseCtx, inner: InnerParser) => QueryNode;

const PARSERS = new Map<string, BodyParser>([
  ['match_all', parseMatchAll],
  ['match_none', parseMatchNone],
  ['term', parseTerm],
  ['terms', parseTerms],
  ['terms_set', parseTermsSet],
  ['range', parseRange],
  ['exists', parseExists],
  ['ids', parseIds],
  ['prefix', parsePrefix],
  ['wildcard', parseWildcard],
  ['regexp', parseRegexp],
  ['fuzzy', parseFuzzy],
  ['geo_distance', parseGeoDistance],
  ['geo_bounding_box', parseGeoBoundingBox],
  ['match', parseMatch],
  ['match_phrase', parseMatchPhrase],
  ['match_phrase_prefix', parseMatchPhrasePrefix],
  ['match_bool_prefix', parseMatchBoolPrefix],
  ['multi_match', parseMultiMatch],
  ['combined_fields', parseCombinedFields],
  ['bool', parseBool],
  ['constant_score', parseConstantScore],
  ['dis_max', parseDisMax],
  ['boosting', parseBoosting],
  ['function_score', parseFunctionScore],
  ['simple_query_string', parseSimpleQueryString],
  ['query_string', parseQueryStringQuery],
  ['script', parseScriptQuery],
  ['knn', parseKnnQuery],
  ['script_score', parseScriptScoreQuery],
  ['pinned', parsePinned],
  ['distance_feature', parseDistanceFeature],
  ['rank_feature', parseRankFeature],
  ['intervals', parseIntervals],
  ['more_like_this', parseMoreLikeThis],
]);

/**
 * Every query name an Elasticsearch 8 node of the default distribution registers: an unknown
 * name gets `unknown query [x]` with suggestions among these; a known one that Shoal does not
 * implement gets the project's 501 (catalogue `notImplemented`).
 */
export const ELASTICSEARCH_QUERY_NAMES: readonly string[] = [
  'bool',
  'boosting',
  'combined_fields',
  'constant_score',
  'dis_max',
  'distance_feature',
  'exists',
  'field_masking_span',
  'function_score',
  'fuzzy',
  'geo_bounding_box',
  'geo_distance',
  'geo_shape',
  'has_child',
  'has_parent',
  'ids',
  'intervals',
  'knn',
  'match',
  'match_all',
  'match_bool_prefix',
  'match_none',
  'match_phrase',
  'match_phrase_prefix',
  'more_like_this',
  'multi_match',
  'nested',
  'parent_id',
  'percolate',
  'pinned',
  'prefix',
  'query_string',
  'range',
  'rank_feature',
  'regexp',
  'rule',
  'script',
  'script_score',
  'semantic',
  'shape',
  'simple_query_string',
  'span_containing',
  'span_field_masking',
  'span_first',
  'span_multi',
  'span_near',
  'span_not',
  'span_or',
  'span_term',
  'span_within',
  'sparse_vector',
  'term',
  'terms',
  'terms_set',
  'text_expansion',
  'weighted_tokens',
  'wildcard',
  'wrapper',
];
const KNOWN_NAMES = new Set(ELASTICSEARCH_QUERY_NAMES);

/** indices.query.bool.max_nested_depth (SearchModule.INDICES_MAX_NESTED_DEPTH_SETTING) default. */
export const MAX_NESTED_DEPTH = 30;

/** Parses a standalone query object (`{"match": {...}}`). */
export function parseQuery(json: unknown): QueryNode {
  const ctx = newCtx(json);
  return parseInnerQuery(ctx, json);
}

/**
 * Parses the query at `path` inside a larger body (`['query']` of a search body), so that error
 * positions are those of the whole body.
 */
export function parseQueryIn(root: unknown, path: readonly PathSeg[]): QueryNode {
  const ctx = newCtx(root, path);
  let v: unknown = root;
  for (const seg of path) v = (v as Record<string | number, unknown>)[seg];
  return parseInnerQuery(ctx, v);
}

/** AbstractQueryBuilder.parseInnerQueryBuilder over a decoded value at `ctx.path`. */
export function parseInnerQuery(ctx: ParseCtx, v: unknown): QueryNode {
  if (!isObject(v)) {
    throw parsingError('[_na] query malformed, must start with start_object', here(ctx, 'value'));
  }
  const keys = Object.keys(v);
  const name = keys[0];
  if (name === undefined) {
    // `{}` as a clause: deprecated in 5.0, rejected since 6.0; the position is that of its `}`.
    const loc = here(ctx, 'end');
    throw illegalArgument(`query malformed, empty clause found at [${loc.line}:${loc.col}]`);
  }
  const body = v[name];
  if (!isObject(body)) {
    throw parsingError(
      `[${name}] query malformed, no start_object after query name`,
      here(ctx, 'value', name),
    );
  }
  const parser = PARSERS.get(name);
  if (parser === undefined) {
    const loc = here(ctx, 'value', name);
    if (KNOWN_NAMES.has(name)) throw notImplemented(`the [${name}] query`);
    throw parsingError(
      `unknown query [${name}]${suggest(name, ELASTICSEARCH_QUERY_NAMES)}`,
      loc,
      namedObjectNotFound(name, loc),
    );
  }
  if (++ctx.depth > MAX_NESTED_DEPTH) {
    here(ctx, 'value', name);
    throw illegalArgument(
      'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]',
    );
  }
  ctx.path.push(name);
  let node = parser(body, ctx, parseInnerQuery);
  const queryName = bodyQueryName(body);
  // A copy: a parser may hand out a shared node.
  if (queryName !== undefined) node = { ...node, queryName } as QueryNode & Named;
  ctx.path.pop();
  ctx.depth--;
  if (keys.length > 1) {
    throw parsingError(
      `[${name}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`,
      here(ctx, 'key', keys[1]!),
    );
  }
  return node;
}
