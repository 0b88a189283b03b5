/**
 * Reader contexts held between a query phase and its fetch phase (and, later, by PIT and
 * scroll). A context pins a reader; releasing it lets the engine drop what nothing else reads.
 * Every context expires on its own so a lost coordinator leaks nothing.
 */
import type { ShardReader } from '@shoal/engine';

interface ReaderContext {
  key: string;
  reader: ShardReader;
  expiresAt: number;
}

/** A query→fetch gap longer than this means the coordinator is gone. */
const TRANSIENT_KEEP_ALIVE_MS = 60_000;

export class ReaderContexts {
  private nextId = 1;
  private readonly contexts = new Map<number, ReaderContext>();
  private readonly reaper: NodeJS.Timeout;

  constructor() {
    this.reaper = setInterval(() => this.reap(Date.now()), 5_000);
    this.reaper.unref();
  }

  open(key: string, reader: ShardReader, keepAliveMs = TRANSIENT_KEEP_ALIVE_MS): number {
    const id = this.nextId++;
    this.contexts.set(id, { key, reader, expiresAt: Date.now() + keepAliveMs });
    return id;
  }

  get(id: number): ShardReader | undefined {
    return this.contexts.get(id)?.reader;
  }

  release(id: number): boolean {
    const ctx = this.contexts.get(id);
    if (!ctx) return false;
    this.contexts.delete(id);
    ctx.reader.release();
    return true;
  }

  /** Release every context of a shard (the shard is closing). */
  releaseShard(key: string): void {
    for (const [id, ctx] of this.contexts) if (ctx.key === key) this.release(id);
  }

  get size(): number {
    return this.contexts.size;
  }

  private reap(now: number): void {
    for (const [id, ctx] of this.contexts) if (ctx.expiresAt <= now) this.release(id);
  }
}
