/**
 * A scroll page made of hits its shards rendered ahead (the shard's scroll-window.ts): the
 * shards' packed lists are merged in the search's order — the same page a merge of hit objects
 * would cut — and each winner's JSON is copied after its `{"_index":…,` prefix. No hit object
 * is built: a page of a thousand hits leaves almost nothing for the garbage collector.
 */

import type { RawJsonWriter } from '@shoal/protocol';
import { PackedCursor, type PackedReply, type RenderedHits, renderedHits } from '@shoal/shard';
import type { MergeHit } from './merge.ts';

export interface RenderedShard {
  reply: PackedReply;
  shardIndex: number;
  /** The index name the hits are written under. */
  index: string;
}

export interface RenderedPage {
  /** The page's `hits.hits` array as JSON bytes, written where the response needs them. */
  hits: RawJsonWriter;
  /** How many of each shard's hits (by shard index) the page holds. */
  consumed: Map<number, number>;
}

/** The order of the page: for each of its hits, the position in `shards` of the shard it came from. */
function mergeOrder(
  shards: RenderedShard[],
  cmp: (a: MergeHit, b: MergeHit) => number,
  size: number,
): { order: Uint32Array; n: number } {
  const live: PackedCursor[] = [];
  const liveShard: number[] = [];
  let available = 0;
  for (let i = 0; i < shards.length; i++) {
    const c = new PackedCursor(shards[i]!.reply, shards[i]!.shardIndex);
    if (c.count === 0) continue;
    live.push(c);
    liveShard.push(i);
    available += c.count;
  }
  const order = new Uint32Array(Math.min(size, available));
  let n = 0;
  while (n < order.length && live.length > 0) {
    let best = 0;
    for (let i = 1; i < live.length; i++) if (cmp(live[i]!.hit, live[best]!.hit) < 0) best = i;
    order[n++] = liveShard[best]!;
    if (!live[best]!.next()) {
      live.splice(best, 1);
      liveShard.splice(best, 1);
    }
  }
  return { order, n };
}

export function concatRenderedPage(
  shards: RenderedShard[],
  cmp: (a: MergeHit, b: MergeHit) => number,
  size: number,
): RenderedPage {
  const { order, n } = mergeOrder(shards, cmp, size);
  const rendered: RenderedHits[] = shards.map((s) => {
    const r = renderedHits(s.reply);
    if (!r) throw new Error('the shard did not render its scroll hits');
    return r;
  });
  const prefixes = shards.map((s) => Buffer.from(`{"_index":${JSON.stringify(s.index)},`));
  const counts = new Array<number>(shards.length).fill(0);
  for (let i = 0; i < n; i++) counts[order[i]!]!++;
  let bytes = 2 + Math.max(0, n - 1);
  for (let s = 0; s < shards.length; s++) {
    const ends = rendered[s]!.ends;
    bytes += prefixes[s]!.length * counts[s]! + ends[counts[s]!]! - ends[0]!;
  }
  const consumed = new Map<number, number>();
  for (let s = 0; s < shards.length; s++) consumed.set(shards[s]!.shardIndex, counts[s]!);
  return { hits: new PageWriter(bytes, order, n, rendered, prefixes), consumed };
}

/** Writes the page's hits, in merge order, each after its shard's prefix. */
class PageWriter implements RawJsonWriter {
  constructor(
    readonly byteLength: number,
    private readonly order: Uint32Array,
    private readonly n: number,
    private readonly rendered: RenderedHits[],
    private readonly prefixes: Buffer[],
  ) {}

  writeTo(out: Uint8Array, start: number): void {
    const { order, n, rendered, prefixes } = this;
    out[start] = 0x5b; // [
    let at = start + 1;
    const next = new Array<number>(rendered.length).fill(0);
    for (let i = 0; i < n; i++) {
      const s = order[i]!;
      const k = next[s]!++;
      if (i > 0) out[at++] = 0x2c; // ,
      out.set(prefixes[s]!, at);
      at += prefixes[s]!.length;
      const r = rendered[s]!;
      const from = r.ends[k]!;
      const to = r.ends[k + 1]!;
      out.set(r.bytes.subarray(from, to), at);
      at += to - from;
    }
    out[at] = 0x5d; // ]
  }
}
