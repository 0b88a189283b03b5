/**
 * `_search` and `_count` requests: the body, then the URL parameters over it (RestSearchAction /
 * RestCountAction), then the request validation, in Elasticsearch's order — body errors first,
 * then parameter errors, then `action_request_validation_exception`, and last a `q=` syntax error
 * (which Elasticsearch only discovers on the shards).
 */

import { illegalArgument } from '../errors/catalogue.ts';
import { isShoalError } from '../errors/shoal-error.ts';
import type { KnnQuery, QueryNode } from '../query/ast.ts';
import { MAX_NUM_CANDIDATES } from '../query/knn.ts';
import { parsingError } from '../query/local-errors.ts';
import { here, isObject, newCtx, tokenOf } from '../query/parse-context.ts';
import { parseInnerQuery } from '../query/parse-query.ts';
import { parseQueryString } from '../query/parse-query-string.ts';
import { parseTimeValue } from '../values/time-value.ts';
import { fetchFieldParams } from './fetch-fields.ts';
import { normalizeSort } from './parse-sort.ts';
import { checkTerminateAfter, readSearchBody, type SearchSource } from './search-body.ts';
import { applySearchParams, checkRestTotalHits, readQueryStringParams } from './search-params.ts';
import {
  DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  type SearchRequest,
  TRACK_TOTAL_HITS_ACCURATE,
} from './search-request.ts';
import { type Params, paramAsBoolean, paramAsFloat, paramAsInt } from './url-params.ts';
import { validateSearch } from './validate-search.ts';

export interface SearchRequestOptions {
  /** The request is a point-in-time search (defaults to: the body has `pit`). */
  hasPit?: boolean;
  /** The request opens a scroll (defaults to: a `scroll` parameter is present). */
  hasScroll?: boolean;
  /** The request path, quoted by the "missing query string parameter 'q'" error. */
  path?: string;
  /** The node's stored scripts: a script `id` gets its source while the body is parsed. */
  storedScript?: (id: string) => { source: string; lang: string } | undefined;
}

const DEFAULT_SIZE = 10;
const MATCH_ALL: QueryNode = { type: 'match_all', boost: 1 };

/**
 * Parses and validates a `_search` request. `body` is the decoded JSON body (undefined when there
 * is none); `params` the URL query parameters.
 */
