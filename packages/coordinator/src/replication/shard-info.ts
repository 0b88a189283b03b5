/**
 * What a write reports of its shard copies (Elasticsearch's ReplicationResponse.ShardInfo, the
 * `_shards` of a write response): `total` counts every copy the shard should have (unassigned
 * ones too), `successful` those that applied the write, and each replica that failed to apply
 * it is listed with why; such a replica has been failed by the master before the answer.
 */
import type { WireError } from '@shoal/protocol';

export interface ReplicaFailure {
  index: string;
  shard: number;
  /** The id of the node that held the failed copy. */
  node: string;
  reason: WireError;
}

export interface ShardInfo {
  total: number;
  successful: number;
  failures: ReplicaFailure[];
}

/** The `status` names Elasticsearch prints for the statuses a replica failure may carry. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** A write that reached the primary only (of `total` copies, the others unassigned or none). */
export const primaryOnly = (total: number): ShardInfo => ({ total, successful: 1, failures: [] });

/** `_shards` of a write response; a noop wrote to no copy (ES answers 0/0/0). */
export function shardInfoJson(info: ShardInfo | undefined, noop = false): Record<string, unknown> {
  if (noop) return { total: 0, successful: 0, failed: 0 };
  const i = info ?? primaryOnly(1);
  const out: Record<string, unknown> = {
    total: i.total,
    successful: i.successful,
    failed: i.failures.length,
  };
  if (i.failures.length > 0) {
    out.failures = i.failures.map((f) => ({
      _index: f.index,
      _shard: f.shard,
      _node: f.node,
      reason: { type: f.reason.type, reason: f.reason.reason },
      status: STATUS_NAMES[f.reason.status] ?? 'INTERNAL_SERVER_ERROR',
      primary: false,
    }));
  }
  return out;
}
