/**
 * `POST /{index}/_flush` (commit every shard: segments and live docs fsynced, a commit point
 * written, the translog trimmed) and `POST /{index}/_forcemerge?max_num_segments=N` (merge
 * down to N segments, then flush). Both answer with `_shards` counts, as Elasticsearch does.
 */
import { illegalArgument } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import { type BlockLevel, checkBlocks } from '../state/index-blocks.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { boolParam, intParam } from './params.ts';

/** Runs `fn` on every started copy of the targets (primaries and replicas); `_shards` counts every copy. */
export async function onEveryShard(
  req: RestRequest,
  s: NodeServices,
  fn: (c: ShardCopy) => Promise<unknown>,
  blockLevel?: BlockLevel,
): Promise<RestResponse> {
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  if (blockLevel) checkBlocks(targets, blockLevel);
  let total = 0;
  let successful = 0;
  const failures: Record<string, unknown>[] = [];
  await Promise.all(
    targets.flatMap((meta) =>
      s.shards.copies(meta.uuid).map(async (c) => {
        total++;
        if (c.state !== 'STARTED' || !c.worker) return;
        try {
          await fn(c);
          successful++;
        } catch (e) {
          failures.push({
            shard: c.shardId,
            index: meta.name,
            status: 'INTERNAL_SERVER_ERROR',
            reason: { type: 'exception', reason: e instanceof Error ? e.message : String(e) },
          });
        }
      }),
    ),
  );
  const shards: Record<string, unknown> = { total, successful, failed: failures.length };
  if (failures.length > 0) shards.failures = failures;
  return { status: 200, body: { _shards: shards } };
}

async function flush(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const force = boolParam(req.query, 'force', false);
  boolParam(req.query, 'wait_if_ongoing', true);
  return onEveryShard(req, s, (c) => c.worker!.run({ t: 'flush', key: c.key, force }));
}

async function forceMerge(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const max = intParam(req.query, 'max_num_segments');
  const onlyExpungeDeletes = boolParam(req.query, 'only_expunge_deletes', false);
  if (max !== undefined && onlyExpungeDeletes) {
    throw illegalArgument(
      'Validation Failed: 1: cannot set only_expunge_deletes and max_num_segments at the same time, those two parameters are mutually exclusive;',
    );
  }
  if (max !== undefined && max < 1 && max !== -1) {
    throw illegalArgument(`max_num_segments must be at least 1 but was [${max}]`);
  }
  const maxNumSegments = max === undefined || max === -1 ? 1 : max;
  // TransportForceMergeAction: a force merge is a metadata write, so `read_only` refuses it.
  return onEveryShard(
    req,
    s,
    (c) => c.worker!.run({ t: 'forcemerge', key: c.key, maxNumSegments, onlyExpungeDeletes }),
    'metadata_write',
  );
}

export function flushMergeRoutes(): Route<NodeServices>[] {
  return [
    { method: 'POST', path: '/_flush', action: 'indices:admin/flush', handler: flush },
    { method: 'GET', path: '/_flush', action: 'indices:admin/flush', handler: flush },
    { method: 'POST', path: '/:index/_flush', action: 'indices:admin/flush', handler: flush },
    { method: 'GET', path: '/:index/_flush', action: 'indices:admin/flush', handler: flush },
    { method: 'POST', path: '/_forcemerge', action: 'indices:admin/forcemerge', handler: forceMerge },
    { method: 'POST', path: '/:index/_forcemerge', action: 'indices:admin/forcemerge', handler: forceMerge },
  ];
}