export function parseSearchRequest(
  body: unknown,
  params: Params,
  opts: SearchRequestOptions = {},
): SearchRequest {
  const s = readBody(body, opts.storedScript);
  const deferredQ = applySearchParams(s, params, opts.path ?? '/_search');
  applyFetchFieldParams(s, params);
  const requestCache = paramAsBoolean(params, 'request_cache');
  const scrollKeepAliveMs = params.scroll === undefined ? undefined : parseTimeValue(params.scroll, 'scroll');
  const restTotalHitsAsInt = paramAsBoolean(params, 'rest_total_hits_as_int') ?? false;
  checkRestTotalHits(s, restTotalHitsAsInt);

  const scroll = opts.hasScroll ?? scrollKeepAliveMs !== undefined;
  const pit = opts.hasPit ?? s.pit !== undefined;
  const invalid = validateSearch(s, { scroll, pit, requestCache });
  if (invalid) throw invalid;
  if (deferredQ) s.query = parseQueryString(deferredQ.q, deferredQ.options);

  const req: SearchRequest = {
    query: s.query ?? { ...MATCH_ALL },
    from: s.from ?? 0,
    size: s.size ?? DEFAULT_SIZE,
    sort: normalizeSort(s.sort ?? []),
    // A scroll always counts exactly (SearchRequest.resolveTrackTotalHitsUpTo).
    trackTotalHits: scroll
      ? TRACK_TOTAL_HITS_ACCURATE
      : (s.trackTotalHitsUpTo ?? DEFAULT_TRACK_TOTAL_HITS_UP_TO),
    trackScores: s.trackScores ?? false,
    source: effectiveSource(s),
    version: s.version ?? false,
    seqNoPrimaryTerm: s.seqNoPrimaryTerm ?? false,
    restTotalHitsAsInt,
  };
  if (s.searchAfter !== undefined) req.searchAfter = s.searchAfter;
  if (s.timeoutMs !== undefined && s.timeoutMs >= 0) req.timeoutMs = s.timeoutMs;
  if (s.terminateAfter !== undefined && s.terminateAfter > 0) req.terminateAfter = s.terminateAfter;
  if (s.warnings.length > 0) req.warnings = s.warnings;
  if (s.postFilter !== undefined) req.postFilter = s.postFilter;
  if (s.minScore !== undefined) req.minScore = s.minScore;
  if (s.explain !== undefined) req.explain = s.explain;
  if (s.profile !== undefined) req.profile = s.profile;
  if (s.aggs !== undefined) req.aggs = s.aggs;
  if (s.runtimeMappings !== undefined) req.runtimeMappings = s.runtimeMappings;
  if (s.pit !== undefined) req.pit = s.pit;
  if (s.slice !== undefined) req.slice = s.slice;
  if (s.collapse !== undefined) req.collapse = s.collapse;
  if (s.rescore !== undefined) req.rescore = s.rescore;
  if (s.knn !== undefined && s.knn.length > 0) {
    if (params.search_type !== undefined) {
      throw illegalArgument(
        'cannot set [search_type] when using [knn] search, since the search type is determined automatically',
      );
    }
    req.knn = s.knn.map((k) => resolveKnn(k, req.size));
    // Without a query, the hits are the nearest neighbours alone.
    if (s.query === undefined) req.query = { type: 'match_none' };
  }
  if (s.stats !== undefined) req.stats = s.stats;
  if (s.indicesBoost !== undefined && s.indicesBoost.length > 0) req.indicesBoost = s.indicesBoost;
  if (scrollKeepAliveMs !== undefined) req.scrollKeepAliveMs = scrollKeepAliveMs;
  if (requestCache !== undefined) req.requestCache = requestCache;
  if (s.highlight !== undefined) req.highlight = s.highlight;
  if (s.fetchFields !== undefined) req.fetchFields = s.fetchFields;
  if (s.docValueFields !== undefined && s.docValueFields.length > 0) req.docValueFields = s.docValueFields;
  if (s.storedFields !== undefined) req.storedFields = s.storedFields;
  if (s.ignoredKeys.length > 0) req.ignoredKeys = s.ignoredKeys;
  if (s.scriptFieldsCount !== undefined) req.scriptFieldsCount = s.scriptFieldsCount;
  if (s.scriptFields !== undefined && s.scriptFields.length > 0) req.scriptFields = s.scriptFields;
  if (s.scripts !== undefined) req.scripts = s.scripts;
  if (paramAsBoolean(params, 'typed_keys')) req.typedKeys = true;
  if (paramAsBoolean(params, 'include_named_queries_score')) req.includeNamedQueriesScore = true;
  return req;
}

/** RestSearchAction: `stored_fields` replaces the body's, `docvalue_fields` adds to it. */
function applyFetchFieldParams(s: SearchSource, params: Params): void {
  if (params.stored_fields === undefined && params.docvalue_fields === undefined) return;
  const p = fetchFieldParams(params);
  if (p.storedFields) s.storedFields = p.storedFields;
  if (p.docValueFields) s.docValueFields = [...(s.docValueFields ?? []), ...p.docValueFields];
}

/**
 * FetchContext.buildFetchSourceContext: asking for stored fields turns the implicit `_source`
 * off (unless `_source` is one of them), and `_none_` turns it off altogether.
 */
function effectiveSource(s: SearchSource): SearchRequest['source'] {
  const sf = s.storedFields;
  if (sf && !sf.fetch) return { enabled: false, includes: [], excludes: [] };
  if (sf?.names.includes('_source')) {
    return s.source ? { ...s.source, enabled: true } : { enabled: true, includes: [], excludes: [] };
  }
  if (s.source) return s.source;
  return { enabled: sf === undefined, includes: [], excludes: [] };
}

