/**
 * The routing table of each applied cluster state, carried out on this node: the shard table
 * mirrors it (a copy held here runs on one of this node's worker threads, a copy held by
 * another node on a RemoteShardWorker), a copy newly assigned here is opened (created, or
 * recovered from what this node has on disk) and reported started to the master, and a copy
 * taken away is closed.
 */
import { type ClusterService, type ClusterState, type DiscoveryNode, primaryTermOf } from '@shoal/cluster';
import { type ShardKey, shardKey } from '@shoal/shard';
import type { Logger } from 'pino';
import type { PeerRecovery } from '../replication/peer-recovery.ts';
import { RemoteShardWorker } from '../shards/remote-worker.ts';
import type { ShardCopy, ShardTable } from '../shards/shard-table.ts';
import type { IndexMetadata } from './index-metadata.ts';
import type { IndexShards } from './index-shards.ts';

export class AppliedRouting {
  /** One RemoteShardWorker per incarnation of each other node. */
  private readonly remotes = new Map<string, RemoteShardWorker>();
  /** The copies open on this node: by shard key, the allocation id each was opened for. */
  private readonly opened = new Map<ShardKey, string>();
  /** Allocation ids being opened (a replica: and recovered) now. */
  private readonly opening = new Set<string>();
  /** The primary term each open copy here was last given. */
  private readonly terms = new Map<ShardKey, number>();

  constructor(
    private readonly cluster: ClusterService,
    private readonly table: ShardTable,
    private readonly shardOps: IndexShards,
    private readonly logger: Logger,
    private readonly recovery: PeerRecovery,
  ) {}

  private remote(node: DiscoveryNode): RemoteShardWorker {
    const id = `${node.id}/${node.ephemeralId}`;
    let w = this.remotes.get(id);
    if (!w) {
      w = new RemoteShardWorker(node, this.cluster);
      this.remotes.set(id, w);
    }
    return w;
  }

  /**
   * Mirrors `state`'s routing table into the shard table now; returns the work to do on the
   * shards (opening and closing this node's copies), to run after the previous states' work.
   */
  apply(state: ClusterState, metaOf: (name: string) => IndexMetadata | undefined): (() => Promise<void>)[] {
    // A state read from disk and not recovered yet names copies as they were before a full
    // restart: nothing is opened or routed by it (Elasticsearch's not-recovered block).
    if (state.stateNotRecovered) return [];
    const local = this.cluster.local.id;
    const work: (() => Promise<void>)[] = [];
    const kept = new Set<ShardKey>();
    const routed = new Set<string>();
    for (const [name, r] of Object.entries(state.routingTable.indices)) {
      const meta = metaOf(name);
      if (!meta || meta.uuid !== r.uuid) continue;
      routed.add(r.uuid);
      const copies: ShardCopy[] = [];
      for (const [shardId, routings] of r.shards.entries()) {
        const key = shardKey(r.uuid, shardId);
        const primaryTerm = primaryTermOf(r, shardId);
        const primaryRouting = routings[0];
        const primaryNode =
          primaryRouting?.state === 'STARTED' && primaryRouting.node !== null
            ? state.nodes[primaryRouting.node]
            : undefined;
        for (const [i, sr] of routings.entries()) {
          const base = {
            index: name,
            indexUuid: r.uuid,
            shardId,
            primary: sr.primary,
            node: sr.node ?? undefined,
            allocationId: sr.allocationId ?? undefined,
            inSync: sr.inSync === true,
            primaryTerm,
          };
          if (sr.node === null) {
            copies.push({ ...base, key: `${key}/u${i}`, state: 'UNASSIGNED', reason: sr.unassigned?.reason });
          } else if (sr.node !== local) {
            const node = state.nodes[sr.node];
            copies.push({
              ...base,
              key,
              state: sr.state,
              remote: true,
              worker: node ? this.remote(node) : undefined,
            });
          } else {
            kept.add(key);
            const allocationId = sr.allocationId!;
            const open = this.opened.get(key) === allocationId;
            const copy: ShardCopy = {
              ...base,
              key,
              state: open ? 'STARTED' : 'INITIALIZING',
              worker: this.table.localWorker(key) ?? this.table.placeLocal(key),
            };
            copies.push(copy);
            if (!open && !this.opening.has(allocationId)) {
              this.opening.add(allocationId);
              work.push(() => this.open(copy, meta, allocationId, sr.primary ? undefined : primaryNode));
            } else if (open && this.terms.get(key) !== primaryTerm) {
              // A replica promoted to primary: its new operations carry the new term. Sent now,
              // not after earlier states' work, so that it reaches the thread before any write
              // that this state routes to the copy.
              this.terms.set(key, primaryTerm);
              void copy
                .worker!.run({ t: 'primary_term', key, primaryTerm })
                .catch((err: unknown) =>
                  this.logger.warn({ err, index: name, shard: shardId }, 'could not raise the primary term'),
                );
            }
          }
        }
      }
      this.table.replaceIndex(r.uuid, copies);
    }
    // Copies of routed indices this node held and no longer does (fewer replicas): closed.
    for (const [key] of this.opened) {
      const uuid = key.slice(0, key.lastIndexOf('/'));
      if (kept.has(key) || !routed.has(uuid)) continue;
      this.opened.delete(key);
      this.terms.delete(key);
      const worker = this.table.localWorker(key);
      if (!worker) continue;
      work.push(async () => {
        worker.shards.delete(key);
        await worker.run({ t: 'close', key }).catch(() => {});
      });
    }
    return work;
  }

