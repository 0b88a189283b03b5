/**
 * The routing table of each applied cluster state, carried out on this node: the shard table
 * mirrors it (a copy held here runs on one of this node's worker threads, a copy held by
 * another node on a RemoteShardWorker), a copy newly assigned here is opened (created, or
 * recovered from what this node has on disk) and reported started to the master, and a copy
 * taken away is closed.
 */
import type { ClusterService, ClusterState, DiscoveryNode } from '@shoal/cluster';
import { type ShardKey, shardKey } from '@shoal/shard';
import type { Logger } from 'pino';
import { RemoteShardWorker } from '../shards/remote-worker.ts';
import type { ShardCopy, ShardTable } from '../shards/shard-table.ts';
import type { IndexMetadata } from './index-metadata.ts';
import type { IndexShards } from './index-shards.ts';

export class AppliedRouting {
  /** One RemoteShardWorker per incarnation of each other node. */
  private readonly remotes = new Map<string, RemoteShardWorker>();
  /** The copies open on this node: by shard key, the allocation id each was opened for. */
  private readonly opened = new Map<ShardKey, string>();
  /** Allocation ids being opened now. */
  private readonly opening = new Set<string>();

  constructor(
    private readonly cluster: ClusterService,
    private readonly table: ShardTable,
    private readonly shardOps: IndexShards,
    private readonly logger: Logger,
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
        for (const [i, sr] of routings.entries()) {
          const base = {
            index: name,
            indexUuid: r.uuid,
            shardId,
            primary: sr.primary,
            node: sr.node ?? undefined,
            allocationId: sr.allocationId ?? undefined,
            inSync: sr.inSync === true,
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
              work.push(() => this.open(copy, meta, allocationId));
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
    for (const key of [...this.opened.keys()]) if (key.startsWith(`${uuid}/`)) this.opened.delete(key);
  }

  private async open(copy: ShardCopy, meta: IndexMetadata, allocationId: string): Promise<void> {
    try {
      await this.shardOps.open(copy, meta, true);
    } finally {
      this.opening.delete(allocationId);
    }
    const spec = { index: meta.name, shard: copy.shardId, allocationId };
    // Reported without holding up the shard work of the states that follow.
    if (copy.state === 'STARTED') {
      this.opened.set(copy.key, allocationId);
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
