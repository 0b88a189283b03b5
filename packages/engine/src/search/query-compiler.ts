/**
 * Compiles the query DSL tree (protocol's QueryNode) into Weights for one reader. Boosts
 * multiply down the tree (in float, like Lucene's BoostQuery); clauses in filter context
 * (bool.filter, bool.must_not, constant_score) do not score. Unmapped fields match nothing.
 */
import { illegalArgument, notImplemented, type QueryNode } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { scriptQuery } from '../script/script-query.ts';
import { BoolWeight } from './bool-weight.ts';
import { combinedFieldsQuery } from './combined-fields.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import { distanceFeatureQuery } from './distance-feature.ts';
import { failedToCreateQuery, scalarText } from './field-values.ts';
import { lenientQuery, matchField, NONE, phraseField, resolveFields } from './full-text.ts';
import { boostingQuery, functionScoreQuery } from './function-score.ts';
import { fuzzyQuery } from './fuzzy.ts';
import { geoBoundingBoxQuery, geoDistanceQuery } from './geo-queries.ts';
import { intervalsQuery } from './intervals.ts';
import { knnQuery, knnScoreDocsQuery } from './knn.ts';
import { minimumShouldMatch } from './minimum-should-match.ts';
import { moreLikeThisQuery } from './more-like-this.ts';
import { boolPrefix, multiMatch } from './multi-match.ts';
import { pinnedQuery } from './pinned.ts';
import { DEFAULT_MAX_TERMS_COUNT } from './query-limits.ts';
import { rankFeatureQuery } from './rank-feature.ts';
import { regexpQuery } from './regexp.ts';
import { escapeRegExp } from './segment-scans.ts';
import { simpleQueryString } from './simple-query-string.ts';
import {
  existsQuery,
  idsQuery,
  prefixQuery,
  rangeQuery,
  termQuery,
  termsQuery,
  wildcardQuery,
} from './term-level.ts';
import { termsSetQuery } from './terms-set.ts';
import { ConstantScoreWeight, ConstantWeight, MatchAllWeight, type Weight } from './weights.ts';

const f = Math.fround;

/** A knn query's `k` when neither it nor the search says (the default size). */
const DEFAULT_KNN_K = 10;

export function compileQuery(node: QueryNode, env: CompileEnv): Weight {
  return compile(node, env, 1, false);
}

function withField(
  env: CompileEnv,
  name: string,
  boost: number,
  build: (field: ResolvedField) => Weight,
): Weight {
  const field = env.mapping.field(name);
  if (!field) return NONE;
  // A runtime field's queries match without scoring (Elasticsearch's AbstractScriptFieldQuery): every hit scores the boost.
  return field.runtime ? new ConstantScoreWeight(build(field), boost) : build(field);
}

function compile(node: QueryNode, env: CompileEnv, parentBoost: number, filter: boolean): Weight {
  const w = compileNode(node, env, parentBoost, filter);
  // The innermost node a weight came from describes it (a weight may be passed up unchanged).
  if (env.sources && !env.sources.has(w)) env.sources.set(w, node);
  return w;
}

