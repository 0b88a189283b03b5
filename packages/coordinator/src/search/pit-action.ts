/**
 * Opening and closing points in time (paging.md §4.1, §4.4), for both APIs that clients
 * speak: Elasticsearch's `_pit` and OpenSearch's `_search/point_in_time`. Opening pins the
 * current reader of every target shard in a context and registers the lease; closing frees
 * the contexts an id names.
 */
import {
  actionRequestValidation,
  illegalArgument,
  parseBooleanParam,
  parseTimeValue,
  searchPhaseExecution,
} from '@shoal/protocol';
import { decodePitId, encodeContextId, type ShardContextEntry } from '../contexts/context-id.ts';
import type { Lease } from '../contexts/lease-registry.ts';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { metaByUuid } from './context-targets.ts';
import { keepAliveTooLarge, reapIntervalMs } from './keep-alive.ts';
import { contextCopy } from './query-phase.ts';
import { asShoalError, type ShardFailure } from './shard-failure.ts';
import { searchShardTargets } from './shard-targets.ts';

const OPEN_PHASE = 'indices:data/read/open_point_in_time';

export interface OpenedPit {
  lease: Lease;
  shards: { total: number; successful: number; skipped: number; failed: number };
}

export async function openPit(req: RestRequest, s: NodeServices): Promise<OpenedPit> {
  const errors: string[] = [];
  if (req.params.index === undefined) errors.push('[index] is not specified');
  const keepAliveText = req.query.keep_alive;
  if (keepAliveText === undefined) errors.push('[keep_alive] is not specified');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const keepAliveMs = parseTimeValue(keepAliveText!, 'keep_alive');
  const allowPartial =
    req.query.allow_partial_search_results !== undefined &&
    parseBooleanParam(req.query.allow_partial_search_results, 'allow_partial_search_results');
  const targets = searchShardTargets(
    s,
    req.params.index,
    indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS),
    req.query,
  );
  const tooLarge = keepAliveTooLarge(s, keepAliveMs);
  if (tooLarge) {
    throw searchPhaseExecution(
      OPEN_PHASE,
      targets.map((t) => ({ shard: t.shardId, index: t.meta.name, node: s.node.id, reason: tooLarge })),
    );
  }
  const opened: (ShardContextEntry | undefined)[] = new Array(targets.length);
  const failures: ShardFailure[] = [];
  await Promise.all(
    targets.map(async (t) => {
      try {
        const { worker, key } = contextCopy(t);
        const r = await worker.run({
          t: 'open_pit',
          key,
          keepAliveMs,
          reapIntervalMs: reapIntervalMs(s),
          // Elasticsearch records the alias filter with the PIT when it is opened: every search
          // on the PIT reads through it, whatever happens to the alias afterwards.
          ...(t.aliasFilter ? { aliasFilter: t.aliasFilter } : {}),
        });
        opened[t.shardIndex] = {
          node: s.node.id,
          index: t.meta.name,
          uuid: t.meta.uuid,
          shardId: t.shardId,
          worker: worker.id,
          context: r.context,
        };
      } catch (e) {
        failures.push({ shard: t.shardId, index: t.meta.name, node: s.node.id, error: asShoalError(e) });
      }
    }),
  );
  const entries = opened.filter((e): e is ShardContextEntry => e !== undefined);
  if (failures.length > 0 && (!allowPartial || entries.length === 0)) {
    await s.leases.free(entries, 'closed');
    throw searchPhaseExecution(
      OPEN_PHASE,
      failures.map((f) => ({ shard: f.shard, index: f.index, node: f.node, reason: f.error })),
      failures.length === targets.length ? 'all shards failed' : 'Search rejected due to missing shards',
    );
  }
  const id = s.leases.newLeaseId();
  const encoded = encodeContextId({ kind: 'pit', lease: id, shards: entries });
  const lease = s.leases.add({ id, kind: 'pit', encoded, shards: entries, keepAliveMs });
  return {
    lease,
    shards: { total: targets.length, successful: entries.length, skipped: 0, failed: failures.length },
  };
}

/** Frees the contexts a PIT id names; how many were freed (0 when they were already gone). */
export async function closePit(s: NodeServices, idText: string): Promise<number> {
  const pit = decodePitId(idText);
  s.leases.remove(pit.lease);
  return s.leases.free(pit.shards, 'closed');
}

/** The open PITs of this node, without those whose indices have all been deleted since. */
export function listPits(s: NodeServices): Lease[] {
  const pits = s.leases.list('pit');
  for (const p of pits) {
    if (p.shards.every((e) => !metaByUuid(s, e.uuid))) s.leases.remove(p.id);
  }
  return s.leases.list('pit');
}

/** The ids of a body field that holds one id or a list of them (OpenSearch's `pit_id`). */
export function idList(value: unknown, field: string): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw illegalArgument(`[${field}] must be a string or an array of strings`);
}
