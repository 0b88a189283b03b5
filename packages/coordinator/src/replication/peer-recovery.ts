/**
 * Peer recovery of a replica from its primary (Elasticsearch's PeerRecoveryTargetService and
 * RecoverySourceHandler, operation-based): the replica's node opens an empty copy and asks the
 * primary's node to recover it; that node first adds the copy to the primary's replication
 * group (write-replication.ts), so every later write reaches it, then reads every live
 * document of the primary and sends them in batches, each operation with its seq_no, version
 * and term. The replica applies writes and recovery batches as they come, keeping the newest
 * operation of each document (ShardEngine.applyReplicated), so a write that overtakes the
 * batch holding an older version of its document is never undone. Once the last batch is in
 * and refreshed, the replica's node reports the copy started and the master counts it in sync.
 */
import type { ClusterService, DiscoveryNode } from '@shoal/cluster';
import { illegalState, ShoalError, toShoalError, unavailableShards, type WireError } from '@shoal/protocol';
import type { Logger } from 'pino';
import { RemoteShardWorker } from '../shards/remote-worker.ts';
import type { ShardCopy, ShardTable } from '../shards/shard-table.ts';
import type { WriteReplication } from './write-replication.ts';

export const START_RECOVERY_ACTION = 'internal:index/shard/recovery/start_recovery';

/** A recovery of a large shard sends its documents in batches; the whole may take a while. */
const RECOVERY_TIMEOUT_MS = 30 * 60_000;

export interface StartRecovery {
  index: string;
  indexUuid: string;
  shardId: number;
  /** The recovering copy's allocation id. */
  allocationId: string;
  /** The node that holds the recovering copy. */
  targetNode: string;
}

export interface RecoveryDone {
  /** Documents sent. */
  docs: number;
  batches: number;
  maxSeqNo: number;
}

type Answer = { ok: RecoveryDone } | { error: WireError };

export class PeerRecovery {
  constructor(
    private readonly cluster: ClusterService,
    private readonly table: ShardTable,
    private readonly replication: WriteReplication,
    private readonly logger: Logger,
  ) {
    cluster.handle(START_RECOVERY_ACTION, async (_from, body): Promise<Answer> => {
      try {
        return { ok: await this.recoverTarget(body as StartRecovery) };
      } catch (e) {
        return { error: toShoalError(e).toWire() };
      }
    });
  }

  /** On the replica's node: has the primary's node fill `copy` (open and empty here). */
  async recover(copy: ShardCopy, primaryNode: DiscoveryNode): Promise<RecoveryDone> {
    const req: StartRecovery = {
      index: copy.index,
      indexUuid: copy.indexUuid,
      shardId: copy.shardId,
      allocationId: copy.allocationId!,
      targetNode: this.cluster.local.id,
    };
    const a = await this.cluster.request<Answer>(
      primaryNode,
      START_RECOVERY_ACTION,
      req,
      RECOVERY_TIMEOUT_MS,
    );
    if ('error' in a) throw ShoalError.fromWire(a.error);
    return a.ok;
  }

  /** On the primary's node: the source side of one recovery. */
  private async recoverTarget(r: StartRecovery): Promise<RecoveryDone> {
    const primary = this.table.primary(r.indexUuid, r.shardId);
    if (!primary || primary.remote || primary.state !== 'STARTED' || !primary.worker) {
      throw unavailableShards(r.index, r.indexUuid, r.shardId, 'primary shard is not active');
    }
    const node = this.cluster.state().nodes[r.targetNode];
    if (!node) throw illegalState(`recovery target node [${r.targetNode}] is not in the cluster`);
    const target: ShardCopy = {
      index: r.index,
      indexUuid: r.indexUuid,
      shardId: r.shardId,
      primary: false,
      key: primary.key,
      state: 'INITIALIZING',
      node: r.targetNode,
      remote: true,
      allocationId: r.allocationId,
      worker: new RemoteShardWorker(node, this.cluster),
    };
    const started = Date.now();
    // In the replication group before the primary is read: no write falls between the two.
    this.replication.register(primary.key, target);
    try {
      const source = await primary.worker.run({ t: 'recovery_source', key: primary.key });
      const term = primary.primaryTerm ?? 1;
      let docs = 0;
      for (const bytes of source.batches) {
        await target.worker!.run({
          t: 'replica_write',
          key: target.key,
          bytes,
          primaryTerm: term,
          refresh: 'false',
        });
        docs += new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
      }
      await target.worker!.run({ t: 'refresh', key: target.key });
      const done = { docs, batches: source.batches.length, maxSeqNo: source.maxSeqNo };
      this.logger.info(
        { index: r.index, shard: r.shardId, target: node.name, ...done, ms: Date.now() - started },
        'recovered a replica from its primary',
      );
      return done;
    } catch (e) {
      this.replication.unregister(primary.key, r.allocationId);
      throw e;
    }
  }
}
