/**
 * `_search` end to end on the coordinator: parse and validate, then one of three searches —
 * on the PIT's shards and pinned readers (pit-search.ts), opening a scroll (scroll-search.ts),
 * or on the latest reader of each target shard — through the shared phases (query, merge,
 * fetch, response; search-phases.ts). Shard-level failures are reported in `_shards.failures`;
 * when every shard failed, the search fails with `search_phase_execution_exception`.
 */

import type { ShardFetchRequest } from '@shoal/engine';
import {
  getString,
  isShoalError,
  type KnnQuery,
  notImplemented,
  parseSearchRequest,
  type SearchRequest,
  ShoalError,
} from '@shoal/protocol';
import type { CancelToken } from '@shoal/shard';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import type { TaskSpec } from '../tasks/task-registry.ts';
import { expandCollapsed } from './expand-phase.ts';
import { fetchFieldsSpec } from './fetch-fields.ts';
import { highlightFetch, targetMetas } from './highlight-fetch.ts';
import { resolveIndexBoosts } from './index-boosts.ts';
import { innerHitsSpecs } from './inner-hits-spec.ts';
import { withKnnNeighbours } from './knn-phase.ts';
import { matchedQueriesFetch } from './matched-queries-fetch.ts';
import type { ParsedSearch } from './parsed-search-cache.ts';
import { checkPitRequest, executePitSearch } from './pit-search.ts';
import { type FirstPagePrefetch, latestReaderQuery } from './query-phase.ts';
import { rewriteLookups } from './query-rewrite.ts';
import { restrictTargets } from './read-restrictions.ts';
import { cacheableSearch, indexCachesRequests } from './request-cache-policy.ts';
import { startScroll } from './scroll-search.ts';
import { type PhasesOutput, runSearchPhases } from './search-phases.ts';
import type { SearchBody } from './search-response.ts';
import { allShardsFailed } from './shard-failure.ts';
import { applyShardLimits, SCORE_SORT, shardRequests } from './shard-request.ts';
import { type ShardTarget, searchShardTargets } from './shard-targets.ts';
import { refuseUnsupported } from './unsupported.ts';

/** What the shards fetch with a prefetched page: one object shape unless fields or highlight ask more. */
function prefetchOptions(search: SearchRequest, targets: ShardTarget[]): Omit<ShardFetchRequest, 'docs'> {
  const fetch: Omit<ShardFetchRequest, 'docs'> = {
    source: search.source,
    version: search.version,
    seqNoPrimaryTerm: search.seqNoPrimaryTerm,
  };
  const fields = fetchFieldsSpec(search);
  if (fields) fetch.fields = fields;
  if (search.highlight) Object.assign(fetch, highlightFetch(search, targetMetas(targets)));
  Object.assign(fetch, matchedQueriesFetch(search));
  return fetch;
}

/**
 * Runs `f` with a cancellation token the shards poll (cancel-slots.ts): cancelled when the
 * client goes away, given back when `f` is done.
 */
export function withCancel<T>(
  req: Pick<RestRequest, 'onDisconnect'>,
  s: Pick<NodeServices, 'cancelSlots'> & Partial<Pick<NodeServices, 'tasks'>>,
  f: (cancel: CancelToken) => Promise<T>,
  task?: TaskSpec,
): Promise<T> {
  const slots = s.cancelSlots;
  const token = slots.acquire();
  req.onDisconnect(() => slots.cancel(token));
  // A search is a task too: `GET /_tasks?actions=*search*` lists it, `_cancel` stops it.
  const registered = task && s.tasks ? s.tasks.register(task) : undefined;
  registered?.onCancel(() => slots.cancel(token));
  let running: Promise<T>;
  try {
    running = f(token);
  } catch (e) {
    slots.release(token);
    if (registered) s.tasks!.unregister(registered);
    return Promise.reject(e);
  }
  return running.then(
    (v) => {
      slots.release(token);
      if (registered) s.tasks!.unregister(registered);
      return v;
    },
    (e: unknown) => {
      slots.release(token);
      if (registered) s.tasks!.unregister(registered);
      throw e;
    },
  );
}

