/**
 * A hit's JSON as the response writes it, from `"_id"` on (the coordinator writes the
 * `{"_index":…,` before it): `_id`, `_version`, `_seq_no`, `_primary_term`, `_score`,
 * `_routing`, `_source` (its stored bytes, never parsed), `sort` — the fields, order and number
 * formats of the coordinator's own hits renderer. Shards render the hits of scroll steps ahead
 * (scroll-window.ts) and the prefetched documents of small first pages.
 */
import type { ShardFetchRequest, ShardFetchResult, ShardHitRef } from '@shoal/engine';
import { jsonScalar, jsonString } from '@shoal/protocol';
import type { RenderedHits } from './hit-codec.ts';

/** Where rendered JSON goes: text, and stored `_source` bytes copied as they are. */
export interface HitSink {
  text(s: string): void;
  bytes(b: Uint8Array): void;
}

export type HitFetch = Omit<ShardFetchRequest, 'docs'>;

/** Appends hit `i` of a fetch (`hit` is its query-phase entry). */
export function renderHit(
  out: HitSink,
  hit: ShardHitRef,
  f: ShardFetchResult,
  i: number,
  fetch: HitFetch,
  withSort: boolean,
): void {
  let text = `"_id":${jsonString(f.ids[i]!)}`;
  if (fetch.version) text += `,"_version":${jsonScalar(f.versions[i]!)}`;
  if (fetch.seqNoPrimaryTerm) {
    text += `,"_seq_no":${jsonScalar(f.seqNos[i]!)},"_primary_term":${jsonScalar(f.primaryTerms[i]!)}`;
  }
  text += `,"_score":${Number.isNaN(hit.score) ? 'null' : jsonScalar(hit.score)}`;
  const routing = f.routing[i];
  if (routing !== null && routing !== undefined) text += `,"_routing":${jsonString(routing)}`;
  const s0 = f.sourceOffsets[i]!;
  const s1 = f.sourceOffsets[i + 1]!;
  if (fetch.source.enabled && f.sourceBytes.length > 0 && s1 > s0) {
    out.text(`${text},"_source":`);
    out.bytes(f.sourceBytes.subarray(s0, s1));
    text = '';
  }
  if (withSort) text += `,"sort":[${(hit.display ?? hit.sort).map(jsonScalar).join(',')}]`;
  out.text(`${text}}`);
}

/** A growing buffer that rendered hits are appended to. */
class Bytes implements HitSink {
  buf: Buffer;
  end = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  private room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.end + n));
    this.buf.copy(next, 0, 0, this.end);
    this.buf = next;
  }

  text(s: string): void {
    // ASCII text (nearly everything written here) is 1 byte a char; anything else at most 3.
    this.room(s.length * 3);
    this.end += this.buf.write(s, this.end, 'utf8');
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.end);
    this.end += b.length;
  }
}

/** The first `f.ids.length` hits, each after the other: hit i is `bytes[ends[i], ends[i + 1])`. */
export function renderHits(
  hits: readonly ShardHitRef[],
  f: ShardFetchResult,
  fetch: HitFetch,
  withSort: boolean,
): RenderedHits {
  const n = f.ids.length;
  const out = new Bytes(f.sourceBytes.length + n * 96 + 64);
  const ends = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    renderHit(out, hits[i]!, f, i, fetch, withSort);
    ends[i + 1] = out.end;
  }
  return { bytes: out.buf.subarray(0, out.end), ends };
}
