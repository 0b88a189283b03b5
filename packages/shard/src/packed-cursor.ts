/**
 * A cursor over packed hits (hit-codec.ts) that never builds one object per hit: `hit` is one
 * reused hit whose doc, score and sort values are those of the hit at `pos`. A merge compares
 * cursors' `hit`s with the search's ordinary comparator and advances the winner, so a page of
 * a thousand hits costs no garbage beyond the cursors themselves.
 */
import type { ShardHitRef } from '@shoal/engine';
import type { SortValue } from '@shoal/protocol';
import {
  BufferViews,
  type Column,
  type PackedReply,
  type RenderedHits,
  renderedViews,
  sortValueAt,
} from './hit-codec.ts';
import { type PackedHits, readHeader } from './packed-header.ts';

export class PackedCursor {
  /** The hit at `pos` (rewritten in place by `next`), tagged with its shard. */
  readonly hit: ShardHitRef & { shardIndex: number };
  readonly count: number;
  /** The reply's header (totals, max score, what the reply holds). */
  readonly header: PackedHits;
  pos = 0;
  private readonly views: BufferViews;
  private readonly columns: Column[];
  private readonly docs: number;
  private readonly scores: number;
  private readonly high: bigint;

  constructor(reply: PackedReply, shardIndex?: number) {
    this.views = BufferViews.of(reply.bytes);
    const p = readHeader(this.views.f64, reply);
    this.header = p;
    this.columns = p.columns;
    this.count = p.count;
    this.docs = p.docs >> 2;
    this.scores = p.scores >> 3;
    this.high = BigInt(p.shardIndex) << 32n;
    this.hit = {
      doc: 0,
      score: 0,
      sort: new Array<SortValue>(p.columns.length),
      shardIndex: shardIndex ?? p.shardIndex,
    };
    if (this.count > 0) this.load(0);
  }

  /** The reply's rendered hits, as views of its buffer (none when the shard rendered none). */
  rendered(): RenderedHits | undefined {
    return renderedViews(this.views.buf, this.views.base, this.header.rendered);
  }

  /** Moves to the next hit; false when there is none. */
  next(): boolean {
    if (++this.pos >= this.count) return false;
    this.load(this.pos);
    return true;
  }

  private load(i: number): void {
    const v = this.views;
    const hit = this.hit;
    const doc = v.i32[this.docs + i]!;
    hit.doc = doc;
    hit.score = v.f64[this.scores + i]!;
    const sort = hit.sort;
    const columns = this.columns;
    for (let j = 0; j < columns.length; j++) sort[j] = sortValueAt(v, columns[j]!, i, doc, this.high);
  }
}