/** Elasticsearch's search task description: its targets, type and source. */
function searchTask(action: string, req: RestRequest): TaskSpec {
  return {
    action,
    cancellable: true,
    description: () =>
      `indices[${req.params.index ?? ''}], search_type[QUERY_THEN_FETCH], source[${req.body?.toString('utf8') ?? ''}]`,
  };
}

/**
 * Whether the hits may be written straight to bytes: nothing reads the response as objects
 * (`filter_path` does; `pretty` re-parses raw JSON to indent it).
 */
export function rawHitsFor(query: Record<string, string>): boolean {
  return query.filter_path === undefined && (query.pretty === undefined || query.pretty === 'false');
}

/** Whether a search body names a point in time (`pit`). */
export function hasPit(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'pit' in body;
}

function parse(req: RestRequest, s: NodeServices, targets: ShardTarget[]): SearchRequest {
  try {
    return parseSearchRequest(req.json(), req.query, {
      path: req.path,
      storedScript: (id) => s.storedScripts.get(id),
    });
  } catch (e) {
    // A `q` that does not parse fails on every shard in Elasticsearch, so it is reported that way.
    if (isShoalError(e) && e.type === 'query_shard_exception' && targets.length > 0) {
      throw allShardsFailed(
        'query',
        targets.map((t) => ({
          shard: t.shardId,
          index: t.meta.name,
          node: s.node.id,
          error: new ShoalError(
            e.type,
            e.reason,
            e.status,
            { index_uuid: t.meta.uuid, index: t.meta.name },
            e.causedBy,
          ),
        })),
      );
    }
    throw e;
  }
}

const SEARCH_ACTION = 'indices:data/read/search';

/** The largest page size fetched together with the query phase. */
const PREFETCH_MAX_SIZE = 50;

/**
 * Not an async function, nor are the steps to the shard call below it: each async layer costs
 * every search a promise and a resumption. A bad request throws here, before any shard work.
 * `parsed` is the request's parse when the caller made it already (`_msearch` parses all its
 * searches before it runs any); it is this request's own, not shared with another search.
 */
export function executeSearch(req: RestRequest, s: NodeServices, parsed?: ParsedSearch): Promise<SearchBody> {
  const startedAt = process.hrtime.bigint();
  // A search sent again (the same path, parameters and body) is not parsed again.
  const cache = s.parsedSearches;
  const key = parsed ? undefined : cache.keyOf(req);
  const kept = parsed ?? (key === undefined ? undefined : cache.get(key));
  const pit = kept ? kept.pit : hasPit(req.json());
  if (pit) checkPitRequest(req);
  const indicesOptions = indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS);
  const targets = pit ? [] : searchShardTargets(s, req.params.index, indicesOptions, req.query);
  restrictTargets(targets, req.indexAccess);
  const search = kept ? kept.search : parse(req, s, targets);
  if (search.scripts) {
    s.compilations.admit(
      search.scripts,
      getString(s.clusterSettings.effective(), 'script.max_compilations_rate'),
    );
  }
  // Index boosts are resolved against the cluster state into a table kept with the request
  // (index-boosts.ts): such a request is not shared between searches.
  if (!kept && key !== undefined && !search.indicesBoost) cache.set(key, { search, pit });
  if (search.indicesBoost) resolveIndexBoosts(s, search, indicesOptions);
  for (const w of search.warnings ?? []) req.warnings.push(w);
  refuseUnsupported(search);
  const collapseField = search.collapse?.field as string | undefined;
  const innerHits =
    collapseField === undefined ? [] : innerHitsSpecs(collapseField, search.collapse!.inner_hits);
  // Inner hits are added to the hits as objects: the page is not written straight to bytes.
  // So are explained hits: their explanations are objects.
  const rawHits = rawHitsFor(req.query) && innerHits.length === 0 && !search.explain;
  const run = (search: SearchRequest): Promise<SearchBody> =>
    withCancel(
      req,
      s,
      (cancel) => {
        if (search.knn) return knnSearch(s, search, search.knn, targets, cancel, startedAt, rawHits);
        if (search.pit) return executePitSearch(s, search, cancel, startedAt, rawHits, req.indexAccess);
        if (search.scrollKeepAliveMs !== undefined)
          return startScroll(s, search, targets, cancel, startedAt, rawHits, req);
        return searchLatest(s, search, targets, cancel, startedAt, rawHits);
      },
      searchTask(SEARCH_ACTION, req),
    );
  // Terms lookups fetch their documents first (query-rewrite.ts); most searches have none.
  const rewritten = rewriteLookups(s, req, search);
  const body = rewritten ? rewritten.then(run) : run(search);
  if (innerHits.length === 0) return body;
  return body.then((b) => expandCollapsed(s, req, collapseField!, innerHits, b));
}