  /** Forgets the copies of a deleted index (its shards are closed with it). */
  forget(uuid: string): void {
    for (const key of [...this.opened.keys()]) {
      if (!key.startsWith(`${uuid}/`)) continue;
      this.opened.delete(key);
      this.terms.delete(key);
    }
  }

  /**
   * Opens a copy assigned here. A primary is created or recovered from this node's disk; a
   * replica starts empty and recovers from its primary (`primaryNode`), outside the shard work
   * of the states that follow, since the primary's writes reach it meanwhile.
   */
  private async open(
    copy: ShardCopy,
    meta: IndexMetadata,
    allocationId: string,
    primaryNode?: DiscoveryNode,
  ): Promise<void> {
    const replica = !copy.primary;
    try {
      // A copy this node held before under another allocation (failed, then placed here again)
      // is closed first: a replica starts empty rather than from what it may have missed.
      if (replica) await copy.worker!.run({ t: 'close', key: copy.key }).catch(() => {});
      await this.shardOps.open(copy, meta, true, { fresh: replica, primaryTerm: copy.primaryTerm });
    } finally {
      if (!replica || copy.state !== 'STARTED') this.opening.delete(allocationId);
    }
    if (replica && copy.state === 'STARTED') {
      copy.state = 'INITIALIZING';
      void this.recoverReplica(copy, meta, allocationId, primaryNode).finally(() =>
        this.opening.delete(allocationId),
      );
      return;
    }
    this.report(copy, meta, allocationId);
  }

  private async recoverReplica(
    copy: ShardCopy,
    meta: IndexMetadata,
    allocationId: string,
    primaryNode: DiscoveryNode | undefined,
  ): Promise<void> {
    try {
      if (!primaryNode) throw new Error('its primary is not active');
      await this.recovery.recover(copy, primaryNode);
      copy.state = 'STARTED';
    } catch (e) {
      copy.state = 'FAILED';
      copy.reason = `failed to recover from the primary: ${e instanceof Error ? e.message : String(e)}`;
      this.logger.warn(
        { index: meta.name, shard: copy.shardId, reason: copy.reason },
        'replica recovery failed',
      );
      // What it holds is partial: closed here, and started afresh if the master places it again.
      await copy.worker?.run({ t: 'close', key: copy.key }).catch(() => {});
    }
    this.report(copy, meta, allocationId);
  }

  /** Tells the master how opening the copy went, without holding up the work of later states. */
  private report(copy: ShardCopy, meta: IndexMetadata, allocationId: string): void {
    const spec = { index: meta.name, shard: copy.shardId, allocationId };
    if (copy.state === 'STARTED') {
      this.opened.set(copy.key, allocationId);
      this.terms.set(copy.key, copy.primaryTerm ?? 1);
      void this.cluster
        .execute({ op: 'shard_started', ...spec })
        .catch((err: unknown) => this.logger.warn({ err, ...spec }, 'could not report a started shard copy'));
    } else {
      void this.cluster
        .execute({ op: 'shard_failed', ...spec, details: copy.reason ?? 'failed to open' })
        .catch((err: unknown) => this.logger.warn({ err, ...spec }, 'could not report a failed shard copy'));
    }
  }
}
