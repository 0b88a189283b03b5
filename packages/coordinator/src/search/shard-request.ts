/**
 * What every kind of search sends each shard: the query (post_filter folded in), the sort,
 * how many candidates, the aggregations, and the per-index result-window check a shard would make.
 */
import {
  DEFAULT_MAX_REGEX_LENGTH,
  DEFAULT_MAX_TERMS_COUNT,
  type QueryLimits,
  type ShardQueryRequest,
  type ShardSlice,
} from '@shoal/engine';
import {
  type FieldBoost,
  getInt,
  getList,
  illegalArgument,
  type QueryNode,
  type RescoreSpec,
  type SearchRequest,
  type SortSpec,
  withAliasFilter,
} from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { fetchFieldsError } from './fetch-fields.ts';
import { boostedQuery, indexBoostError, indexBoostOf } from './index-boosts.ts';
import type { ShardFailure } from './shard-failure.ts';
import type { ShardTarget } from './shard-targets.ts';
import { shardSlice } from './slice-targets.ts';

export const SCORE_SORT: SortSpec[] = [{ kind: 'score', order: 'desc' }];

/**
 * Without aggregations, post_filter narrows the hits exactly as a scoreless filter would; with
 * them it goes to the shard on its own, as the aggregations must not see it. With
 * terminate_after it goes on its own too: Elasticsearch's hit-count shortcuts do not apply then.
 */
export function effectiveQuery(search: SearchRequest): QueryNode {
  return search.postFilter && !search.aggs && search.terminateAfter === undefined
    ? { type: 'bool', must: [search.query], filter: [search.postFilter], should: [], mustNot: [], boost: 1 }
    : search.query;
}

/** The shard request builder of a search over `numShards` shards. */
export function shardRequests(
  search: SearchRequest,
  sort: SortSpec[],
  numShards: number,
  sliceContext: ShardSlice['context'],
): (t: ShardTarget) => ShardQueryRequest {
  const query = effectiveQuery(search);
  // Each shard rescores its own top window before the merge, so it keeps at least that many.
  const rescore = search.rescore?.length ? search.rescore : undefined;
  const k = rescore ? rescoredK(search, rescore) : search.from + search.size;
  const boosted = search.indicesBoost !== undefined;
  return (t) => {
    const q = boosted ? boostedQuery(query, indexBoostOf(search, t.meta)) : query;
    const req: ShardQueryRequest = {
      // Around the query and not the post_filter: aggregations see only the alias's documents.
      query: t.aliasFilter ? withAliasFilter(q, t.aliasFilter) : q,
      sort,
      k,
      trackTotalHitsUpTo: search.trackTotalHits,
      trackScores: search.trackScores,
      shardIndex: t.shardIndex,
    };
    // Absent rather than undefined: every key is serialised to the worker thread.
    if (search.searchAfter !== undefined)
      req.searchAfter = search.searchAfter as ShardQueryRequest['searchAfter'];
    if (search.slice) req.slice = shardSlice(search.slice, t.shardIndex, numShards, sliceContext);
    if (search.minScore !== undefined) req.minScore = search.minScore;
    const limits = queryLimits(t.meta);
    if (limits) req.limits = limits;
    if (rescore) req.rescore = rescore;
    if (search.collapse !== undefined) req.collapse = { field: search.collapse.field as string };
    if (search.runtimeMappings) req.runtimeMappings = search.runtimeMappings;
    if (t.documentFilter) req.documentFilter = t.documentFilter;
    if (t.fieldVisibility) req.fieldVisibility = t.fieldVisibility;
    if (search.aggs) {
      req.aggs = search.aggs;
      if (search.postFilter) req.postFilter = search.postFilter;
    }
    if (search.terminateAfter !== undefined) {
      req.terminateAfter = search.terminateAfter;
      if (search.postFilter) req.postFilter = search.postFilter;
    }
    return req;
  };
}

function rescoredK(search: SearchRequest, rescorers: readonly RescoreSpec[]): number {
  let k = search.from + search.size;
  for (const r of rescorers) k = Math.max(k, r.windowSize);
  return k;
}

/**
 * `index.max_result_window` (and for a scroll the batch size), checked per index as each shard
 * would (paging.md §2.2 #1, #2); `index.max_slices_per_scroll` for a sliced scroll (#34).
 */
export function applyShardLimits(
  targets: readonly ShardTarget[],
  search: SearchRequest,
  s: NodeServices,
  scroll: boolean,
): { runnable: ShardTarget[]; failures: ShardFailure[] } {
  const runnable: ShardTarget[] = [];
  const failures: ShardFailure[] = [];
  const errors = new Map<IndexMetadata, ReturnType<typeof illegalArgument> | null>();
  for (const t of targets) {
    let error = errors.get(t.meta);
    if (error === undefined) {
      error = limitError(t.meta, search, scroll);
      errors.set(t.meta, error);
    }
    if (error) failures.push({ shard: t.shardId, index: t.meta.name, node: s.node.id, error });
    else runnable.push(t);
  }
  return { runnable, failures };
}

