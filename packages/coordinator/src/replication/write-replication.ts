/**
 * Write replication after Elasticsearch's data replication model (TransportReplicationAction):
 * the node that was asked sends a shard's write batch to the node that holds its primary; that
 * node applies it on the primary, sends what the primary did (each operation with its seq_no,
 * version and primary term) to every copy of the shard's replication group, and answers once
 * each of them has applied it or has been failed by the master (shard-failed), so that a copy
 * that missed an acknowledged write is never left in sync.
 *
 * The replication group: the started replicas of the routing table, and the replicas recovering
 * from this primary (peer-recovery.ts registers each before it reads the primary's documents,
 * so every write the recovery's copy misses reaches the replica here).
 */
import { deserialize, serialize } from 'node:v8';
import type { ClusterService } from '@shoal/cluster';
import type { ShardWriteOutcome } from '@shoal/engine';
import {
  noShardAvailable,
  ShoalError,
  toShoalError,
  unavailableShards,
  type WireError,
} from '@shoal/protocol';
import type { ShardKey, WriteTask } from '@shoal/shard';
import type { Logger } from 'pino';
import type { ShardCopy, ShardTable } from '../shards/shard-table.ts';
import { primaryOnly, type ShardInfo } from './shard-info.ts';

export const PRIMARY_WRITE_ACTION = 'indices:data/write/bulk[s][p]';

/** How long a write on another node's primary may take before the node that was asked gives up. */
const PRIMARY_WRITE_TIMEOUT_MS = 120_000;

/** One shard's write batch, sent to its primary. */
export interface PrimaryWrite {
  index: string;
  indexUuid: string;
  shardId: number;
  task: WriteTask;
}

export interface PrimaryWriteResult {
  outcome: ShardWriteOutcome;
  shards: ShardInfo;
}

type Answer = { ok: PrimaryWriteResult } | { error: WireError };

export class WriteReplication {
  /** Replicas recovering from a primary held here: by the primary's key, by allocation id. */
  private readonly recovering = new Map<ShardKey, Map<string, ShardCopy>>();

  constructor(
    private readonly cluster: ClusterService,
    private readonly table: ShardTable,
    private readonly logger: Logger,
  ) {
    cluster.handle(PRIMARY_WRITE_ACTION, async (_from, body) => {
      let answer: Answer;
      try {
        answer = { ok: await this.onPrimary(deserialize(body as Uint8Array) as PrimaryWrite) };
      } catch (e) {
        answer = { error: toShoalError(e).toWire() };
      }
      return serialize(answer);
    });
  }

  /** Runs a write batch on the shard's primary `copy` (here or on its node), then on its replicas. */
  async write(copy: ShardCopy, task: WriteTask): Promise<PrimaryWriteResult> {
    const w: PrimaryWrite = { index: copy.index, indexUuid: copy.indexUuid, shardId: copy.shardId, task };
    if (!copy.remote) return this.onPrimary(w);
    const node = copy.node === undefined ? undefined : this.cluster.state().nodes[copy.node];
    if (!node) throw noShardAvailable(`[${copy.index}][${copy.shardId}] the node of the primary has left`);
    const bytes = await this.cluster
      .request<Uint8Array>(node, PRIMARY_WRITE_ACTION, serialize(w), PRIMARY_WRITE_TIMEOUT_MS)
      .catch((e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        throw new ShoalError('node_not_connected_exception', `[${node.name}] ${why}`, 500);
      });
    const a = deserialize(bytes) as Answer;
    if ('error' in a) throw ShoalError.fromWire(a.error);
    return a.ok;
  }

  /** A replica recovering from the primary `primaryKey` holds: from now on it gets every write. */
  register(primaryKey: ShardKey, target: ShardCopy): void {
    let m = this.recovering.get(primaryKey);
    if (!m) {
      m = new Map();
      this.recovering.set(primaryKey, m);
    }
    m.set(target.allocationId!, target);
  }

  unregister(primaryKey: ShardKey, allocationId: string): void {
    const m = this.recovering.get(primaryKey);
    m?.delete(allocationId);
    if (m?.size === 0) this.recovering.delete(primaryKey);
  }

