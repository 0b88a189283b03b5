/** URL-parameter readers with Elasticsearch's errors. */
import {
  checkIfPrimaryTerm,
  checkIfSeqNo,
  illegalArgument,
  parseActiveShardCount,
  parseBooleanParam,
  parseLongParam,
  parseTimeValue,
  type VersionType,
} from '@shoal/protocol';
import type { WriteWaits } from '../write/write-item.ts';

export function boolParam(query: Record<string, string>, name: string, dflt: boolean): boolean {
  const v = query[name];
  return v === undefined ? dflt : parseBooleanParam(v, name);
}

export function intParam(query: Record<string, string>, name: string): number | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse int parameter [${name}] with value [${v}]`);
  }
  return n;
}

/** RestRequest.paramAsLong: versions and sequence numbers are Java longs. */
export function longParam(query: Record<string, string>, name: string): number | undefined {
  const v = parseLongParam(query[name], name);
  return v === undefined ? undefined : Number(v);
}

export function versionTypeParam(query: Record<string, string>): VersionType | undefined {
  const v = query.version_type;
  if (v === undefined) return undefined;
  if (v === 'internal' || v === 'external' || v === 'external_gte') return v;
  throw illegalArgument(`No version type match [${v}]`);
}

/** `if_seq_no` and `if_primary_term`, checked as the request setters check them. */
export function casParams(query: Record<string, string>): { ifSeqNo?: number; ifPrimaryTerm?: number } {
  return {
    ifSeqNo: checkIfSeqNo(longParam(query, 'if_seq_no')),
    ifPrimaryTerm: checkIfPrimaryTerm(longParam(query, 'if_primary_term')),
  };
}

/**
 * `timeout` and `wait_for_active_shards` of the write APIs (index, create, update, delete,
 * bulk), with Elasticsearch's errors: how many copies of a shard must be active before a write
 * goes to its primary, and how long to wait for them (default 1m).
 */
export function checkWriteParams(query: Record<string, string>): WriteWaits {
  const timeoutMs = query.timeout === undefined ? 60_000 : parseTimeValue(query.timeout, 'timeout');
  const activeShards = parseActiveShardCount(query.wait_for_active_shards);
  return {
    timeoutMs,
    timeout: query.timeout ?? '1m',
    ...(activeShards === undefined ? {} : { activeShards }),
  };
}

/**
 * `level` of `_cluster/health` (Elasticsearch's ClusterStatsLevel.of): `cluster`, `indices` or
 * `shards` in any case; anything else is 400 illegal_argument_exception.
 */
export function statsLevelParam(
  query: Record<string, string>,
  dflt: 'cluster' | 'indices' | 'shards',
): 'cluster' | 'indices' | 'shards' {
  const v = query.level;
  if (v === undefined) return dflt;
  const lower = v.toLowerCase();
  if (lower === 'cluster' || lower === 'indices' || lower === 'shards') return lower;
  throw illegalArgument(`level parameter must be one of [cluster] or [indices] or [shards] but was [${v}]`);
}