function readBody(body: unknown, storedScript: SearchRequestOptions['storedScript']): SearchSource {
  if (body === undefined) return { ignoredKeys: [], warnings: [] };
  const ctx = newCtx(body);
  if (!isObject(body)) {
    throw parsingError(`Expected [START_OBJECT] but found [${tokenOf(body)}]`, here(ctx, 'value'));
  }
  ctx.scripts = [];
  if (storedScript) ctx.storedScript = storedScript;
  const s = readSearchBody(ctx, body);
  if (ctx.scripts.length > 0) s.scripts = ctx.scripts;
  return s;
}

export interface CountRequest {
  query: QueryNode;
  /** Docs scoring below it are not counted. */
  minScore?: number;
  /** Each shard counts at most this many docs; the response then says whether one stopped. */
  terminateAfter?: number;
}

/** RestCountAction's DEFAULT_MIN_SCORE: `min_score=-1` is no minimum. */
const NO_MIN_SCORE = -1;

/**
 * Parses a `_count` request: the body's `query` (the only key allowed), or else `q`, and the
 * `min_score` and `terminate_after` parameters as RestCountAction reads them.
 */
export function parseCountRequest(body: unknown, params: Params, opts: { path?: string } = {}): CountRequest {
  let query: QueryNode | undefined;
  let deferredQ: ReturnType<typeof readQueryStringParams>;
  if (body === undefined) deferredQ = readQueryStringParams(params, opts.path ?? '/_count');
  else query = readCountBody(body);
  const minScore = paramAsFloat(params, 'min_score');
  const terminateAfter = paramAsInt(params, 'terminate_after');
  if (terminateAfter !== undefined) checkTerminateAfter(terminateAfter);
  if (deferredQ) query = parseQueryString(deferredQ.q, deferredQ.options);
  const out: CountRequest = { query: query ?? { ...MATCH_ALL } };
  if (minScore !== undefined && minScore !== NO_MIN_SCORE) out.minScore = minScore;
  if (terminateAfter !== undefined && terminateAfter !== 0) out.terminateAfter = terminateAfter;
  return out;
}

/** RestActions.getQueryContent: non-parsing failures are wrapped in `Failed to parse`. */
function readCountBody(body: unknown): QueryNode | undefined {
  const ctx = newCtx(body);
  if (!isObject(body)) {
    throw parsingError(`Expected [START_OBJECT] but found [${tokenOf(body)}]`, here(ctx, 'value'));
  }
  let query: QueryNode | undefined;
  for (const key of Object.keys(body)) {
    if (key !== 'query') throw parsingError(`request does not support [${key}]`, here(ctx, 'key', key));
    ctx.path.push(key);
    try {
      query = parseInnerQuery(ctx, body[key]);
    } catch (e) {
      // A query text that does not parse (query_string) fails on the shards in Elasticsearch,
      // as a `q=` does, and Shoal's own 501 is never the client's mistake: neither is wrapped.
      if (!isShoalError(e) || e.type === 'parsing_exception' || e.type === 'query_shard_exception') throw e;
      if (e.status === 501) throw e;
      throw parsingError('Failed to parse', ctx.errorLoc, e);
    }
    ctx.path.pop();
  }
  return query;
}

/**
 * A top-level knn search with its defaults (KnnSearchBuilder): `k` is the search's size, and
 * `num_candidates` 1.5 × k (at most 10,000); fewer candidates than k is an error.
 */
function resolveKnn(knn: KnnQuery, size: number): KnnQuery {
  const k = knn.k ?? size;
  if (k < 1) throw illegalArgument('[k] must be greater than 0');
  const numCandidates = knn.numCandidates ?? Math.min(Math.ceil(1.5 * k), MAX_NUM_CANDIDATES);
  if (numCandidates < k) throw illegalArgument('[num_candidates] cannot be less than [k]');
  return { ...knn, k, numCandidates };
}