  /** On the primary's node: applies the batch on the primary, then replicates what it did. */
  private async onPrimary(w: PrimaryWrite): Promise<PrimaryWriteResult> {
    const primary = this.table.primary(w.indexUuid, w.shardId);
    if (!primary || primary.remote || primary.state !== 'STARTED' || !primary.worker) {
      throw unavailableShards(w.index, w.indexUuid, w.shardId, 'primary shard is not active');
    }
    const copies = this.shardCopies(primary);
    // Asked before the batch is applied: a replica registered after this point recovers from a
    // read of the primary that the worker runs after this batch, so it finds the batch there.
    const replicate =
      copies.some((c) => !c.primary && c.node !== undefined) || this.recovering.has(primary.key);
    const task: WriteTask = { ...w.task, key: primary.key, replicate };
    const outcome = await primary.worker.run(task, [task.bytes]);
    if (outcome.kind !== 'applied') return { outcome, shards: primaryOnly(copies.length) };
    const { replication, ...applied } = outcome;
    const shards = await this.replicate(primary, copies.length, replication, w.task.refresh);
    return { outcome: applied, shards };
  }

  private shardCopies(primary: ShardCopy): ShardCopy[] {
    return this.table.copies(primary.indexUuid).filter((c) => c.shardId === primary.shardId);
  }

  /** The copies a write on `primary` goes to now (besides the primary). */
  targets(primary: ShardCopy): ShardCopy[] {
    const out = new Map<string, ShardCopy>();
    const copies = this.shardCopies(primary);
    for (const c of copies) {
      if (!c.primary && c.state === 'STARTED' && c.allocationId && c.worker) out.set(c.allocationId, c);
    }
    const recovering = this.recovering.get(primary.key);
    for (const [id, c] of recovering ?? []) {
      // Started in the routing table this node applied: the table has it from now on.
      if (out.has(id)) this.unregister(primary.key, id);
      else out.set(id, c);
    }
    return [...out.values()];
  }

  /**
   * Sends the primary's operations to each copy of the replication group; a copy that fails to
   * apply them is failed by the master before this resolves (its failure is in the answer).
   */
  private async replicate(
    primary: ShardCopy,
    total: number,
    bytes: Uint8Array | undefined,
    refresh: WriteTask['refresh'],
  ): Promise<ShardInfo> {
    const targets = this.targets(primary);
    const info: ShardInfo = { total: Math.max(total, 1 + targets.length), successful: 1, failures: [] };
    // No operations: the batch did nothing (every item failed), or it was applied before any
    // replica could need it (then the replicas' recovery read it from the primary).
    if (!bytes) {
      info.successful += targets.length;
      return info;
    }
    await Promise.all(
      targets.map(async (t) => {
        try {
          await t.worker!.run({
            t: 'replica_write',
            key: t.key,
            bytes,
            primaryTerm: primary.primaryTerm ?? 1,
            refresh,
          });
          info.successful++;
        } catch (e) {
          const reason = toShoalError(e).toWire();
          info.failures.push({ index: primary.index, shard: primary.shardId, node: t.node ?? '', reason });
          await this.failReplica(primary, t, reason);
        }
      }),
    );
    return info;
  }

  /**
   * Elasticsearch's shard-failed task for a replica that missed a write: the master takes it out
   * of the routing table (and the in-sync set) before the write is acknowledged. When the
   * master cannot be told, the write fails: it must not be acknowledged on a diverged copy.
   */
  private async failReplica(primary: ShardCopy, target: ShardCopy, reason: WireError): Promise<void> {
    this.unregister(primary.key, target.allocationId!);
    const details = `failed to perform indices:data/write/bulk[s] on replica [${primary.index}][${primary.shardId}], node[${target.node}]: ${reason.type}: ${reason.reason}`;
    this.logger.warn(
      { index: primary.index, shard: primary.shardId, node: target.node, reason: reason.reason },
      'a replica failed to apply a write; failing it',
    );
    await this.cluster.execute({
      op: 'shard_failed',
      index: primary.index,
      shard: primary.shardId,
      allocationId: target.allocationId!,
      details,
      primaryTerm: primary.primaryTerm ?? 1,
    });
  }
}
