/**
 * Executes document writes: resolves each item's target (index, alias write index, or an index
 * auto-created on first write), routes it to its shard, packs each shard's slice of the bytes
 * into one transferred buffer, and applies it on the shard's worker. A batch that introduces
 * new fields comes back as `needs_mapping`: the mapping update is merged into the index
 * metadata (and pushed to every shard) first, then the batch is sent again, so no document is
 * ever indexed under a mapping the cluster has not accepted.
 */
import type { ShardWriteOutcome, ShardWriteResult } from '@shoal/engine';
import {
  documentParsing,
  getInt,
  getString,
  illegalArgument,
  isShoalError,
  parseActiveShardCount,
  parseJson,
  ShoalError,
  unavailableShards,
  type WireError,
} from '@shoal/protocol';
import type { PackedWriteOp } from '@shoal/shard';
import { primaryOnly, type ShardInfo } from '../replication/shard-info.ts';
import type { NodeServices } from '../services.ts';
import type { ShardCopy } from '../shards/shard-table.ts';
import { checkAutoCreate } from '../state/auto-create.ts';
import { TIMESTAMP_FIELD } from '../state/data-streams.ts';
import { docShard } from '../state/document-routing.ts';
import { indexBlockError } from '../state/index-blocks.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { autoId } from './auto-id.ts';
import { aliasIndexRouting } from './index-routing.ts';
import type { WriteItem, WriteItemResult, WriteWaits } from './write-item.ts';

const MAX_MAPPING_ROUNDS = 5;

export type RefreshPolicy = 'false' | 'true' | 'wait_for';

export function refreshPolicy(param: string | undefined): RefreshPolicy {
  if (param === undefined || param === 'false') return 'false';
  if (param === '' || param === 'true') return 'true';
  if (param === 'wait_for') return 'wait_for';
  throw new ShoalError('illegal_argument_exception', `Unknown value for refresh: [${param}].`, 400);
}

