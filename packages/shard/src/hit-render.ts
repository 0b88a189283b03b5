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

/**
 * Where rendered JSON goes: a buffer that grows (`room`), written with text, stored `_source`
 * bytes copied as they are, and the few bytes of the constants a hit is made of (`shortBytes`).
 */
export abstract class HitSink {
  buf: Buffer;
  end = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Makes room for `n` more bytes after `end` (may move them: `buf` and `end` are read after). */
  protected abstract room(n: number): void;

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

  /** A few bytes (a constant, a prefix): copied a byte at a time, cheaper than a native copy. */
  shortBytes(b: Uint8Array): void {
    const n = b.length;
    if (this.end + n > this.buf.length) this.room(n);
    const buf = this.buf;
    let at = this.end;
    for (let i = 0; i < n; i++) buf[at++] = b[i]!;
    this.end = at;
  }

  /** `s` as a JSON string, quotes included (jsonString's text, written without building it). */
  jsonString(s: string): void {
    const n = s.length;
    if (this.end + n * 3 + 2 > this.buf.length) this.room(n * 3 + 2);
    const buf = this.buf;
    const start = this.end;
    let at = start;
    buf[at++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // Escapes and non-ASCII text: jsonString writes those.
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x80) {
        this.end = start;
        this.text(jsonString(s));
        return;
      }
      buf[at++] = c;
    }
    buf[at++] = 0x22;
    this.end = at;
  }
}

/** The constant parts of a hit, as bytes (HitSink.shortBytes). */
const ID = Buffer.from('"_id":');
const VERSION = Buffer.from('"_version":');
const SEQ_NO = Buffer.from('"_seq_no":');
const PRIMARY_TERM = Buffer.from(',"_primary_term":');
const SCORE = Buffer.from('"_score":');
const ROUTING = Buffer.from(',"_routing":');
const IGNORED = Buffer.from(',"_ignored":');
const SOURCE = Buffer.from(',"_source":');
const HIGHLIGHT = Buffer.from(',"highlight":');
const SORT = Buffer.from(',"sort":[');
const COMMA = Buffer.from(',');
const SORT_END = Buffer.from(']}');
const SORT_CLOSE = Buffer.from(']');
const MATCHED = Buffer.from(',"matched_queries":');
const END = Buffer.from('}');

export type HitFetch = Omit<ShardFetchRequest, 'docs'>;

/** What a hit is rendered from: a fetch result, its `_source` bytes given on their own. */
type HitDocs = Omit<ShardFetchResult, 'sourceBytes' | 'sourceOffsets'>;

/** Document i's `_source` bytes in a fetch result (empty when it has none). */
export function sourceOf(f: ShardFetchResult, i: number): Uint8Array {
  return f.sourceBytes.subarray(f.sourceOffsets[i]!, f.sourceOffsets[i + 1]!);
}

/** What every hit of an index starts with: `,{"_index":<name>,` (UTF-8). */
export function hitPrefix(index: string): Uint8Array {
  return Buffer.from(`,{"_index":${jsonString(index)},`);
}

/**
 * Appends hit `i` of a fetch (`hit` is its query-phase entry, `source` its `_source` bytes),
 * after `prefix` (hitPrefix).
 */
export function renderHit(
  out: HitSink,
  /** hitPrefix(index). */
  prefix: Uint8Array,
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
  // Written piece by piece: the constants as bytes, the strings straight into the buffer.
  const storedNone = fetch.fields?.storedNone === true;
  out.shortBytes(prefix);
  if (!storedNone) {
    out.shortBytes(ID);
    out.jsonString(f.ids[i]!);
    out.shortBytes(COMMA);
  }
  if (fetch.version) {
    out.shortBytes(VERSION);
    out.text(jsonScalar(f.versions[i]!));
    out.shortBytes(COMMA);
  }
  if (fetch.seqNoPrimaryTerm) {
    out.shortBytes(SEQ_NO);
    out.text(jsonScalar(f.seqNos[i]!));
    out.shortBytes(PRIMARY_TERM);
    out.text(jsonScalar(f.primaryTerms[i]!));
    out.shortBytes(COMMA);
  }
  out.shortBytes(SCORE);
  out.text(scoreJson(hit.score));
  const routing = f.routing[i];
  if (routing !== null && routing !== undefined && !storedNone) {
    out.shortBytes(ROUTING);
    out.jsonString(routing);
  }
  const ignored = f.ignored?.[i];
  if (ignored) {
    out.shortBytes(IGNORED);
    out.text(JSON.stringify(ignored));
  }
  if (fetch.source.enabled && source !== undefined && source.length > 0) {
    out.shortBytes(SOURCE);
    out.bytes(source);
  }
  if (f.fieldsJson) out.text(f.fieldsJson[i]!);
  const highlight = f.highlight?.[i];
  if (highlight) {
    out.shortBytes(HIGHLIGHT);
    out.text(highlight);
  }
  const matched = f.matched?.[i];
  if (withSort) {
    out.shortBytes(SORT);
    out.text(sortValuesJson(hit.display ?? hit.sort, floatingKeys));
    if (!matched) {
      out.shortBytes(SORT_END);
      return;
    }
    out.shortBytes(SORT_CLOSE);
  }
  if (matched) {
    out.shortBytes(MATCHED);
    out.text(matched);
  }
  out.shortBytes(END);
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
class PageSink extends HitSink {
  constructor() {
    super(16 * 1024);
  }

  protected room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.end + n));
    this.buf.copy(next, 0, 0, this.end);
    this.buf = next;
  }
}

/** A buffer that grew past this for a large page is not kept for the next one. */
const REUSED_MAX_BYTES = 1024 * 1024;
let reused: PageSink | undefined;
/** The last index's hit prefix: a thread's pages are nearly always of one index. */
let lastPrefix: { index: string; bytes: Uint8Array } | undefined;

function prefixOf(index: string): Uint8Array {
  if (lastPrefix?.index !== index) lastPrefix = { index, bytes: hitPrefix(index) };
  return lastPrefix.bytes;
}

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
  const prefix = prefixOf(index);
  for (let i = 0; i < n; i++) {
    renderHit(sink, prefix, hits[i]!, docs, i, docs.sources[i], fetch, withSort, floatingKeys);
    ends[i + 1] = sink.end;
  }
  if (sink.buf.length > REUSED_MAX_BYTES) reused = undefined;
  return { bytes: sink.buf.subarray(0, sink.end), ends };
}
