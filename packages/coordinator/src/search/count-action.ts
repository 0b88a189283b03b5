/** `_count`: the query phase's hit count only, exact, summed over the target shards. */
import { parseCountRequest, withAliasFilter } from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { rewriteLookups } from './query-rewrite.ts';
import { restrictTargets } from './read-restrictions.ts';
import { withCancel } from './search-action.ts';
import { allShardsFailed, asShoalError, type ShardFailure, shardFailuresJson } from './shard-failure.ts';
import { queryLimits } from './shard-request.ts';
import { searchShardTargets } from './shard-targets.ts';

function queryLimitsOption(meta: IndexMetadata) {
  const limits = queryLimits(meta);
  return limits ? { limits } : {};
}

/**
 * `params` and `body` are the request's own unless a caller counts for another API (`_cat/count`
 * passes only the parameters `_count` knows, and no body).
 */
export async function executeCount(
  req: RestRequest,
  s: NodeServices,
  params: Record<string, string> = req.query,
  body: unknown = req.json(),
): Promise<Record<string, unknown>> {
  const parsed = parseCountRequest(body, params, { path: req.path });
  const { minScore, terminateAfter } = parsed;
  const query = (await rewriteLookups(s, req, { query: parsed.query }))?.query ?? parsed.query;
  const targets = searchShardTargets(
    s,
    req.params.index,
    indicesOptionsFrom(params, SEARCH_INDICES_OPTIONS),
    params,
  );
  restrictTargets(targets, req.indexAccess);
  const failures: ShardFailure[] = [];
  let count = 0;
  let terminatedEarly = false;
  await withCancel(req, s, (cancel) =>
    Promise.all(
      targets.map(async (t) => {
        try {
          if (t.copy?.state !== 'STARTED' || !t.copy.worker) {
            throw asShoalError(
              new Error(`[${t.meta.name}][${t.shardId}] shard copy is ${t.copy?.state ?? 'UNASSIGNED'}`),
            );
          }
          const r = await t.copy.worker.run({
            t: 'count',
            key: t.copy.key,
            query: t.aliasFilter ? withAliasFilter(query, t.aliasFilter) : query,
            cancel,
            ...(minScore !== undefined && { minScore }),
            ...(terminateAfter !== undefined && { terminateAfter }),
            ...queryLimitsOption(t.meta),
            ...(t.documentFilter && { documentFilter: t.documentFilter }),
            ...(t.fieldVisibility && { fieldVisibility: t.fieldVisibility }),
          });
          count += r.count;
          if (r.terminatedEarly) terminatedEarly = true;
        } catch (e) {
          failures.push({ shard: t.shardId, index: t.meta.name, node: s.node.id, error: asShoalError(e) });
        }
      }),
    ),
  );
  if (targets.length > 0 && failures.length === targets.length) throw allShardsFailed('query', failures);
  const shards: Record<string, unknown> = {
    total: targets.length,
    successful: targets.length - failures.length,
    skipped: 0,
    failed: failures.length,
  };
  if (failures.length > 0) shards.failures = shardFailuresJson(failures);
  // RestCountAction: terminated_early comes first, and only when terminate_after was given.
  return terminateAfter === undefined
    ? { count, _shards: shards }
    : { terminated_early: terminatedEarly, count, _shards: shards };
}
