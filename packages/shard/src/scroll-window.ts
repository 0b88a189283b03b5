/**
 * The hits a scroll context has ready ahead of its next step, already rendered. A scroll step
 * starts right after a position that the previous step returned, so the hits after that
 * position are known before the step is asked for: once a step is answered, the shard reads,
 * fetches and renders the next batch while the coordinator and the client handle the page,
 * and the next step only copies its hits out.
 *
 * The window holds the hits that follow `base` (the start of the scroll when absent), in the
 * scroll's order, each with its position and its JSON (RenderedHits). On the same pinned
 * reader a query resumed after position P returns exactly the hits that follow P; so a step
 * whose start is in the window takes the same hits a fresh query would, and a step whose start
 * is not (a call retried with an old id) runs the query afresh and restarts the window there.
 * Only scrolls sorted without scores use it: their hits carry no score and their pages no
 * max_score.
 */
import {
  executeFetch,
  type ScrollPosition,
  type ShardFetchRequest,
  type ShardFetchResult,
  type ShardHitRef,
  type ShardQueryRequest,
  type ShardReader,
} from '@shoal/engine';
import type { RenderedHits } from './hit-codec.ts';
import { HitSink, hitPrefix, renderHit, sourceOf } from './hit-render.ts';

/** The rendered hits kept ahead of the page just returned, at most (the page itself aside). */
const AHEAD_BYTES = 4 * 1024 * 1024;

/** Bytes held by the windows of this thread's scroll contexts (their arenas). */
let heldBytes = 0;

/** What the scroll windows of this thread hold (context-tasks.ts bounds read-ahead by it). */
export function scrollWindowBytes(): number {
  return heldBytes;
}

/** Runs the scroll's query resumed after `from`: its next `k` hits and their positions. */
export type ResumedQuery = (from: ScrollPosition | undefined) => {
  hits: ShardHitRef[];
  positions: ScrollPosition[];
};

/** The window's rendered hits (hit-render.ts), appended; the dropped ones' bytes reclaimed as it grows. */
class Arena extends HitSink {
  /** Bytes before `start` belong to hits already dropped. */
  start = 0;

  constructor() {
    super(64 * 1024);
    heldBytes += this.buf.length;
  }

  /** Gives the memory back (the window is dropped). */
  release(): void {
    heldBytes -= this.buf.length;
    this.buf = Buffer.alloc(0);
    this.start = this.end = 0;
  }

  protected room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const live = this.end - this.start;
    const size = Math.max(this.buf.length, (live + n) * 2);
    const next = size > this.buf.length || this.start === 0 ? Buffer.allocUnsafe(size) : this.buf;
    this.buf.copy(next, 0, this.start, this.end);
    heldBytes += next.length - this.buf.length;
    this.buf = next;
    this.end = live;
    this.start = 0;
  }
}

export class ScrollWindow {
  /** The position the window starts after; absent: the start of the scroll. */
  private base: ScrollPosition | undefined;
  private hits: ShardHitRef[] = [];
  private positions: ScrollPosition[] = [];
  /** Hit i is arena bytes [ends[i], ends[i + 1]) (absolute offsets; `ends[0]` = arena start). */
  private ends: number[] = [0];
  private readonly arena = new Arena();
  /** The query found nothing after the last hit. */
  private exhausted = false;

  /** What each hit starts with (hit-render.ts hitPrefix). */
  private readonly prefix: Uint8Array;

  constructor(
    /** The shard's index: the hits' `_index`. */
    index: string,
    private readonly size: number,
    private readonly fetch: Omit<ShardFetchRequest, 'docs'>,
    private readonly explicitSort: boolean,
    /** The sort keys written as Java floats and doubles (ShardQueryResult.floatingKeys). */
    private readonly floatingKeys: number,
  ) {
    this.prefix = hitPrefix(index);
  }

  /** The index in the window of the hit after `from`, or -1 when `from` is not in the window. */
  private indexAfter(from: ScrollPosition | undefined): number {
    if (from === undefined) return this.base === undefined ? 0 : -1;
    if (this.base !== undefined && samePosition(this.base, from)) return 0;
    const ps = this.positions;
    for (let i = 0; i < ps.length; i++) if (ps[i] === from) return i + 1;
    for (let i = 0; i < ps.length; i++) if (samePosition(ps[i]!, from)) return i + 1;
    return -1;
  }

