/**
 * A point-in-time view of a shard: a fixed list of segments with the live-docs each had when
 * the reader was published (Lucene's DirectoryReader). Readers are shared and reference
 * counted; every `acquire` hands out its own handle whose `release()` is idempotent, so a
 * double release by one holder can never free a reader another holder still uses.
 */
import type { LiveDocs } from './live-docs.ts';
import type { Segment } from './segment.ts';

export interface ReaderSegment {
  segment: Segment;
  /** Frozen: never changes while the reader lives. */
  liveDocs: LiveDocs;
  /** Reader-global id of the segment's doc 0. */
  docBase: number;
  /** Position in the reader's segment list. */
  ord: number;
}

export interface ShardReader {
  readonly id: number;
  readonly segments: readonly ReaderSegment[];
  readonly maxDoc: number;
  readonly numDocs: number;
  /** Give the reference back; the reader's segments are freed when the last one goes. */
  release(): void;
  /** Per-reader derived data (term statistics…), dropped with the reader. */
  cached<T>(key: string, compute: () => T): T;
}

/** The shared state behind reader handles. */
export class ReaderSnapshot {
  readonly segments: readonly ReaderSegment[];
  readonly maxDoc: number;
  readonly numDocs: number;
  private refs = 1;
  private readonly cache = new Map<string, unknown>();

  constructor(
    readonly id: number,
    entries: readonly { segment: Segment; liveDocs: LiveDocs }[],
  ) {
    let base = 0;
    let live = 0;
    const segs: ReaderSegment[] = [];
    for (const e of entries) {
      e.segment.incRef();
      segs.push({ segment: e.segment, liveDocs: e.liveDocs.freeze(), docBase: base, ord: segs.length });
      base += e.segment.maxDoc;
      live += e.liveDocs.numLive;
    }
    this.segments = segs;
    this.maxDoc = base;
    this.numDocs = live;
  }

  get refCount(): number {
    return this.refs;
  }

  incRef(): void {
    if (this.refs <= 0) throw new Error(`reader ${this.id} is already closed`);
    this.refs++;
  }

  decRef(): void {
    if (this.refs <= 0) throw new Error(`reader ${this.id} released too often`);
    if (--this.refs === 0) {
      this.cache.clear();
      for (const s of this.segments) s.segment.decRef();
    }
  }

  cached<T>(key: string, compute: () => T): T {
    let v = this.cache.get(key) as T | undefined;
    if (v === undefined) {
      v = compute();
      this.cache.set(key, v);
    }
    return v;
  }

  /** A new counted handle on this snapshot. */
  acquire(): ShardReader {
    this.incRef();
    return new ReaderHandle(this);
  }
}

/** One counted handle on a snapshot (a class: one is made per search). */
class ReaderHandle implements ShardReader {
  readonly id: number;
  readonly segments: readonly ReaderSegment[];
  readonly maxDoc: number;
  readonly numDocs: number;
  private released = false;

  constructor(private readonly snap: ReaderSnapshot) {
    this.id = snap.id;
    this.segments = snap.segments;
    this.maxDoc = snap.maxDoc;
    this.numDocs = snap.numDocs;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.snap.decRef();
  }

  cached<T>(key: string, compute: () => T): T {
    return this.snap.cached(key, compute);
  }
}

/** The segment holding reader-global `doc` (binary search on doc bases). */
export function segmentOf(reader: Pick<ShardReader, 'segments'>, doc: number): ReaderSegment {
  const segs = reader.segments;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (segs[mid]!.docBase <= doc) lo = mid;
    else hi = mid - 1;
  }
  const s = segs[lo];
  if (!s || doc < s.docBase || doc >= s.docBase + s.segment.maxDoc) {
    throw new RangeError(`doc ${doc} is outside the reader`);
  }
  return s;
}
