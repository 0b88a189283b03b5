/**
 * The coordinator's lease registry: every PIT and scroll this node opened, by lease id, with
 * the shard contexts behind it, its keep-alive and expiry. It answers the OpenSearch PIT
 * listing and `_all` deletes, frees a lease's shard contexts, and reaps leases past their
 * keep-alive every `search.keep_alive_interval`. Each shard also expires its own contexts
 * (reader-contexts.ts), so a lost coordinator leaks nothing, and the shards stay the truth of
 * whether a context lives: an id this registry does not know is still served by the shards it
 * names (a scroll then continues from the position its id names). A scroll's lease holds where
 * the scroll stands, which every continuation advances.
 *
 * It also owns the node's shared context counters (`_nodes/stats` indices.search).
 */
import { randomBytes } from 'node:crypto';
import { ContextCounters, type ShardWorker } from '@shoal/shard';
import type { ShardContextEntry } from './context-id.ts';
import type { ScrollCursor } from './scroll-cursor.ts';

export interface Lease {
  id: string;
  kind: 'pit' | 'scroll';
  /** The id handed to the client (a PIT's; a scroll's first). */
  encoded: string;
  shards: ShardContextEntry[];
  keepAliveMs: number;
  createdAt: number;
  expiresAt: number;
  /** A scroll's batch size. */
  size?: number;
  /** Where a scroll stands: every continuation goes on from here (scroll-cursor.ts). */
  cursor?: ScrollCursor;
}

export type FreeReason = 'closed' | 'expired';

export class LeaseRegistry {
  readonly counters: ContextCounters;
  private readonly leases = new Map<string, Lease>();
  private reaper: NodeJS.Timeout | undefined;

  constructor(
    readonly nodeId: string,
    private readonly workers: readonly ShardWorker[],
    private readonly now: () => number = Date.now,
    counters: ContextCounters = ContextCounters.create(workers.length),
  ) {
    this.counters = counters;
  }

  newLeaseId(): string {
    return randomBytes(12).toString('base64url');
  }

  add(lease: Omit<Lease, 'createdAt' | 'expiresAt'> & { createdAt?: number }): Lease {
    const createdAt = lease.createdAt ?? this.now();
    const full: Lease = { ...lease, createdAt, expiresAt: this.now() + lease.keepAliveMs };
    this.leases.set(full.id, full);
    return full;
  }

  get(id: string): Lease | undefined {
    return this.leases.get(id);
  }

  /** A use of the lease: a new keep-alive when given (the shards apply it too). */
  touch(id: string, keepAliveMs?: number): void {
    const lease = this.leases.get(id);
    if (!lease || keepAliveMs === undefined) return;
    lease.keepAliveMs = keepAliveMs;
    lease.expiresAt = this.now() + keepAliveMs;
  }

  remove(id: string): Lease | undefined {
    const lease = this.leases.get(id);
    this.leases.delete(id);
    return lease;
  }

  list(kind: Lease['kind']): Lease[] {
    return [...this.leases.values()].filter((l) => l.kind === kind);
  }

  get size(): number {
    return this.leases.size;
  }

  /**
   * Frees shard contexts on the workers that hold them; returns how many were freed.
   * Contexts of other nodes cannot be reached from here (one node per process for now) and
   * count as not freed, as ClearScrollController counts a node that has left.
   */
  async free(entries: readonly ShardContextEntry[], reason: FreeReason): Promise<number> {
    const byWorker = new Map<number, ShardContextEntry[]>();
    for (const e of entries) {
      if (e.node !== this.nodeId || !this.workers[e.worker]) continue;
      const list = byWorker.get(e.worker) ?? [];
      list.push(e);
      byWorker.set(e.worker, list);
    }
    const freed = await Promise.all(
      [...byWorker].map(([w, list]) =>
        this.workers[w]!.run({
          t: 'free_contexts',
          contexts: list.map((e) => ({ key: `${e.uuid}/${e.shardId}`, context: e.context })),
          reason,
        }).then(
          (r) => r.freed,
          () => 0,
        ),
      ),
    );
    return freed.reduce((a, b) => a + b, 0);
  }

  /** `DELETE /_search/scroll/_all`: every scroll context of every worker of this node. */
  async freeAllScrolls(): Promise<number> {
    for (const l of this.list('scroll')) this.leases.delete(l.id);
    const freed = await Promise.all(
      this.workers.map((w) =>
        w.run({ t: 'free_scrolls' }).then(
          (r) => r.freed,
          () => 0,
        ),
      ),
    );
    return freed.reduce((a, b) => a + b, 0);
  }

  /** Frees the leases past their keep-alive. */
  async reap(): Promise<void> {
    const now = this.now();
    const expired = [...this.leases.values()].filter((l) => l.expiresAt <= now);
    for (const l of expired) this.leases.delete(l.id);
    if (expired.length > 0)
      await this.free(
        expired.flatMap((l) => l.shards),
        'expired',
      );
  }

  startReaper(intervalMs: number): void {
    this.stop();
    this.reaper = setInterval(() => void this.reap().catch(() => {}), Math.max(100, intervalMs));
    this.reaper.unref();
  }

  stop(): void {
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = undefined;
  }
}
