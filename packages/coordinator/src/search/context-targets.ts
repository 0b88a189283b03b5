/**
 * The shards a PIT or scroll id names, as search targets: each with the worker that holds its
 * context. A shard whose index has been deleted, or whose node is not this one, cannot be
 * read; it fails with search_context_missing_exception saying why.
 */
import { type ShoalError, searchContextMissing } from '@shoal/protocol';
import type { ContextRef } from '@shoal/shard';
import type { ShardContextEntry } from '../contexts/context-id.ts';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { ShardFailure } from './shard-failure.ts';
import type { ShardTarget } from './shard-targets.ts';

export function metaByUuid(s: NodeServices, uuid: string): IndexMetadata | undefined {
  for (const meta of s.indices.all().values()) if (meta.uuid === uuid) return meta;
  return undefined;
}

/** A context that lives nowhere this node can reach (its index is gone, or its node). */
export function unreachableContext(entry: ShardContextEntry, why: string): ShoalError {
  return searchContextMissing(entry.context.id, why);
}

/**
 * The id's shards as targets, in the id's order (a shard's position is its shard index);
 * `knownShard` false reports failures as scroll continuations do (shard -1, index null).
 */
export function contextTargets(
  s: NodeServices,
  entries: readonly ShardContextEntry[],
  knownShard: boolean,
): { targets: ShardTarget[]; failures: ShardFailure[] } {
  const targets: ShardTarget[] = [];
  const failures: ShardFailure[] = [];
  entries.forEach((e, shardIndex) => {
    const meta = metaByUuid(s, e.uuid);
    if (meta) {
      targets.push({ shardIndex, meta, shardId: e.shardId, copy: s.shards.primary(e.uuid, e.shardId) });
      return;
    }
    const error = unreachableContext(e, `the context was freed when index [${e.index}] was deleted`);
    failures.push({
      shard: knownShard ? e.shardId : -1,
      index: knownShard ? e.index : null,
      node: s.node.id,
      error,
    });
  });
  return { targets, failures };
}

/** The worker holding a context, or the error saying why it cannot be reached. */
export function contextWorker(s: NodeServices, e: ShardContextEntry) {
  const worker = e.node === s.node.id ? s.workers[e.worker] : undefined;
  if (!worker) throw unreachableContext(e, `node [${e.node}] that held the context is not in the cluster`);
  return { worker, key: `${e.uuid}/${e.shardId}`, context: e.context as ContextRef };
}
