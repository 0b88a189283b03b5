/**
 * A hit's JSON as the response writes it, after a comma (`,{"_index":…}`: the coordinator
 * drops the page's first comma and copies runs of one shard's consecutive hits at once):
 * `_index`, `_id`, `_version`, `_seq_no`, `_primary_term`, `_score`, `_routing`, `_source`
 * (its stored bytes, never parsed), `fields`, `highlight`, `sort` — the fields, order and
 * number formats of the coordinator's own hits renderer (its hits-json.ts).
 * Shards render the hits of scroll steps ahead (scroll-window.ts) and the hits of a small first
 * page (renderPage), which the coordinator then only concatenates.
 */
import type { FetchedDocs, ShardFetchRequest, ShardFetchResult, ShardHitRef } from '@shoal/engine';
import { jsonScalar, jsonString, scoreJson, sortValuesJson } from '@shoal/protocol';
import type { RenderedHits } from './hit-codec.ts';

/** Where rendered JSON goes: text, and stored `_source` bytes copied as they are. */
export interface HitSink {
  text(s: string): void;
  bytes(b: Uint8Array): void;
}

export type HitFetch = Omit<ShardFetchRequest, 'docs'>;

/** What a hit is rendered from: a fetch result, its `_source` bytes given on their own. */
type HitDocs = Omit<ShardFetchResult, 'sourceBytes' | 'sourceOffsets'>;

/** Document i's `_source` bytes in a fetch result (empty when it has none). */
export function sourceOf(f: ShardFetchResult, i: number): Uint8Array {
  return f.sourceBytes.subarray(f.sourceOffsets[i]!, f.sourceOffsets[i + 1]!);
}

/** What every hit of an index starts with: `,{"_index":<name>,`. */
export function hitPrefix(index: string): string {
  return `,{"_index":${jsonString(index)},`;
}

/**
 * Appends hit `i` of a fetch (`hit` is its query-phase entry, `source` its `_source` bytes),
 * after `prefix` (hitPrefix).
 */
export function renderHit(
  out: HitSink,
  prefix: string,
  hit: ShardHitRef,
  f: HitDocs,
  i: number,
  source: Uint8Array | undefined,
  fetch: HitFetch,
  withSort: boolean,
  /** Bit k set: sort value k is written as a Java float or double (ShardQueryResult.floatingKeys). */
  floatingKeys: number,
): void {
  // `stored_fields: _none_` leaves out the hit's identity: `_id` and `_routing`.
  // Written piece by piece: the sink copies each flat string as it is, where a concatenation
  // would have to be flattened first.
  const storedNone = fetch.fields?.storedNone === true;
  out.text(prefix);
  if (!storedNone) {
    out.text('"_id":');
    out.text(jsonString(f.ids[i]!));
    out.text(',');
  }
  if (fetch.version) {
    out.text('"_version":');
    out.text(jsonScalar(f.versions[i]!));
    out.text(',');
  }
  if (fetch.seqNoPrimaryTerm) {
    out.text('"_seq_no":');
    out.text(jsonScalar(f.seqNos[i]!));
    out.text(',"_primary_term":');
    out.text(jsonScalar(f.primaryTerms[i]!));
    out.text(',');
  }
  out.text('"_score":');
  out.text(scoreJson(hit.score));
  const routing = f.routing[i];
  if (routing !== null && routing !== undefined && !storedNone) {
    out.text(',"_routing":');
    out.text(jsonString(routing));
  }
  if (fetch.source.enabled && source !== undefined && source.length > 0) {
    out.text(',"_source":');
    out.bytes(source);
  }
  if (f.fieldsJson) out.text(f.fieldsJson[i]!);
  const highlight = f.highlight?.[i];
  if (highlight) {
    out.text(',"highlight":');
    out.text(highlight);
  }
  if (withSort) {
    out.text(',"sort":[');
    out.text(sortValuesJson(hit.display ?? hit.sort, floatingKeys));
    out.text(']');
  }
  out.text('}');
}

/**
 * Writes `s` as UTF-8 at `at` (room for 3 bytes a char is there); returns the end. The text
 * around the sources is short and nearly always ASCII: copied a char at a time, it costs less
 * than a native UTF-8 write each (the rest of a non-ASCII text is one).
 */
export function writeText(buf: Buffer, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return at + buf.write(i === 0 ? s : s.slice(i), at, 'utf8');
    buf[at++] = c;
  }
  return at;
}

/**
 * One page's rendered hits, written into a buffer this thread reuses: the bytes are valid until
 * the next call (the reply packing copies them at once).
 */
class PageSink implements HitSink {
  buf = Buffer.allocUnsafe(16 * 1024);
  end = 0;

  private room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.end + n));
    this.buf.copy(next, 0, 0, this.end);
    this.buf = next;
  }

  text(s: string): void {
    const n = s.length;
    if (this.end + n * 3 > this.buf.length) this.room(n * 3);
    this.end = writeText(this.buf, this.end, s);
  }

  bytes(b: Uint8Array): void {
    if (this.end + b.length > this.buf.length) this.room(b.length);
    this.buf.set(b, this.end);
    this.end += b.length;
  }
}

/** A buffer that grew past this for a large page is not kept for the next one. */
const REUSED_MAX_BYTES = 1024 * 1024;
let reused: PageSink | undefined;

/** Renders the first `docs.ids.length` of `hits`, whose documents `docs` holds in order. */
export function renderPage(
  index: string,
  hits: readonly ShardHitRef[],
  docs: FetchedDocs,
  fetch: HitFetch,
  withSort: boolean,
  floatingKeys: number,
): RenderedHits {
  const sink = reused ?? new PageSink();
  reused = sink;
  sink.end = 0;
  const n = docs.ids.length;
  const ends = new Uint32Array(n + 1);
  const prefix = hitPrefix(index);
  for (let i = 0; i < n; i++) {
    renderHit(sink, prefix, hits[i]!, docs, i, docs.sources[i], fetch, withSort, floatingKeys);
    ends[i + 1] = sink.end;
  }
  if (sink.buf.length > REUSED_MAX_BYTES) reused = undefined;
  return { bytes: sink.buf.subarray(0, sink.end), ends };
}