function compileNode(node: QueryNode, env: CompileEnv, parentBoost: number, filter: boolean): Weight {
  const boost = 'boost' in node ? f(parentBoost * node.boost) : parentBoost;
  switch (node.type) {
    case 'match_all':
      return new MatchAllWeight(boost);
    case 'match_none':
      return NONE;
    case 'geo_distance':
      return geoDistanceQuery(env, node, boost);
    case 'geo_bounding_box':
      return geoBoundingBoxQuery(env, node, boost);
    case 'term':
      if (node.field === '_id') return idsQuery([String(node.value)], boost);
      if (node.field === '_index') return indexQuery(env, [String(node.value)], boost);
      return withField(env, node.field, boost, (fd) =>
        termQuery(env, fd, node.value, boost, node.caseInsensitive),
      );
    case 'terms':
      checkTermsCount(env, node.field, node.values.length);
      if (node.field === '_id') return idsQuery(node.values.map(String), boost);
      if (node.field === '_index') return indexQuery(env, node.values.map(String), boost);
      return withField(env, node.field, boost, (fd) => termsQuery(env, fd, node.values, boost));
    case 'terms_set':
      return termsSetQuery(env, node, boost);
    case 'range':
      return withField(env, node.field, boost, (fd) => rangeQuery(env, fd, node, boost));
    case 'script':
      return scriptQuery(env, node.script, boost);
    case 'exists':
      if (node.field === '_id' || node.field === '_index') return new MatchAllWeight(boost);
      return existsQuery(env, node.field, boost);
    case 'ids':
      return idsQuery(node.values, boost);
    case 'prefix':
      if (node.field === '_index') return indexQuery(env, [`${node.value}*`], boost);
      return withField(env, node.field, boost, (fd) =>
        prefixQuery(env, fd, node.value, boost, node.caseInsensitive),
      );
    case 'wildcard':
      if (node.field === '_index') return indexQuery(env, [node.value], boost);
      return withField(env, node.field, boost, (fd) =>
        wildcardQuery(env, fd, node.value, boost, node.caseInsensitive),
      );
    case 'fuzzy':
      return withField(env, node.field, boost, (fd) =>
        fuzzyQuery(env, fd, scalarText(node.value), node, boost),
      );
    case 'regexp':
      return regexpQuery(env, node, boost);
    case 'per_field':
      return perField(node, env, boost, filter);
    case 'match':
      return withField(env, node.field, boost, (fd) => matchField(env, fd, node.query, node, boost));
    case 'match_phrase':
      return withField(env, node.field, boost, (fd) => phraseField(env, fd, node.query, node, boost));
    case 'match_phrase_prefix':
      return withField(env, node.field, boost, (fd) =>
        phraseField(env, fd, node.query, { ...node, prefix: true }, boost),
      );
    case 'match_bool_prefix':
      return withField(env, node.field, boost, (fd) =>
        boolPrefix(env, fd, node.query, { ...node, lenient: false, zeroTermsQuery: 'none' }, boost),
      );
    case 'multi_match':
      return multiMatch(env, node, boost);
    case 'combined_fields':
      return combinedFieldsQuery(env, node, boost);
    case 'simple_query_string':
      return simpleQueryString(env, node, boost);
    case 'dis_max': {
      // Lucene's DisjunctionMaxQuery: the best clause's score plus the others' times the tie breaker.
      if (node.tieBreaker < 0 || node.tieBreaker > 1) {
        throw failedToCreateQuery(env, illegalArgument('tieBreakerMultiplier must be in [0, 1]'));
      }
      const clauses = node.queries.map((q) => compile(q, env, boost, filter));
      if (clauses.length === 0) return NONE;
      return clauses.length === 1 ? clauses[0]! : new DisMaxWeight(clauses, node.tieBreaker);
    }
    case 'constant_score':
      return new ConstantScoreWeight(compile(node.filter, env, 1, true), boost);
    case 'bool':
      return compileBool(node, env, boost, filter);
    case 'boosting':
      return boostingQuery(node, env, boost, filter, compile);
    case 'function_score':
      return functionScoreQuery(node, env, boost, filter, compile);
    case 'knn':
      return knnQuery(env, node, boost, env.knnDefaultK ?? DEFAULT_KNN_K, (q) => compile(q, env, 1, true));
    case 'knn_score_docs':
      return knnScoreDocsQuery(env, node, boost);
    case 'pinned':
      return pinnedQuery(node, env, boost, filter, compile);
    case 'distance_feature':
      return distanceFeatureQuery(env, node, boost);
    case 'rank_feature':
      return rankFeatureQuery(env, node, boost);
    case 'intervals':
      return intervalsQuery(env, node, boost);
    case 'more_like_this':
      return moreLikeThisQuery(env, node, boost);
    case 'terms_lookup':
      // The coordinator replaces lookups before a search or count reaches a shard.
      throw notImplemented('a [terms] lookup in this request (only _search and _count fetch the document)');
  }
}

