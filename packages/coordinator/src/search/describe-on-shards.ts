/**
 * The Lucene form of a query as shards build it on their readers (`_validate/query` with
 * `rewrite` or `all_shards`): shard 0's primary, or every shard's, of one index.
 */
import { ShoalError } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import { queryLimits } from './shard-request.ts';
import type { DescribeOnShards } from './validate-query.ts';

export function describeOnShards(s: NodeServices): DescribeOnShards {
  return async (meta, query, allShards) => {
    const ids = allShards ? [...Array(meta.numberOfShards).keys()] : [0];
    const limits = queryLimits(meta);
    return Promise.all(
      ids.map(async (shard) => {
        const copy = s.shards.primary(meta.uuid, shard);
        if (copy?.state !== 'STARTED' || !copy.worker) {
          throw new ShoalError(
            'no_shard_available_action_exception',
            `No shard available for [validate_query [${meta.name}][${shard}]]`,
            503,
          );
        }
        const r = await copy.worker.run({
          t: 'describe',
          key: copy.key,
          query,
          ...(limits ? { limits } : {}),
        });
        return { shard, explanation: r.explanation };
      }),
    );
  };
}