/** Finds (or auto-creates) the concrete index a write to `target` goes to. */
async function writeIndexFor(
  services: NodeServices,
  target: string,
  requireAlias: boolean,
): Promise<IndexMetadata> {
  const { indices } = services;
  const direct = indices.get(target);
  if (direct && !requireAlias) return direct;
  const aliased = indices.aliasTargets(target);
  if (aliased.length > 0) {
    const writeIndex =
      aliased.find((m) => m.aliases.get(target)?.isWriteIndex === true) ??
      (aliased.length === 1 && aliased[0]!.aliases.get(target)?.isWriteIndex !== false
        ? aliased[0]
        : undefined);
    if (!writeIndex) {
      throw new ShoalError(
        'illegal_argument_exception',
        `no write index is defined for alias [${target}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
        400,
      );
    }
    return writeIndex;
  }
  if (requireAlias) {
    throw new ShoalError(
      'index_not_found_exception',
      `no such index [${target}] and [require_alias] request flag is [true] and [${target}] is not an alias`,
      404,
      {
        'resource.type': 'index_expression',
        'resource.id': target,
        index_uuid: '_na_',
        index: target,
      },
    );
  }
  checkAutoCreate(getString(services.clusterSettings.effective(), 'action.auto_create_index'), target);
  // A name a data stream template matches: the first write creates the stream.
  if (indices.templates.findComposable(target)?.[1].dataStream) {
    try {
      const stream = await indices.dataStreams.create(target);
      return indices.dataStreams.writeIndex(stream)!;
    } catch (e) {
      const raced = indices.dataStreams.get(target);
      if (isShoalError(e) && e.type === 'resource_already_exists_exception' && raced) {
        return indices.dataStreams.writeIndex(raced)!;
      }
      throw e;
    }
  }
  try {
    return await indices.create(target, undefined, [], true);
  } catch (e) {
    // Another request created it first.
    if (isShoalError(e) && e.type === 'resource_already_exists_exception') return indices.get(target)!;
    throw e;
  }
}

/**
 * A write to a data stream appends a document: `create` (or `index` without an id) only, with its `@timestamp`
 * (Elasticsearch's data stream rules; updates and deletes go to the backing index).
 */
function checkDataStreamWrite(item: WriteItem): void {
  // An index request without an id is a create (its id is generated), as in Elasticsearch.
  const creates = item.action === 'create' || (item.action === 'index' && item.id === undefined);
  if (!creates) throw illegalArgument('only write ops with an op_type of create are allowed in data streams');
  let doc: unknown;
  try {
    doc = item.body ? parseJson(item.body) : undefined;
  } catch {
    // The shard reports a body that does not parse, as for any index.
    return;
  }
  const ts = (doc as Record<string, unknown> | undefined)?.[TIMESTAMP_FIELD];
  if (ts === undefined || ts === null) {
    throw documentParsing(`failed to parse: data stream timestamp field [${TIMESTAMP_FIELD}] is missing`);
  }
}

/**
 * Before an item is routed: the index's write blocks, then its ingest pipelines. Shoal has no
 * ingest pipelines, so an index whose `index.default_pipeline` or `index.final_pipeline` names
 * one fails its documents as Elasticsearch fails a missing pipeline, rather than indexing them
 * untransformed.
 */
function checkWriteAllowed(meta: IndexMetadata, item: WriteItem): void {
  const blocked = indexBlockError(meta, 'write');
  if (blocked) throw blocked;
  // Deletes run no pipeline; nor does an update's partial document.
  if (item.action === 'delete' || item.action === 'update') return;
  for (const key of ['index.default_pipeline', 'index.final_pipeline']) {
    const pipeline = meta.settings[key];
    if (typeof pipeline === 'string' && pipeline !== '_none' && pipeline !== '') {
      throw illegalArgument(`pipeline with id [${pipeline}] does not exist`);
    }
  }
}

interface Routed {
  pos: number;
  item: WriteItem;
  meta: IndexMetadata;
  copy: ShardCopy;
}

function pack(group: Routed[]): { ops: PackedWriteOp[]; bytes: ArrayBuffer } {
  let size = 0;
  for (const r of group) size += (r.item.body?.length ?? 0) + (r.item.upsert?.length ?? 0);
  const bytes = new ArrayBuffer(size);
  const view = new Uint8Array(bytes);
  let off = 0;
  const put = (b: Uint8Array | undefined): [number, number] | undefined => {
    if (!b) return undefined;
    view.set(b, off);
    const range: [number, number] = [off, off + b.length];
    off += b.length;
    return range;
  };
  const ops = group.map(
    ({ item }): PackedWriteOp => ({
      op: item.action === 'create' ? 'index' : item.action,
      id: item.id!,
      routing: item.routing,
      create: item.action === 'create',
      ifSeqNo: item.ifSeqNo,
      ifPrimaryTerm: item.ifPrimaryTerm,
      version: item.version,
      versionType: item.versionType,
      body: put(item.body),
      upsert: put(item.upsert),
      docAsUpsert: item.docAsUpsert,
      detectNoop: item.detectNoop,
      returnSource: item.returnSource,
      dynamicTemplates: item.dynamicTemplates,
      script: item.script,
      scriptedUpsert: item.scriptedUpsert,
    }),
  );
  return { ops, bytes };
}

function shardUnavailable(copy: ShardCopy): WireError {
  return {
    type: 'unavailable_shards_exception',
    reason: `[${copy.index}][${copy.shardId}] primary shard is not active: ${copy.reason ?? copy.state}`,
    status: 503,
  };
}

/** How long a write waits for its shard's primary to be active again (ES's default `timeout`, 1m). */
const PRIMARY_WAIT_MS = 60_000;

/**
 * A write could not reach its primary (its node left, or the copy moved): once the cluster state
 * changes (a replica promoted, the copy started elsewhere) the batch is sent again, as
 * Elasticsearch's replication retries on a new cluster state.
 */
const retryOnNewState = (e: unknown): boolean =>
  isShoalError(e) &&
  (e.type === 'node_not_connected_exception' ||
    e.type === 'unavailable_shards_exception' ||
    e.type === 'no_shard_available_action_exception');

async function writeShard(
  services: NodeServices,
  group: Routed[],
  refresh: RefreshPolicy,
): Promise<{ results: (ShardWriteResult | WireError)[]; shards?: ShardInfo }> {
  const first = group[0]!;
  let meta = first.meta;
  const deadline = Date.now() + PRIMARY_WAIT_MS;
  for (let round = 0; round < MAX_MAPPING_ROUNDS; ) {
    let copy = services.shards.primary(meta.uuid, first.copy.shardId);
    if (copy?.state !== 'STARTED' || !copy.worker) {
      // In a cluster a primary may be opening, or waiting for its node: the write waits for it
      // (within the master timeout), as Elasticsearch's replication waits for an active primary.
      await services.indices.primariesActive(meta.name);
      copy = services.shards.primary(meta.uuid, first.copy.shardId);
    }
    if (copy?.state !== 'STARTED' || !copy.worker) {
      return { results: group.map(() => shardUnavailable(first.copy)) };
    }
    const { ops, bytes } = pack(group);
    const task = { t: 'write', key: copy.key, ops, bytes, refresh } as const;
    const replication = services.indices.replication;
    let outcome: ShardWriteOutcome;
    let shards: ShardInfo | undefined;
    if (replication) {
      const version = services.cluster.state().version;
      try {
        ({ outcome, shards } = await replication.write(copy, task));
      } catch (e) {
        const left = deadline - Date.now();
        if (!retryOnNewState(e) || left <= 0) throw e;
        await services.cluster.waitForState((s) => s.version > version, left);
        continue;
      }
    } else {
      outcome = await copy.worker.run(task, [bytes]);
    }
    if (outcome.kind === 'applied') return { results: outcome.results, shards };
    meta = await services.indices.mergeMapping(meta.name, outcome.update);
    round++;
  }
  throw new ShoalError('illegal_state_exception', 'mapping updates did not converge for a write batch', 500);
}

/**
 * `wait_for_active_shards`: resolves once as many copies of the group's shard are active as
 * asked (all: every copy the index has), or fails the group with Elasticsearch's
 * unavailable_shards_exception when the timeout passes first.
 */
async function activeCopies(services: NodeServices, first: Routed, waits: WriteWaits): Promise<void> {
  const { meta } = first;
  const shardId = first.copy.shardId;
  const copies = () => {
    const all = services.shards.copies(meta.uuid).filter((c) => c.shardId === shardId);
    return { total: all.length, active: all.filter((c) => c.state === 'STARTED').length };
  };
  const needed = () => (waits.activeShards === 'all' ? copies().total : (waits.activeShards as number));
  const enough = () => copies().active >= needed();
  // The shard table follows the applied cluster state; it is looked at again until the timeout.
  const deadline = Date.now() + waits.timeoutMs;
  while (!enough()) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((r) => setTimeout(r, Math.min(100, left)));
  }
  if (enough()) return;
  const spec = waits.activeShards === 'all' ? 'ALL' : String(waits.activeShards);
  throw unavailableShards(
    meta.name,
    meta.uuid,
    shardId,
    `Not enough active copies to meet shard count of [${spec}] (have ${copies().active}, needed ${needed()}). Timeout: [${waits.timeout}]`,
  );
}

/** The request's `wait_for_active_shards`, else the index's `index.write.wait_for_active_shards` (1: none). */
function waitsFor(meta: IndexMetadata, waits: WriteWaits | undefined): WriteWaits | undefined {
  if (waits?.activeShards !== undefined) return waits;
  const setting = meta.settings['index.write.wait_for_active_shards'];
  if (typeof setting !== 'string' || setting === '1') return undefined;
  const activeShards = parseActiveShardCount(setting);
  if (activeShards === undefined || activeShards === 1) return undefined;
  return { timeoutMs: waits?.timeoutMs ?? 60_000, timeout: waits?.timeout ?? '1m', activeShards };
}

/** Runs the items; results come back in item order, failures as per-item errors. */
export async function executeWrites(
  services: NodeServices,
  items: WriteItem[],
  refresh: RefreshPolicy,
  waits?: WriteWaits,
): Promise<WriteItemResult[]> {
  const results: WriteItemResult[] = new Array(items.length);
  const targets = new Map<string, Promise<IndexMetadata>>();
  const groups = new Map<string, Routed[]>();

  await Promise.all(
    items.map(async (item, pos) => {
      try {
        const key = `${item.requireAlias ? '1' : '0'}${item.target}`;
        let metaP = targets.get(key);
        if (!metaP) {
          metaP = writeIndexFor(services, item.target, item.requireAlias === true);
          targets.set(key, metaP);
        }
        const meta = await metaP;
        checkWriteAllowed(meta, item);
        if (meta.aliases.get(item.target)?.dataStream) checkDataStreamWrite(item);
        // Through an alias: its index_routing routes the document.
        if (meta.name !== item.target) {
          item.routing = aliasIndexRouting(item.routing, item.target, meta.aliases.get(item.target));
        }
        // IndexRequest.process: an id that is given must not be empty (none means an automatic one).
        if (item.id === '' && (item.action === 'index' || item.action === 'create')) {
          throw new ShoalError('illegal_argument_exception', 'if _id is specified it must not be empty', 400);
        }
        if (item.id === undefined) {
          if (item.action !== 'index' && item.action !== 'create') {
            throw new ShoalError(
              'action_request_validation_exception',
              'Validation Failed: 1: id is missing;',
              400,
            );
          }
          item.id = autoId();
        }
        if (item.failure) {
          const wire = item.failure.toWire();
          results[pos] = { index: meta.name, id: item.id, status: wire.status, error: wire };
          return;
        }
        const shardId = docShard(meta, item.id, item.routing);
        const copy = services.shards.primary(meta.uuid, shardId)!;
        const gkey = copy.key;
        const group = groups.get(gkey) ?? [];
        group.push({ pos, item, meta, copy });
        groups.set(gkey, group);
      } catch (e) {
        results[pos] = failure(item, e);
      }
    }),
  );

  await Promise.all(
    [...groups.values()].map(async (group) => {
      let shardResults: (ShardWriteResult | WireError)[];
      let shards: ShardInfo | undefined;
      try {
        const wait = waitsFor(group[0]!.meta, waits);
        if (wait) await activeCopies(services, group[0]!, wait);
        ({ results: shardResults, shards } = await writeShard(services, group, refresh));
      } catch (e) {
        const wire = isShoalError(e) ? e.toWire() : { type: 'exception', reason: String(e), status: 500 };
        shardResults = group.map(() => wire);
      }
      group.forEach((r, i) => {
        const res = shardResults[i]!;
        // One node alone: its replicas are never assigned, yet count in `total`.
        shards ??= primaryOnly(1 + getInt(r.meta.settings, 'index.number_of_replicas'));
        if ('type' in res) {
          results[r.pos] = { index: r.meta.name, id: r.item.id!, status: res.status, error: res };
        } else if (res.error) {
          results[r.pos] = { index: r.meta.name, id: res.id, status: res.status, error: res.error };
        } else {
          results[r.pos] = {
            index: r.meta.name,
            id: res.id,
            status: res.status,
            result: res.result,
            version: res.version,
            seqNo: res.seqNo,
            primaryTerm: res.primaryTerm,
            shards,
            source: res.source,
          };
        }
      });
    }),
  );
  services.counters.indexTotal += items.length;
  return results;
}

function failure(item: WriteItem, e: unknown): WriteItemResult {
  const wire: WireError = isShoalError(e)
    ? e.toWire()
    : { type: 'exception', reason: String(e), status: 500 };
  return { index: item.target, id: item.id ?? '', status: wire.status, error: wire };
}