/** A term-level template on every field the shard resolves, joined in a dis_max. */
function perField(
  node: Extract<QueryNode, { type: 'per_field' }>,
  env: CompileEnv,
  boost: number,
  filter: boolean,
): Weight {
  const resolved = resolveFields(env, node.fields);
  const lenient = node.lenient || resolved.lenient;
  const clauses = resolved.fields.map((fb) => {
    const q = { ...node.template, field: fb.field.path, boost: f(node.template.boost * fb.boost) };
    return lenientQuery(lenient, () => compile(q, env, boost, filter));
  });
  if (clauses.length === 0) return NONE;
  return clauses.length === 1 ? clauses[0]! : new DisMaxWeight(clauses, node.tieBreaker);
}

/** TermsQueryBuilder.doToQuery: a mapped field (unmapped ones rewrite to match_none first). */
function checkTermsCount(env: CompileEnv, field: string, count: number): void {
  const max = env.limits?.maxTermsCount ?? DEFAULT_MAX_TERMS_COUNT;
  if (count <= max) return;
  if (field !== '_id' && field !== '_index' && !env.mapping.field(field)) return;
  throw failedToCreateQuery(
    env,
    illegalArgument(
      `The number of terms [${count}] used in the Terms Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_terms_count] index level setting.`,
    ),
  );
}

/** `_index` queries: every doc of this shard or none, by the index name (`*` patterns allowed). */
function indexQuery(env: CompileEnv, names: string[], boost: number): Weight {
  const matches = names.some((n) =>
    new RegExp(`^${n.split('*').map(escapeRegExp).join('.*')}$`).test(env.index),
  );
  return matches ? new ConstantScoreWeight(new MatchAllWeight(0), boost) : NONE;
}

/**
 * The uses of a filter clause, by query type, after which a segment's filter cache keeps its
 * docs (filter-cache.ts): the costly multi-term and range sets soon, others later; a `term`
 * never.
 */
const FILTER_USES: Partial<Record<QueryNode['type'], number>> = {
  terms: 2,
  range: 2,
  prefix: 2,
  wildcard: 2,
  regexp: 2,
  fuzzy: 2,
  terms_set: 2,
  geo_distance: 2,
  geo_bounding_box: 2,
  exists: 5,
  ids: 5,
};

/** A filter clause's doc set made cacheable, unless its docs depend on the time (`now`). */
function cacheable(w: Weight, node: QueryNode): Weight {
  const uses = FILTER_USES[node.type];
  if (uses === undefined || !(w instanceof ConstantWeight)) return w;
  const key = filterKey(node);
  if (key !== undefined && !/\bnow\b/.test(key)) w.cacheAs(key, uses);
  return w;
}

/** The query as exact text: plain data only (undefined when it holds anything else). */
function filterKey(node: QueryNode): string | undefined {
  let plain = true;
  const text = JSON.stringify(node, (_k, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (typeof v === 'function' || typeof v === 'symbol') plain = false;
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) plain = false;
    }
    return v;
  });
  return plain ? text : undefined;
}

function compileBool(
  node: Extract<QueryNode, { type: 'bool' }>,
  env: CompileEnv,
  boost: number,
  filter: boolean,
): Weight {
  const must = node.must.map((c) => compile(c, env, boost, filter));
  const should = node.should.map((c) => compile(c, env, boost, filter));
  const filters = node.filter.map((c) => cacheable(compile(c, env, 1, true), c));
  const mustNot = node.mustNot.map((c) => cacheable(compile(c, env, 1, true), c));
  if (must.length + should.length + filters.length + mustNot.length === 0) return new MatchAllWeight(boost);
  // Only negative clauses: Elasticsearch adds a match_all filter (Queries.fixNegativeQueryIfNeeded).
  if (must.length + should.length + filters.length === 0) filters.push(new MatchAllWeight(0));
  // Filter context changes nothing here: since 7.0, BoolQueryBuilder no longer gives should
  // clauses a minimum_should_match of 1 there (optional next to a must or filter, one needed
  // when they are alone, as anywhere).
  const spec = node.minimumShouldMatch;
  return new BoolWeight(must, filters, should, mustNot, minimumShouldMatch(should.length, spec, env));
}
