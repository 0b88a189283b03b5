/**
 * The reader contexts of one worker thread: transient ones held between a query phase and its
 * fetch phase, and the PIT and scroll contexts that live across requests. A context pins a
 * reader (its segments and live docs), so merges and refreshes never free what it reads;
 * freeing the context releases the reader.
 *
 * Every context expires on its own, checked on use and by a reaper every
 * `search.keep_alive_interval`, so a lost coordinator leaks nothing. Ids are ES's
 * (session, long) pair: the session names this thread, so an id from a thread that died is
 * never mistaken for a new context. A freed id leaves a tombstone for a while, so a later use
 * says whether the context expired (and when) or was closed — with the same
 * `search_context_missing_exception` (404) Elasticsearch answers.
 */
import { randomBytes } from 'node:crypto';
import {
  type ScrollPosition,
  type ShardQueryRequest,
  type ShardReader,
  sliceFilterBytes,
} from '@shoal/engine';
import {
  formatTimeValue,
  illegalArgument,
  type QueryNode,
  type ShoalError,
  searchContextMissing,
  tooManyScrollContexts,
} from '@shoal/protocol';
import { ContextCounters, type CounterRef, Slot } from './context-counters.ts';

export type ContextKind = 'transient' | 'pit' | 'scroll';

/** Where a PIT or scroll context lives inside a worker thread (ES's ShardSearchContextId). */
export interface ContextRef {
  id: number;
  session: string;
}

/** A scroll's query, and per step the position it starts from and the hits it returned. */
export interface ScrollState<Spec = unknown> {
  req: ShardQueryRequest;
  /** What the coordinator needs back on each step (sort, size, fetch options). */
  spec: Spec;
  total: number;
  relation: 'eq' | 'gte';
  /** The sort keys written as Java floats and doubles (ShardQueryResult.floatingKeys). */
  floatingKeys: number;
  steps: Map<number, { from?: ScrollPosition; returned?: ScrollPosition[] }>;
  /** The hits read ahead of the next step (context-tasks.ts, scroll-window.ts). */
  window?: { dispose(): void };
}

export interface ReaderContext {
  id: number;
  key: string;
  kind: ContextKind;
  reader: ShardReader;
  keepAliveMs: number;
  createdAt: number;
  expiresAt: number;
  scroll?: ScrollState;
  /** A PIT opened through filtering aliases: the filter its searches read through. */
  aliasFilter?: QueryNode;
}

type FreeReason = 'closed' | 'expired' | 'shard closed';

interface Tombstone {
  reason: FreeReason;
  at: number;
  keepAliveMs: number;
}

/** A query→fetch gap longer than this means the coordinator is gone. */
const TRANSIENT_KEEP_ALIVE_MS = 60_000;
/** Elasticsearch's `search.keep_alive_interval` default. */
const DEFAULT_REAP_INTERVAL_MS = 60_000;
/** Tombstones are kept this long, and at most this many (oldest dropped first). */
const TOMBSTONE_TTL_MS = 10 * 60_000;
const TOMBSTONE_CAP = 4096;
/** A scroll keeps the positions of its last few steps, so a retried call finds its page. */
export const SCROLL_STEPS_KEPT = 4;

export interface ReaderContextsOptions {
  now?: () => number;
  session?: string;
  reapIntervalMs?: number;
}

export class ReaderContexts {
  readonly session: string;
  private nextId = 1;
  private readonly contexts = new Map<number, ReaderContext>();
  private readonly tombstones = new Map<number, Tombstone>();
  private readonly now: () => number;
  private reaper: NodeJS.Timeout | undefined;
  private reapIntervalMs = 0;
  private counters: ContextCounters | undefined;
  private row = 0;
  private sliceBytes = 0;

  constructor(opts: ReaderContextsOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.session = opts.session ?? randomBytes(6).toString('hex');
    this.setReapInterval(opts.reapIntervalMs ?? DEFAULT_REAP_INTERVAL_MS);
  }

  /** The node's shared counters, and which row of them this thread writes. */
  attach(ref: CounterRef | undefined): void {
    // Each message brings its own handle on the same shared memory: attach once per row.
    if (!ref || (this.counters && this.row === ref.row)) return;
    this.counters = ContextCounters.of(ref);
    this.row = ref.row;
    this.counters.adopt(ref.row, BigInt(`0x${this.session}`));
    this.counters.set(this.row, Slot.Open, this.contexts.size);
  }

