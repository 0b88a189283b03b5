/**
 * A page made of hits its shards rendered — a scroll step's, read ahead (the shard's
 * scroll-window.ts), or a small first page's (hit-render.ts renderPage): the shards' packed
 * lists are merged in the search's order — the same page a merge of hit objects would cut —
 * and each winner's JSON (its `_index` included) is copied. No hit object is built: a
 * page of a thousand hits leaves almost nothing for the garbage collector.
 */

import type { RawJsonWriter } from '@shoal/protocol';
import type { PackedCursor, RenderedHits } from '@shoal/shard';
import type { MergeHit } from './merge.ts';

export class RenderedPage {
  constructor(
    /** The page's `hits.hits` array as JSON bytes, written where the response needs them. */
    readonly hits: RawJsonWriter,
    private readonly cursors: PackedCursor[],
    private readonly counts: number[],
  ) {}

  /** How many of each shard's hits (by shard index) the page holds (a scroll's next step needs it). */
  get consumed(): Map<number, number> {
    const consumed = new Map<number, number>();
    for (let s = 0; s < this.cursors.length; s++)
      consumed.set(this.cursors[s]!.hit.shardIndex, this.counts[s]!);
    return consumed;
  }
}

/** The order of the page: for each of its hits, the position in `cursors` of the shard it came from. */
function mergeOrder(
  cursors: PackedCursor[],
  cmp: (a: MergeHit, b: MergeHit) => number,
  size: number,
): { order: Uint32Array; n: number } {
  const live: PackedCursor[] = [];
  const liveShard: number[] = [];
  let available = 0;
  for (let i = 0; i < cursors.length; i++) {
    const c = cursors[i]!;
    if (c.count === 0) continue;
    live.push(c);
    liveShard.push(i);
    available += c.count;
  }
  const order = new Uint32Array(Math.min(size, available));
  let n = 0;
  let alive = live.length;
  while (n < order.length && alive > 0) {
    let best = 0;
    for (let i = 1; i < alive; i++) if (cmp(live[i]!.hit, live[best]!.hit) < 0) best = i;
    order[n++] = liveShard[best]!;
    if (!live[best]!.next()) {
      // The comparator orders every pair (ties by shard, then doc): the cursors' order is free.
      alive--;
      live[best] = live[alive]!;
      liveShard[best] = liveShard[alive]!;
    }
  }
  return { order, n };
}

const NO_HITS: RenderedHits = { bytes: new Uint8Array(0), ends: new Uint32Array(1) };

/**
 * The page of `size` hits merged from shards that rendered their hits (a scroll step, a small
 * first page). A shard with hits must have rendered every hit the page may take from it.
 */
export function concatRenderedPage(
  /** One per shard, each at its reply's first hit (and tagged with its shard index). */
  cursors: PackedCursor[],
  cmp: (a: MergeHit, b: MergeHit) => number,
  size: number,
): RenderedPage {
  const { order, n } = mergeOrder(cursors, cmp, size);
  const rendered: RenderedHits[] = cursors.map((c) => {
    if (c.count === 0) return NO_HITS;
    const r = c.rendered();
    if (!r) throw new Error('the shard did not render its hits');
    return r;
  });
  const counts = new Array<number>(cursors.length).fill(0);
  for (let i = 0; i < n; i++) counts[order[i]!]!++;
  // `[`, `]`, and each hit with its leading comma but the first.
  let bytes = n === 0 ? 2 : 1;
  for (let s = 0; s < cursors.length; s++) {
    const ends = rendered[s]!.ends;
    if (counts[s]! > ends.length - 1) throw new Error('the shard rendered fewer hits than the page takes');
    bytes += ends[counts[s]!]! - ends[0]!;
  }
  return new RenderedPage(new PageWriter(bytes, order, n, rendered), cursors, counts);
}

/**
 * Writes the page's hits in merge order: each run of one shard's consecutive hits is one copy
 * (hits carry their leading comma; the page's first one is dropped).
 */
class PageWriter implements RawJsonWriter {
  constructor(
    readonly byteLength: number,
    private readonly order: Uint32Array,
    private readonly n: number,
    private readonly rendered: RenderedHits[],
  ) {}

  writeTo(out: Uint8Array, start: number): void {
    const { order, n, rendered } = this;
    out[start] = 0x5b; // [
    let at = start + 1;
    const next = new Array<number>(rendered.length).fill(0);
    let i = 0;
    while (i < n) {
      const s = order[i]!;
      let j = i + 1;
      while (j < n && order[j] === s) j++;
      const r = rendered[s]!;
      const k = next[s]!;
      next[s] = k + j - i;
      const from = r.ends[k]! + (i === 0 ? 1 : 0);
      const to = r.ends[k + j - i]!;
      out.set(r.bytes.subarray(from, to), at);
      at += to - from;
      i = j;
    }
    out[at] = 0x5d; // ]
  }
}
