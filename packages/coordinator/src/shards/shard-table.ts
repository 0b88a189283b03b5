/**
 * The routing table of this node: every shard copy of every index, where it lives (which
 * worker thread) and its state. A new primary goes to the least-loaded worker. On one node,
 * replicas stay UNASSIGNED (a replica never shares a node with its primary), as in Elasticsearch.
 */
import { type ShardKey, type ShardWorker, shardKey } from '@shoal/shard';

export type ShardState = 'STARTED' | 'INITIALIZING' | 'UNASSIGNED' | 'FAILED' | 'RELOCATING';

/**
 * What a shard copy's tasks run on: a worker thread of this node, or a node of the cluster
 * that holds the copy (remote-worker.ts), alike to the search and write paths.
 */
export type ShardRunner = Pick<ShardWorker, 'id' | 'run' | 'release' | 'shards'>;

export interface ShardCopy {
  readonly index: string;
  readonly indexUuid: string;
  readonly shardId: number;
  readonly primary: boolean;
  readonly key: ShardKey;
  state: ShardState;
  worker?: ShardRunner;
  /** Why the copy failed or is unassigned. */
  reason?: string;
  /** In a cluster of several nodes: the node that holds the copy. */
  node?: string;
  /** Held by another node: its tasks run there (`worker` is a RemoteShardWorker). */
  remote?: boolean;
  /** In a cluster of several nodes: the copy's allocation id in the routing table. */
  allocationId?: string;
  /** In a cluster of several nodes: the routing table counts the copy in sync (it may become primary). */
  inSync?: boolean;
  /** In a cluster of several nodes: the shard's primary term in the routing table. */
  primaryTerm?: number;
}

export class ShardTable {
  private readonly byIndex = new Map<string, ShardCopy[]>();
  private readonly byKey = new Map<ShardKey, ShardCopy>();
  /**
   * Each index's primaries by shard id: a search looks up every target's primary, and a
   * lookup by key would build the key string and hash it each time.
   */
  private readonly primariesByIndex = new Map<string, ShardCopy[]>();
  /** In a cluster of several nodes: each index's copies by shard id (reads choose among them). */
  private readonly byShard = new Map<string, ShardCopy[][]>();

  constructor(readonly workers: readonly ShardWorker[]) {
    for (const w of workers) w.onShardsFailed((keys, reason) => this.markFailed(keys, reason));
  }

  private leastLoaded(): ShardWorker {
    let best = this.workers[0]!;
    for (const w of this.workers) if (w.shards.size < best.shards.size) best = w;
    return best;
  }

  /** Places the primaries of a new index on workers and records its unassigned replicas. */
  allocate(index: string, indexUuid: string, numberOfShards: number, numberOfReplicas: number): ShardCopy[] {
    const copies: ShardCopy[] = [];
    const primaries: ShardCopy[] = [];
    for (let shardId = 0; shardId < numberOfShards; shardId++) {
      const worker = this.leastLoaded();
      const key = shardKey(indexUuid, shardId);
      worker.shards.add(key);
      const primary: ShardCopy = {
        index,
        indexUuid,
        shardId,
        primary: true,
        key,
        state: 'INITIALIZING',
        worker,
      };
      copies.push(primary);
      this.byKey.set(key, primary);
      primaries.push(primary);
      for (let r = 0; r < numberOfReplicas; r++) {
        copies.push({
          index,
          indexUuid,
          shardId,
          primary: false,
          key: `${key}/r${r}`,
          state: 'UNASSIGNED',
          reason: 'INDEX_CREATED',
        });
      }
    }
    this.byIndex.set(indexUuid, copies);
    this.primariesByIndex.set(indexUuid, primaries);
    return copies;
  }

  /**
   * In a cluster of several nodes: the copies of an index as the routing table has them, in
   * place of those it had. Only this node's own copies are found by key.
   */
  replaceIndex(indexUuid: string, copies: ShardCopy[]): void {
    for (const c of this.byIndex.get(indexUuid) ?? [])
      if (this.byKey.get(c.key) === c) this.byKey.delete(c.key);
    for (const c of copies) if (!c.remote && c.worker) this.byKey.set(c.key, c);
    this.byIndex.set(indexUuid, copies);
    const primaries: ShardCopy[] = [];
    const byShard: ShardCopy[][] = [];
    for (const c of copies) {
      if (c.primary) primaries[c.shardId] = c;
      const same = byShard[c.shardId];
      if (same) same.push(c);
      else byShard[c.shardId] = [c];
    }
    this.primariesByIndex.set(indexUuid, primaries);
    this.byShard.set(indexUuid, byShard);
  }

  /**
   * In a cluster of several nodes, the copies of one shard (any state); undefined on a node
   * alone, whose reads go to the primaries.
   */
  shardCopies(indexUuid: string, shardId: number): readonly ShardCopy[] | undefined {
    return this.byShard.get(indexUuid)?.[shardId];
  }

  /** A worker thread of this node for a new copy (the least loaded), which takes `key`. */
  placeLocal(key: ShardKey): ShardWorker {
    const worker = this.leastLoaded();
    worker.shards.add(key);
    return worker;
  }

  /** This node's worker thread that holds `key`, if any. */
  localWorker(key: ShardKey): ShardWorker | undefined {
    return this.workers.find((w) => w.shards.has(key));
  }

  /** The copies of an index this node holds itself (primaries, and replicas in a cluster of several nodes). */
  local(indexUuid: string): ShardCopy[] {
    return this.copies(indexUuid).filter((c) => c.worker && !c.remote);
  }

  /** Changes the number of (unassigned) replica entries after `number_of_replicas` changed. */
  setReplicas(indexUuid: string, numberOfReplicas: number): void {
    const copies = this.byIndex.get(indexUuid);
    if (!copies) return;
    const next: ShardCopy[] = [];
    for (const p of copies.filter((c) => c.primary)) {
      next.push(p);
      for (let r = 0; r < numberOfReplicas; r++) {
        next.push({
          index: p.index,
          indexUuid,
          shardId: p.shardId,
          primary: false,
          key: `${p.key}/r${r}`,
          state: 'UNASSIGNED',
          reason: 'REPLICA_ADDED',
        });
      }
    }
    this.byIndex.set(indexUuid, next);
  }

  copies(indexUuid: string): readonly ShardCopy[] {
    return this.byIndex.get(indexUuid) ?? [];
  }

  primaries(indexUuid: string): ShardCopy[] {
    return this.copies(indexUuid).filter((c) => c.primary);
  }

  primary(indexUuid: string, shardId: number): ShardCopy | undefined {
    return this.primariesByIndex.get(indexUuid)?.[shardId];
  }

  remove(indexUuid: string): ShardCopy[] {
    const copies = this.byIndex.get(indexUuid) ?? [];
    for (const c of copies) {
      if (c.remote) continue;
      this.byKey.delete(c.key);
      c.worker?.shards.delete(c.key);
    }
    this.byIndex.delete(indexUuid);
    this.primariesByIndex.delete(indexUuid);
    this.byShard.delete(indexUuid);
    return copies;
  }

  /** Places a copy whose worker died on the least-loaded worker (its replacement thread, usually). */
  reassign(copy: ShardCopy): void {
    copy.worker = this.placeLocal(copy.key);
  }

  markFailed(keys: ShardKey[], reason: string): void {
    for (const key of keys) {
      const copy = this.byKey.get(key);
      if (!copy) continue;
      copy.state = 'FAILED';
      copy.reason = `shard worker died: ${reason}`;
      copy.worker = undefined;
    }
  }

  all(): ShardCopy[] {
    return [...this.byIndex.values()].flat();
  }
}