  setReapInterval(ms: number): void {
    if (ms <= 0 || ms === this.reapIntervalMs) return;
    this.reapIntervalMs = ms;
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = setInterval(() => this.reap(), ms);
    this.reaper.unref();
  }

  private open(key: string, reader: ShardReader, kind: ContextKind, keepAliveMs: number): ReaderContext {
    const now = this.now();
    const ctx: ReaderContext = {
      id: this.nextId++,
      key,
      kind,
      reader,
      keepAliveMs,
      createdAt: now,
      expiresAt: now + keepAliveMs,
    };
    this.contexts.set(ctx.id, ctx);
    this.counters?.add(this.row, Slot.Open, 1);
    if (kind === 'pit') this.counters?.add(this.row, Slot.PitCurrent, 1);
    return ctx;
  }

  openTransient(key: string, reader: ShardReader): number {
    return this.open(key, reader, 'transient', TRANSIENT_KEEP_ALIVE_MS).id;
  }

  openPit(key: string, reader: ShardReader, keepAliveMs: number, aliasFilter?: QueryNode): ContextRef {
    const ctx = this.open(key, reader, 'pit', keepAliveMs);
    if (aliasFilter) ctx.aliasFilter = aliasFilter;
    return { id: ctx.id, session: this.session };
  }

  /** Throws 429 too_many_scroll_contexts_exception past `search.max_open_scroll_context`. */
  openScroll(
    key: string,
    reader: ShardReader,
    keepAliveMs: number,
    maxOpen: number,
    state: Omit<ScrollState, 'steps'>,
  ): ReaderContext {
    if (this.counters && !this.counters.tryOpenScroll(this.row, maxOpen))
      throw tooManyScrollContexts(maxOpen);
    const ctx = this.open(key, reader, 'scroll', keepAliveMs);
    ctx.scroll = { ...state, steps: new Map() };
    return ctx;
  }

  /**
   * The live PIT or scroll context `ref` of shard `key`, its expiry pushed back by
   * `keepAliveMs` when given; search_context_missing_exception otherwise.
   */
  use(key: string, ref: ContextRef, keepAliveMs?: number): ReaderContext {
    const ctx = ref.session === this.session ? this.contexts.get(ref.id) : undefined;
    if (!ctx || ctx.key !== key || ctx.kind === 'transient') throw this.missing(ref);
    const now = this.now();
    if (ctx.expiresAt <= now) {
      this.free(ctx.id, 'expired');
      throw this.missing(ref);
    }
    if (keepAliveMs !== undefined) {
      ctx.keepAliveMs = keepAliveMs;
      ctx.expiresAt = now + keepAliveMs;
    }
    return ctx;
  }

  /** Whether `ctx` is still open (read-ahead work after a reply checks before it reads). */
  isOpen(ctx: ReaderContext): boolean {
    return this.contexts.get(ctx.id) === ctx && ctx.expiresAt > this.now();
  }

  /** A transient (query→fetch) context, or any context by id for the fetch phase. */
  get(id: number): ReaderContext | undefined {
    const ctx = this.contexts.get(id);
    if (ctx && ctx.expiresAt <= this.now()) {
      this.free(id, 'expired');
      return undefined;
    }
    return ctx;
  }

  /** Frees a transient context; PIT and scroll contexts are only freed by `free`. */
  release(id: number): boolean {
    if (this.contexts.get(id)?.kind !== 'transient') return false;
    return this.free(id, 'closed');
  }

  /** Frees a PIT or scroll context named by `ref`; false when it was already gone. */
  freeRef(key: string, ref: ContextRef, reason: FreeReason = 'closed'): boolean {
    if (ref.session !== this.session) return false;
    const ctx = this.contexts.get(ref.id);
    if (!ctx || ctx.key !== key || ctx.kind === 'transient') return false;
    return this.free(ref.id, reason);
  }

  free(id: number, reason: FreeReason): boolean {
    const ctx = this.contexts.get(id);
    if (!ctx) return false;
    this.contexts.delete(id);
    ctx.reader.release();
    ctx.scroll?.window?.dispose();
    const c = this.counters;
    if (c) {
      c.add(this.row, Slot.Open, -1);
      if (ctx.kind === 'pit') c.add(this.row, Slot.PitCurrent, -1);
      if (ctx.kind === 'scroll') c.closeScroll(this.row, (this.now() - ctx.createdAt) * 1000);
    }
    if (this.sliceBytes > 0) this.recountSliceBytes();
    if (ctx.kind !== 'transient') {
      const at = reason === 'expired' ? Math.min(ctx.expiresAt, this.now()) : this.now();
      this.tombstones.set(id, { reason, at, keepAliveMs: ctx.keepAliveMs });
      this.pruneTombstones();
    }
    return true;
  }

