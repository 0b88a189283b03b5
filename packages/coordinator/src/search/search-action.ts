/**
 * `_search` end to end on the coordinator: parse and validate, resolve the targets, query
 * phase on every shard, k-way merge, fetch phase on the winners' shards, assemble. Shard-level
 * failures are reported in `_shards.failures`; when every shard failed, the search fails with
 * `search_phase_execution_exception`.
 */
import type { ShardQueryRequest } from '@shoal/engine';
import {
  getInt,
  illegalArgument,
  isShoalError,
  parseSearchRequest,
  type QueryNode,
  type SearchRequest,
  ShoalError,
  type SortSpec,
} from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { runFetchPhase } from './fetch-phase.ts';
import { hitComparator, mergeTopHits } from './merge.ts';
import { releaseContexts, runQueryPhase } from './query-phase.ts';
import { searchResponse } from './search-response.ts';
import { allShardsFailed, type ShardFailure } from './shard-failure.ts';
import { shardTargets } from './shard-targets.ts';
import { refuseUnsupported } from './unsupported.ts';

const SCORE_SORT: SortSpec[] = [{ kind: 'score', order: 'desc' }];

function cancelFlag(signal: AbortSignal): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(4);
  const flag = new Int32Array(sab);
  const abort = () => Atomics.store(flag, 0, 1);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return sab;
}

/** `index.max_result_window`, checked per index as each shard would. */
function windowFailures(indices: IndexMetadata[], req: SearchRequest, nodeId: string): ShardFailure[] {
  const failures: ShardFailure[] = [];
  for (const meta of indices) {
    const window = getInt(meta.settings, 'index.max_result_window');
    if (req.from + req.size > window) {
      const error = illegalArgument(
        `Result window is too large, from + size must be less than or equal to: [${window}] but was [${req.from + req.size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
      );
      for (let shard = 0; shard < meta.numberOfShards; shard++) {
        failures.push({ shard, index: meta.name, node: nodeId, error });
      }
    }
  }
  return failures;
}

export async function executeSearch(req: RestRequest, s: NodeServices): Promise<Record<string, unknown>> {
  const started = process.hrtime.bigint();
  const indices = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const targets = shardTargets(s, indices);
  let search: SearchRequest;
  try {
    search = parseSearchRequest(req.json(), req.query, { path: req.path });
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
  for (const w of search.warnings ?? []) req.warnings.push(w);
  refuseUnsupported(search, req.query);
  // Without aggregations, post_filter narrows the hits exactly as a scoreless filter would.
  const query: QueryNode = search.postFilter
    ? { type: 'bool', must: [search.query], filter: [search.postFilter], should: [], mustNot: [], boost: 1 }
    : search.query;
  const sort = search.sort ?? SCORE_SORT;
  const hasSort = search.sort !== undefined;
  const tooLarge = windowFailures(indices, search, s.node.id);
  if (tooLarge.length > 0 && tooLarge.length === targets.length) throw allShardsFailed('query', tooLarge);
  const refused = new Set(tooLarge.map((f) => f.index));
  const runnable = targets.filter((t) => !refused.has(t.meta.name));

  const k = search.from + search.size;
  const build = (t: (typeof targets)[number]): ShardQueryRequest => ({
    query,
    sort,
    k,
    trackTotalHitsUpTo: search.trackTotalHits,
    trackScores: search.trackScores,
    searchAfter: search.searchAfter as ShardQueryRequest['searchAfter'],
    shardIndex: t.shardIndex,
  });
  const cancel = cancelFlag(req.signal);
  const phase = await runQueryPhase(s, runnable, build, cancel, search.size > 0);
  const { outcomes } = phase;
  const failures = [...tooLarge, ...phase.failures];
  if (targets.length > 0 && outcomes.length === 0) throw allShardsFailed('query', failures);

  const cmp = hitComparator(sort);
  const page = mergeTopHits(
    outcomes.map((o) => o.hits),
    cmp,
    search.from,
    search.size,
  );
  let maxScore = Number.NaN;
  if (!hasSort || search.trackScores || sort.some((x) => x.kind === 'score')) {
    for (const o of outcomes) {
      if (!Number.isNaN(o.result.maxScore) && !(o.result.maxScore <= maxScore)) maxScore = o.result.maxScore;
    }
  }
  if (hasSort && !search.trackScores && !sort.some((x) => x.kind === 'score')) maxScore = Number.NaN;
  if (targets.length === 0) maxScore = 0;

  let fetched: Awaited<ReturnType<typeof runFetchPhase>>;
  try {
    fetched = await runFetchPhase(s, page, outcomes, {
      source: search.source,
      version: search.version,
      seqNoPrimaryTerm: search.seqNoPrimaryTerm,
    });
  } catch (e) {
    releaseContexts(outcomes);
    throw e;
  }
  const took = Number((process.hrtime.bigint() - started) / 1_000_000n);
  return searchResponse({
    took,
    req: search,
    totalShards: targets.length,
    skipped: 0,
    outcomes,
    failures: [...failures, ...fetched.failures],
    hits: fetched.hits,
    hasSort,
    maxScore,
  });
}
