/**
 * The URL parameters of `_search` (RestSearchAction.parseSearchSource), applied over what the
 * body set: a parameter that is present replaces the body's value, except `sort`, whose keys are
 * appended, as SearchSourceBuilder.sort does.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { parseOperator } from '../query/full-text.ts';
import type { QueryStringOptions } from '../query/query-string-builder.ts';
import { isBooleanText } from '../values/params.ts';
import { parseTimeValue } from '../values/time-value.ts';
import { fetchSourceFromParams } from './fetch-source.ts';
import { readSortParam, splitByComma } from './parse-sort.ts';
import {
  checkFrom,
  checkSize,
  checkTerminateAfter,
  checkTrackTotalHitsUpTo,
  type SearchSource,
  TRACK_TOTAL_HITS_ACCURATE_VALUE,
} from './search-body.ts';
import { type Params, paramAsBoolean, paramAsInt } from './url-params.ts';

/** The parameters that only make sense with `q` (RestActions.queryStringParams), in its order. */
const QUERY_STRING_PARAMS = ['df', 'analyzer', 'analyze_wildcard', 'lenient', 'default_operator'];

export const SIZE_MINUS_ONE_DEPRECATION =
  "Using search size of -1 is deprecated and will be removed in future versions. Instead, don't use the `size` parameter if you don't want to set it explicitly.";

/** `q` and its options, parsed later: Elasticsearch only finds a syntax error on the shards. */
export interface DeferredQueryString {
  q: string;
  options: QueryStringOptions;
}

/**
 * RestActions.urlParamsToQueryBuilder: reads `q` and its options, or rejects those options
 * without `q`. `path` is the request path, which that error quotes.
 */
export function readQueryStringParams(params: Params, path: string): DeferredQueryString | undefined {
  const q = params.q;
  if (q === undefined) {
    const unconsumed = QUERY_STRING_PARAMS.filter((k) => params[k] !== undefined);
    if (unconsumed.length > 0) {
      throw illegalArgument(
        `request [${path}] contains parameters [${unconsumed.join(', ')}] but missing query string parameter 'q'.`,
      );
    }
    return undefined;
  }
  const options: QueryStringOptions = {};
  if (params.df !== undefined) options.defaultField = params.df;
  if (params.analyzer !== undefined) options.analyzer = params.analyzer;
  paramAsBoolean(params, 'analyze_wildcard');
  const lenient = paramAsBoolean(params, 'lenient');
  if (lenient !== undefined) options.lenient = lenient;
  if (params.default_operator !== undefined) options.defaultOperator = parseOperator(params.default_operator);
  return { q, options };
}

/** The search types SearchType.fromString knows; Shoal runs both as `query_then_fetch`. */
const SEARCH_TYPES = new Set(['query_then_fetch', 'dfs_query_then_fetch']);

/** SearchType.fromString. */
function checkSearchType(searchType: string | undefined): void {
  if (searchType !== undefined && !SEARCH_TYPES.has(searchType)) {
    throw illegalArgument(`No search type for [${searchType}]`);
  }
}

/** SearchRequest.setPreFilterShardSize. */
function checkPreFilterShardSize(n: number): void {
  if (n < 1) throw illegalArgument('preFilterShardSize must be >= 1');
}

/** SearchRequest.setMaxConcurrentShardRequests. */
function checkMaxConcurrentShardRequests(n: number): void {
  if (n < 1) throw illegalArgument('maxConcurrentShardRequests must be >= 1');
}

/**
 * The SearchRequest-level parameters RestSearchAction.parseSearchRequest reads between the body
 * and the search source, in its order. Shoal's fan-out needs none of their values (every shard of
 * a search is asked at once, and nothing is pre-filtered), but a value Elasticsearch refuses is
 * refused.
 */
function checkSearchRequestParams(params: Params): void {
  const batched = paramAsInt(params, 'batched_reduce_size');
  if (batched !== undefined && batched < 2) throw illegalArgument('batchedReduceSize must be >= 2');
  const preFilter = paramAsInt(params, 'pre_filter_shard_size');
  if (preFilter !== undefined) checkPreFilterShardSize(preFilter);
  const maxShardRequests = paramAsInt(params, 'max_concurrent_shard_requests');
  if (maxShardRequests !== undefined) checkMaxConcurrentShardRequests(maxShardRequests);
  paramAsBoolean(params, 'allow_partial_search_results');
  checkSearchType(params.search_type);
}

function isEmpty(params: Params): boolean {
  for (const _ in params) return false;
  return true;
}

/** Applies the URL parameters to `s`; returns the deferred `q`, if any. */
export function applySearchParams(
  s: SearchSource,
  params: Params,
  path: string,
): DeferredQueryString | undefined {
  // Most searches carry no parameter at all: then none applies and none is wrong.
  if (isEmpty(params)) return undefined;
  checkSearchRequestParams(params);
  const q = readQueryStringParams(params, path);
  const from = paramAsInt(params, 'from');
  if (from !== undefined) s.from = checkFrom(from);
  const size = paramAsInt(params, 'size');
  if (size === -1) {
    // Shoal keeps the 7.x behaviour: -1 means "not set", with a deprecation warning.
    s.warnings.push(SIZE_MINUS_ONE_DEPRECATION);
  } else if (size !== undefined) {
    s.size = checkSize(size);
  }
  const explain = paramAsBoolean(params, 'explain');
  if (explain !== undefined) s.explain = explain;
  const version = paramAsBoolean(params, 'version');
  if (version !== undefined) s.version = version;
  const seqNo = paramAsBoolean(params, 'seq_no_primary_term');
  if (seqNo !== undefined) s.seqNoPrimaryTerm = seqNo;
  if (params.timeout !== undefined) s.timeoutMs = parseTimeValue(params.timeout, 'timeout');
  const terminateAfter = paramAsInt(params, 'terminate_after');
  if (terminateAfter !== undefined) s.terminateAfter = checkTerminateAfter(terminateAfter);
  const source = fetchSourceFromParams(params);
  if (source !== undefined) s.source = source;
  const trackScores = paramAsBoolean(params, 'track_scores');
  if (trackScores !== undefined) s.trackScores = trackScores;
  const tth = params.track_total_hits;
  if (tth !== undefined) {
    if (isBooleanText(tth)) s.trackTotalHitsUpTo = tth === 'true' ? TRACK_TOTAL_HITS_ACCURATE_VALUE : -1;
    else s.trackTotalHitsUpTo = checkTrackTotalHitsUpTo(paramAsInt(params, 'track_total_hits')!);
  }
  if (params.sort !== undefined) s.sort = [...(s.sort ?? []), ...readSortParam(params.sort)];
  if (params.stats !== undefined) s.stats = splitByComma(params.stats);
  return q;
}

/** RestSearchAction.checkRestTotalHits: integer totals need exact counting. */
export function checkRestTotalHits(s: SearchSource, restTotalHitsAsInt: boolean): void {
  if (!restTotalHitsAsInt) return;
  const tth = s.trackTotalHitsUpTo;
  if (tth === undefined) s.trackTotalHitsUpTo = TRACK_TOTAL_HITS_ACCURATE_VALUE;
  else if (tth !== TRACK_TOTAL_HITS_ACCURATE_VALUE && tth !== -1) {
    throw illegalArgument(
      `[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${tth}`,
    );
  }
}