  /** Frees every context of a shard (the shard is closing: its index was deleted or closed). */
  releaseShard(key: string): void {
    for (const [id, ctx] of this.contexts) if (ctx.key === key) this.free(id, 'shard closed');
  }

  /** `DELETE /_search/scroll/_all`: every scroll context of this thread. */
  freeScrolls(): number {
    let n = 0;
    for (const [id, ctx] of this.contexts) if (ctx.kind === 'scroll' && this.free(id, 'closed')) n++;
    return n;
  }

  get size(): number {
    return this.contexts.size;
  }

  get tombstoneCount(): number {
    return this.tombstones.size;
  }

  /**
   * Recounts this thread's slice-filter memory: the filters cached on the readers its contexts
   * pin (each reader once, however many contexts share it).
   */
  recountSliceBytes(): void {
    const seen = new Set<number>();
    let bytes = 0;
    for (const ctx of this.contexts.values()) {
      if (seen.has(ctx.reader.id)) continue;
      seen.add(ctx.reader.id);
      bytes += sliceFilterBytes(ctx.reader);
    }
    this.sliceBytes = bytes;
    this.counters?.set(this.row, Slot.SliceBytes, bytes);
  }

  get sliceFilterBytes(): number {
    return this.sliceBytes;
  }

  reap(now = this.now()): void {
    for (const [id, ctx] of this.contexts) if (ctx.expiresAt <= now) this.free(id, 'expired');
    this.pruneTombstones();
  }

  private pruneTombstones(): void {
    const horizon = this.now() - TOMBSTONE_TTL_MS;
    for (const [id, t] of this.tombstones) {
      if (this.tombstones.size <= TOMBSTONE_CAP && t.at >= horizon) break;
      this.tombstones.delete(id);
    }
  }

  /** search_context_missing_exception, saying what became of the context when we know. */
  missing(ref: ContextRef): ShoalError {
    const t = ref.session === this.session ? this.tombstones.get(ref.id) : undefined;
    const at = t && new Date(t.at).toISOString();
    let why: string | undefined;
    if (t?.reason === 'expired') {
      why = `the context expired at ${at}, [${formatTimeValue(t.keepAliveMs)}] after its last use`;
    } else if (t?.reason === 'closed') {
      why = `the context was closed at ${at}`;
    } else if (t?.reason === 'shard closed') {
      why = `the context was freed at ${at} when its shard was closed`;
    } else if (ref.session !== this.session) {
      why = 'the shard worker thread that held it has been replaced';
    }
    return searchContextMissing(ref.id, why);
  }

  close(): void {
    if (this.reaper) clearInterval(this.reaper);
    for (const id of [...this.contexts.keys()]) this.free(id, 'shard closed');
  }
}

/**
 * Where scroll step `step` starts on this shard: right after the last of its hits that the
 * previous page consumed (`consumed` of them, named by the scroll id), or where the previous
 * step started when it consumed none. Step 0 starts at the beginning. Only the last few steps
 * are kept, so a retried call finds its page but an id from long ago does not.
 */
export function scrollFrom(ctx: ReaderContext, step: number, consumed: number): ScrollPosition | undefined {
  if (step === 0) return undefined;
  const prev = ctx.scroll?.steps.get(step - 1);
  if (!prev?.returned || consumed > prev.returned.length) {
    throw illegalArgument(
      `Scroll position [${step}] is no longer kept: a scroll keeps only its last [${SCROLL_STEPS_KEPT}] positions`,
    );
  }
  return consumed > 0 ? prev.returned[consumed - 1] : prev.from;
}

/** Records what step `step` started from and returned, dropping steps too old to retry. */
export function recordScrollStep(
  ctx: ReaderContext,
  step: number,
  from: ScrollPosition | undefined,
  returned: ScrollPosition[],
): void {
  const steps = ctx.scroll?.steps;
  if (!steps) return;
  steps.set(step, from ? { from, returned } : { returned });
  steps.delete(step - SCROLL_STEPS_KEPT);
}
