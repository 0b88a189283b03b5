/**
 * A search with a point in time (paging.md §4.2, §4.3): no target in the path, the shards are
 * the PIT's, in the PIT's order (a shard's position is its `_shard_doc` shard index), each read
 * on the reader the PIT pinned. A sort gets the implicit `_shard_doc` tiebreaker; a
 * `keep_alive` extends the lease; the response names the id to use next.
 */
import {
  actionRequestValidation,
  type SearchRequest,
  type SortSpec,
  searchPhaseExecution,
} from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import { type CancelToken, toWireQueryTask } from '@shoal/shard';
import { decodePitId } from '../contexts/context-id.ts';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { contextTargets, contextWorker } from './context-targets.ts';
import { keepAliveTooLarge } from './keep-alive.ts';
import { type ShardQueryExec, unpackQueryReply } from './query-phase.ts';
import { restrictTargets } from './read-restrictions.ts';
import { runSearchPhases } from './search-phases.ts';
import type { SearchBody } from './search-response.ts';
import { applyShardLimits, SCORE_SORT, shardRequests } from './shard-request.ts';

/** RestSearchAction.preparePointInTime / SearchRequest.validate: what a PIT search may not name. */
export function checkPitRequest(req: RestRequest): void {
  const errors: string[] = [];
  if (req.params.index !== undefined) {
    errors.push('[indices] cannot be used with point in time. Do not specify any index with point in time.');
  }
  const q = req.query;
  if (
    q.expand_wildcards !== undefined ||
    q.ignore_unavailable !== undefined ||
    q.allow_no_indices !== undefined
  ) {
    errors.push('[indicesOptions] cannot be used with point in time');
  }
  if (q.routing !== undefined) errors.push('[routing] cannot be used with point in time');
  if (q.preference !== undefined) errors.push('[preference] cannot be used with point in time');
  if (q.ccs_minimize_roundtrips === 'true')
    errors.push('[ccs_minimize_roundtrips] cannot be used with point in time');
  if (errors.length > 0) throw actionRequestValidation(errors);
}

/**
 * SearchRequest.rewrite: a PIT search sorted on something other than `_shard_doc` gets it as
 * the last key, unless search_after was given without a value for it.
 */
export function withShardDocTiebreaker(
  sort: SortSpec[] | undefined,
  searchAfter?: unknown[],
): SortSpec[] | undefined {
  if (!sort || sort.length === 0 || sort[sort.length - 1]!.kind === 'shard_doc') return sort;
  if (searchAfter !== undefined && searchAfter.length !== sort.length + 1) return sort;
  return [...sort, { kind: 'shard_doc', order: 'asc' }];
}

export async function executePitSearch(
  s: NodeServices,
  search: SearchRequest,
  cancel: CancelToken,
  startedAt: bigint,
  rawHits = false,
  access?: IndexAccess,
): Promise<SearchBody> {
  const pitReq = search.pit!;
  const pit = decodePitId(pitReq.id);
  const { targets, failures } = contextTargets(s, pit.shards, true);
  restrictTargets(targets, access);
  if (pitReq.keepAliveMs !== undefined) {
    const tooLarge = keepAliveTooLarge(s, pitReq.keepAliveMs);
    if (tooLarge) {
      throw searchPhaseExecution(
        'query',
        pit.shards.map((e) => ({ shard: e.shardId, index: e.index, node: s.node.id, reason: tooLarge })),
      );
    }
  }
  const explicit = withShardDocTiebreaker(search.sort, search.searchAfter);
  const sort = explicit ?? SCORE_SORT;
  const limits = applyShardLimits(targets, search, s, false);
  const build = shardRequests(search, sort, pit.shards.length, 'pit');
  const exec: ShardQueryExec = async (t) => {
    const { worker, key, context } = contextWorker(s, pit.shards[t.shardIndex]!);
    const { reply } = unpackQueryReply(
      await worker.run(
        toWireQueryTask({
          key,
          req: build(t),
          cancel,
          keepContext: true,
          pit: { context, keepAliveMs: pitReq.keepAliveMs },
        }),
      ),
    );
    return { reply, worker, key };
  };
  s.leases.touch(pit.lease, pitReq.keepAliveMs);
  const { body } = await runSearchPhases(
    s,
    {
      shape: { search, sort, hasSort: explicit !== undefined },
      totalShards: pit.shards.length,
      runnable: limits.runnable,
      failures: [...failures, ...limits.failures],
      exec,
      persistent: true,
      fetchPlan: { via: (o) => ({ session: pit.shards[o.target.shardIndex]!.context.session }) },
      rawHits,
      startedAt,
    },
    { pitId: pitReq.id },
  );
  return body;
}