  /**
   * The step that starts after `from`: its (up to `size`) hits, their positions and their JSON.
   * Hits before the step's start are dropped: no later step starts before it.
   */
  take(
    from: ScrollPosition | undefined,
    reader: ShardReader,
    query: ResumedQuery,
  ): { hits: ShardHitRef[]; positions: ScrollPosition[]; rendered: RenderedHits } {
    let j = this.indexAfter(from);
    if (j < 0) {
      this.restart(from);
      j = 0;
    }
    this.drop(j);
    this.fill(this.size, reader, query);
    const n = Math.min(this.size, this.hits.length);
    const ends = new Uint32Array(n + 1);
    const first = this.ends[0]!;
    for (let i = 0; i <= n; i++) ends[i] = this.ends[i]! - first;
    return {
      hits: this.hits.slice(0, n),
      positions: this.positions.slice(0, n),
      rendered: { bytes: this.arena.buf.subarray(first, this.ends[n]!), ends },
    };
  }

  /** Frees what the window holds (its context was freed, or read-ahead is over budget). */
  dispose(): void {
    this.arena.release();
    this.hits = [];
    this.positions = [];
    this.ends = [0];
    this.base = undefined;
    this.exhausted = false;
  }

  /** Reads ahead: the hits of the next step, once the current one (the first `size`) is sent. */
  readAhead(reader: ShardReader, query: ResumedQuery): void {
    this.fill(2 * this.size, reader, query);
  }

  private restart(from: ScrollPosition | undefined): void {
    this.base = from;
    this.hits = [];
    this.positions = [];
    this.arena.start = this.arena.end = 0;
    this.ends = [0];
    this.exhausted = false;
  }

  private drop(j: number): void {
    if (j === 0) return;
    this.base = this.positions[j - 1];
    this.hits.splice(0, j);
    this.positions.splice(0, j);
    this.ends.splice(0, j);
    this.arena.start = this.ends[0]!;
  }

  /** Queries, fetches and renders until the window holds `want` hits (or the scroll's end). */
  private fill(want: number, reader: ShardReader, query: ResumedQuery): void {
    while (this.hits.length < want && !this.exhausted) {
      if (this.hits.length > this.size && this.ends.at(-1)! - this.ends[this.size]! > AHEAD_BYTES) return;
      const from = this.positions.length > 0 ? this.positions.at(-1) : this.base;
      const next = query(from);
      if (next.hits.length < this.size) this.exhausted = true;
      if (next.hits.length === 0) return;
      const docs = next.hits.map((h) => h.doc);
      this.render(next.hits, executeFetch(reader, { ...this.fetch, docs }));
      for (let i = 0; i < next.hits.length; i++) {
        this.hits.push(next.hits[i]!);
        this.positions.push(next.positions[i]!);
      }
    }
  }

  private render(hits: ShardHitRef[], f: ShardFetchResult): void {
    const a = this.arena;
    // The offsets are absolute: an arena that moves its bytes rebases them.
    for (let i = 0; i < hits.length; i++) {
      const before = a.start;
      renderHit(
        a,
        this.prefix,
        hits[i]!,
        f,
        i,
        sourceOf(f, i),
        this.fetch,
        this.explicitSort,
        this.floatingKeys,
      );
      if (a.start !== before) this.rebase(before - a.start);
      this.ends.push(a.end);
    }
  }

  /** The arena moved its live bytes down by `by`. */
  private rebase(by: number): void {
    for (let i = 0; i < this.ends.length; i++) this.ends[i] = this.ends[i]! - by;
  }
}

function samePosition(a: ScrollPosition, b: ScrollPosition): boolean {
  if (a.doc !== b.doc || a.values.length !== b.values.length) return false;
  for (let i = 0; i < a.values.length; i++) if (a.values[i] !== b.values[i]) return false;
  return true;
}

/** A scroll's query resumed after a position (its `k` is the batch size). */
export function resumedRequest(req: ShardQueryRequest, from: ScrollPosition | undefined): ShardQueryRequest {
  return from ? { ...req, resumeAfter: from } : req;
}
