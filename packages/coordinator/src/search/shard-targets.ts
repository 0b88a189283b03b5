/**
 * The shards a search reads, in Elasticsearch's request order: by shard number, then index
 * name (ShardId ordering). A shard's position in this list is its shard index — the high half
 * of `_shard_doc` and the tiebreaker of the merge.
 */

import type { FieldVisibility, QueryNode } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import { searchRoutingShards } from '../state/document-routing.ts';
import { checkBlocks } from '../state/index-blocks.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { IndicesOptions, ReachedNames } from '../state/resolve-indices.ts';
import { aliasFilterFor } from './alias-filters.ts';
import { type CopySelector, chooseCopy } from './copy-selection.ts';
import { preferredShards } from './preference.ts';
import { searchRouting, splitRouting } from './search-routing.ts';

export interface ShardTarget {
  shardIndex: number;
  meta: IndexMetadata;
  shardId: number;
  copy: ShardCopy | undefined;
  /** The index was reached only through filtering aliases: the OR of their filters. */
  aliasFilter?: QueryNode;
  /** The only documents the user may read here (document-level security, read-restrictions.ts). */
  documentFilter?: QueryNode;
  /** The only fields the user may read here (field-level security). */
  fieldVisibility?: FieldVisibility;
}

export function shardTargets(s: NodeServices, indices: IndexMetadata[]): ShardTarget[] {
  if (indices.length === 1) {
    // One index: its shards in shard order are already in request order.
    const meta = indices[0]!;
    const out: ShardTarget[] = new Array(meta.numberOfShards);
    for (let shardId = 0; shardId < meta.numberOfShards; shardId++) {
      out[shardId] = { shardIndex: shardId, meta, shardId, copy: s.shards.primary(meta.uuid, shardId) };
    }
    return out;
  }
  const pairs: { meta: IndexMetadata; shardId: number }[] = [];
  for (const meta of indices)
    for (let shardId = 0; shardId < meta.numberOfShards; shardId++) pairs.push({ meta, shardId });
  pairs.sort(
    (a, b) => a.shardId - b.shardId || (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0),
  );
  return pairs.map((p, shardIndex) => ({
    shardIndex,
    meta: p.meta,
    shardId: p.shardId,
    copy: s.shards.primary(p.meta.uuid, p.shardId),
  }));
}

/**
 * The targets a `routing` URL parameter keeps (OperationRouting.searchShards): for each index,
 * only the shards its comma-separated routing values hash to, as a document indexed with that
 * routing is placed. The shard indices are renumbered over what is left, so `_shards.total` and
 * the `_shard_doc` shard index count only the routed shards.
 */
export function routedShardTargets(
  s: NodeServices,
  indices: IndexMetadata[],
  routing: string | undefined,
): ShardTarget[] {
  const targets = shardTargets(s, indices);
  if (routing === undefined) return targets;
  const values = splitRouting(routing);
  return keepRouted(targets, new Map(indices.map((meta) => [meta, values])));
}

/** The targets on the shards each index's routing values hash to; an index without any keeps all. */
function keepRouted(
  targets: ShardTarget[],
  routing: ReadonlyMap<IndexMetadata, Iterable<string>>,
): ShardTarget[] {
  const routed = new Map<IndexMetadata, Set<number>>();
  for (const [meta, values] of routing) {
    const shards = new Set<number>();
    for (const r of values) for (const shard of searchRoutingShards(meta, r)) shards.add(shard);
    routed.set(meta, shards);
  }
  const out: ShardTarget[] = [];
  for (const t of targets) {
    const shards = routed.get(t.meta);
    if (!shards || shards.has(t.shardId)) out.push({ ...t, shardIndex: out.length });
  }
  return out;
}

/**
 * The shards a read of `expression` (search, count, scroll, PIT) goes to: routed by `?routing=`,
 * and, when the expression went through aliases, by their search routing, each shard with the
 * filter of the aliases its index was reached through; then kept to the shard numbers a
 * `preference` of `_shards:…` names.
 */
export function searchShardTargets(
  s: NodeServices,
  expression: string | undefined,
  opts: IndicesOptions,
  params: { routing?: string; preference?: string },
): ShardTarget[] {
  const targets = routedTargets(s, expression, opts, params.routing);
  const shards = preferredShards(params.preference);
  const out: ShardTarget[] = [];
  if (shards === undefined) out.push(...targets);
  else for (const t of targets) if (shards.has(t.shardId)) out.push({ ...t, shardIndex: out.length });
  chooseCopies(s, out, params.preference);
  return out;
}

let turns = 0;

/**
 * In a cluster of several nodes, each target reads the copy its preference chooses among the
 * started ones (copy-selection.ts); on a node alone, its primary.
 */
function chooseCopies(s: NodeServices, targets: ShardTarget[], preference: string | undefined): void {
  let sel: CopySelector | undefined;
  for (const t of targets) {
    const copies = s.shards.shardCopies(t.meta.uuid, t.shardId);
    if (!copies || copies.length < 2) continue;
    sel ??= {
      localId: s.cluster.local.id,
      nodeIdOf: (name) => Object.values(s.cluster.state().nodes).find((n) => n.name === name)?.id,
      turn: () => {
        turns = (turns + 1) & 0x3fffffff;
        return turns;
      },
    };
    const chosen = chooseCopy(copies, preference, sel);
    // None started: the primary is named in the shard's failure, as before.
    if (chosen || copies.some((c) => c.state === 'STARTED')) t.copy = chosen;
  }
}

function routedTargets(
  s: NodeServices,
  expression: string | undefined,
  opts: IndicesOptions,
  routing: string | undefined,
): ShardTarget[] {
  const reached: ReachedNames = {};
  let indices = s.indices.resolve(expression, opts, reached);
  // ignore_unavailable: a closed index is left out rather than refused.
  if (opts.ignoreUnavailable) indices = indices.filter((m) => m.state === 'open');
  checkBlocks(indices, 'read');
  if (!reached.aliases) return routedShardTargets(s, indices, routing);
  const targets = keepRouted(shardTargets(s, indices), searchRouting(indices, reached, routing));
  const filters = new Map<IndexMetadata, QueryNode | undefined>();
  for (const meta of indices) filters.set(meta, aliasFilterFor(meta, reached));
  for (const t of targets) {
    const filter = filters.get(t.meta);
    if (filter) t.aliasFilter = filter;
  }
  return targets;
}