/** A search with top-level knn searches: their neighbours first (knn-phase.ts), then the search. */
async function knnSearch(
  s: NodeServices,
  search: SearchRequest,
  knn: readonly KnnQuery[],
  targets: ShardTarget[],
  cancel: CancelToken,
  startedAt: bigint,
  rawHits: boolean,
): Promise<SearchBody> {
  if (search.pit) throw notImplemented('a top-level [knn] search in a point in time');
  if (search.scrollKeepAliveMs !== undefined) throw notImplemented('a top-level [knn] search with scroll');
  const full = await withKnnNeighbours(search, knn, targets, cancel, (first, t, c) =>
    searchLatest(s, first, t, c, startedAt, false),
  );
  return searchLatest(s, full, targets, cancel, startedAt, rawHits);
}

/** A search on each target shard's latest reader: the query (and small pages' fetch) phases. */
function searchLatest(
  s: NodeServices,
  search: SearchRequest,
  targets: ShardTarget[],
  cancel: CancelToken,
  startedAt: bigint,
  rawHits: boolean,
): Promise<SearchBody> {
  const sort = search.sort ?? SCORE_SORT;
  const limits = applyShardLimits(targets, search, s, false);
  if (limits.failures.length > 0 && limits.runnable.length === 0)
    throw allShardsFailed('query', limits.failures);
  // A small first page is fetched with the query: each shard sends the documents of its own
  // top `size` hits, which cover every hit of the page it can contribute.
  // A collapsed page skips the groups another shard already gave: not a prefix of each shard's hits.
  const prefetch: FirstPagePrefetch | undefined =
    search.from === 0 &&
    search.size > 0 &&
    search.size <= PREFETCH_MAX_SIZE &&
    search.collapse === undefined &&
    // Explained hits are explained by the fetch phase (explain-fetch.ts).
    !search.explain
      ? { count: search.size, fetch: prefetchOptions(search, targets) }
      : undefined;
  // Written straight to bytes, the page's hits are rendered by their shards and only copied here.
  if (prefetch && rawHits) prefetch.render = { withSort: search.sort !== undefined };
  const exec = latestReaderQuery(
    s,
    shardRequests(search, sort, targets.length, 'scroll'),
    cancel,
    search.size > 0,
    prefetch,
    cacheableSearch(search) ? (t) => indexCachesRequests(t.meta, search) : undefined,
  );
  return runSearchPhases(s, {
    shape: { search, sort, hasSort: search.sort !== undefined },
    totalShards: targets.length,
    runnable: limits.runnable,
    failures: limits.failures,
    exec,
    persistent: false,
    prefetched: prefetch !== undefined,
    rendered: prefetch?.render !== undefined,
    rawHits,
    startedAt,
  }).then(bodyOf);
}

function bodyOf(out: PhasesOutput): SearchBody {
  return out.body;
}