/** The limits of an index; IndexMetadata is replaced, never mutated, so they are read once. */
interface IndexLimits {
  window: number;
  maxSlices: number;
  /** What the shard's query may build, where the index changed the defaults. */
  query: QueryLimits | undefined;
}

const limitsOf = new WeakMap<IndexMetadata, IndexLimits>();

/**
 * DefaultSearchContext.preProcess: a sort other than the score's (SortBuilder.buildSort leaves
 * a lone `_score` descending as no sort) and a window above `index.max_rescore_window` fail the
 * shard.
 */
function rescoreError(meta: IndexMetadata, search: SearchRequest, rescorers: readonly RescoreSpec[]) {
  const sort = search.sort ?? [];
  const scoreOnly =
    sort.length === 0 || (sort.length === 1 && sort[0]!.kind === 'score' && sort[0]!.order === 'desc');
  if (!scoreOnly) return illegalArgument('Cannot use [sort] option in conjunction with [rescore].');
  const max = getInt(meta.settings, 'index.max_rescore_window');
  for (const r of rescorers) {
    if (r.windowSize > max) {
      return illegalArgument(
        `Rescore window [${r.windowSize}] is too large. It must be less than [${max}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.`,
      );
    }
  }
  return null;
}

function indexLimits(meta: IndexMetadata): IndexLimits {
  let limits = limitsOf.get(meta);
  if (!limits) {
    limits = {
      window: getInt(meta.settings, 'index.max_result_window'),
      maxSlices: getInt(meta.settings, 'index.max_slices_per_scroll'),
      query: queryLimitsOf(meta),
    };
    limitsOf.set(meta, limits);
  }
  return limits;
}

function queryLimitsOf(meta: IndexMetadata): QueryLimits | undefined {
  const maxTermsCount = getInt(meta.settings, 'index.max_terms_count');
  const maxRegexLength = getInt(meta.settings, 'index.max_regex_length');
  const defaultFields = indexDefaultFields(meta);
  if (
    maxTermsCount === DEFAULT_MAX_TERMS_COUNT &&
    maxRegexLength === DEFAULT_MAX_REGEX_LENGTH &&
    defaultFields === undefined
  )
    return undefined;
  const limits: QueryLimits = {};
  if (defaultFields) limits.defaultFields = defaultFields;
  if (maxTermsCount !== DEFAULT_MAX_TERMS_COUNT) limits.maxTermsCount = maxTermsCount;
  if (maxRegexLength !== DEFAULT_MAX_REGEX_LENGTH) limits.maxRegexLength = maxRegexLength;
  return limits;
}

/**
 * `index.query.default_field` as `field^boost` entries (QueryParserHelper.parseFieldsAndWeights),
 * or undefined for the default `*`.
 */
function indexDefaultFields(meta: IndexMetadata): FieldBoost[] | undefined {
  if (meta.settings['index.query.default_field'] === undefined) return undefined;
  const names = getList(meta.settings, 'index.query.default_field');
  if (names.length === 1 && names[0] === '*') return undefined;
  return names.map((name) => {
    const caret = name.lastIndexOf('^');
    return caret < 0
      ? { field: name, boost: 1 }
      : { field: name.slice(0, caret), boost: Number(name.slice(caret + 1)) };
  });
}

/** SearchService.parseSource: too many `script_fields` fail each shard of the index. */
function scriptFieldsError(meta: IndexMetadata, count: number) {
  const max = getInt(meta.settings, 'index.max_script_fields');
  if (count <= max) return undefined;
  return illegalArgument(
    `Trying to retrieve too many script_fields. Must be less than or equal to: [${max}] but was [${count}]. This limit can be set by changing the [index.max_script_fields] index level setting.`,
  );
}

/** The query limits the shards of `meta` apply, where the index changed the defaults. */
export function queryLimits(meta: IndexMetadata): QueryLimits | undefined {
  return indexLimits(meta).query;
}

function limitError(meta: IndexMetadata, search: SearchRequest, scroll: boolean) {
  if (search.docValueFields || search.storedFields) {
    const error = fetchFieldsError(meta, search);
    if (error) return error;
  }
  if (search.scriptFieldsCount !== undefined) {
    const error = scriptFieldsError(meta, search.scriptFieldsCount);
    if (error) return error;
  }
  const { window, maxSlices } = indexLimits(meta);
  const wanted = search.from + search.size;
  if (wanted > window) {
    return illegalArgument(
      scroll
        ? `Batch size is too large, size must be less than or equal to: [${window}] but was [${wanted}]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting.`
        : `Result window is too large, from + size must be less than or equal to: [${window}] but was [${wanted}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
    );
  }
  if (search.rescore?.length) {
    const error = rescoreError(meta, search, search.rescore);
    if (error) return error;
  }
  if (search.indicesBoost) {
    const error = indexBoostError(search, meta);
    if (error) return error;
  }
  if (scroll && search.slice && search.slice.max > maxSlices) {
    return illegalArgument(
      `The number of slices [${search.slice.max}] is too large. It must be less than [${maxSlices}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.`,
    );
  }
  return null;
}
