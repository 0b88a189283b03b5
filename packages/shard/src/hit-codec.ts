/**
 * Partial hits (and, for a small page or a scroll step, their documents) packed into one
 * buffer: bytes cross the thread, not object graphs. A thousand hit objects cost the
 * coordinator a millisecond or more to deserialize; the same hits as typed-array columns cost
 * microseconds. A query reply is packed into one of the thread's reply slots when it fits
 * (reply-slots.ts), otherwise into a buffer of its own that is transferred, never copied.
 *
 * Sort values travel as columns: a `_doc` value is the hit's doc and a `_shard_doc` value is
 * rebuilt from the shard index and the doc, so neither is sent; numbers and longs travel as
 * Float64 / BigInt64 columns; anything else (strings, nulls, mixed) as a plain array. The
 * header (counts, totals, offsets) is numbers at the start of the buffer (packed-header.ts),
 * so a reply is the buffer and, when there are documents, their ids as one string. A task
 * reply carries `bytes` (or `slot`) as a top-level field, so the worker transfers it (worker.ts).
 *
 * A scroll step or a small first page may instead send its hits already rendered
 * (`RenderedHits`): each hit's JSON, `_source` spliced in, which the coordinator only concatenates.
 */
import type { FetchedDocs, ShardFetchResult, ShardHitRef, ShardQueryResult } from '@shoal/engine';
import type { SortValue } from '@shoal/protocol';
import {
  type Column,
  headerBytes,
  type PackedFetch,
  type PackedHits,
  type PackedRendered,
  type PackedReply,
  readHeader,
  writeHeader,
} from './packed-header.ts';
import type { SlotRef, SlotWriter } from './reply-slots.ts';

export type { Column, PackedHits, PackedReply } from './packed-header.ts';

/**
 * Hits rendered as the response writes them, each after a comma (`,{"_index":…}`,
 * hit-render.ts): hit i is `bytes[ends[i], ends[i + 1])`.
 */
export interface RenderedHits {
  bytes: Uint8Array;
  ends: Uint32Array;
}

class Layout {
  size = 0;
  take(bytes: number): number {
    const at = this.size;
    this.size += Math.ceil(bytes / 8) * 8;
    return at;
  }
}

function columnOf(hits: readonly ShardHitRef[], j: number, shardIndex: number, layout: Layout): Column {
  let doc = true;
  let shardDoc = true;
  let f64 = true;
  let i64 = true;
  const high = BigInt(shardIndex) << 32n;
  for (const h of hits) {
    const v = h.sort[j];
    if (typeof v === 'number') {
      shardDoc = i64 = false;
      if (v !== h.doc) doc = false;
    } else if (typeof v === 'bigint') {
      doc = f64 = false;
      if (v !== (high | BigInt(h.doc))) shardDoc = false;
      if (BigInt.asIntN(64, v) !== v) i64 = false;
    } else {
      return { kind: 'values', values: hits.map((x) => x.sort[j] ?? null) };
    }
  }
  if (doc && hits.length > 0) return { kind: 'doc' };
  if (shardDoc && hits.length > 0) return { kind: 'shard_doc' };
  if (f64) return { kind: 'f64', at: layout.take(hits.length * 8) };
  if (i64) return { kind: 'i64', at: layout.take(hits.length * 8) };
  return { kind: 'values', values: hits.map((x) => x.sort[j] ?? null) };
}

export function packHits(
  result: ShardQueryResult,
  shardIndex: number,
  fetched?: ShardFetchResult | FetchedDocs,
  rendered?: RenderedHits,
): PackedReply {
  return pack(result, shardIndex, fetched, rendered, undefined) as PackedReply;
}

/**
 * A reply as it leaves the worker: the packed bytes in a buffer of their own, or in a reply
 * slot (reply-slots.ts) that the coordinator's ShardWorker copies them out of.
 */
export type WirePackedReply = Omit<PackedReply, 'bytes'> & { bytes?: Uint8Array; slot?: SlotRef };

function pack(
  result: ShardQueryResult,
  shardIndex: number,
  fetched: ShardFetchResult | FetchedDocs | undefined,
  rendered: RenderedHits | undefined,
  slots: SlotWriter | undefined,
): WirePackedReply {
  const hits = result.hits;
  const n = hits.length;
  const layout = new Layout();
  const keys = n > 0 ? hits[0]!.sort.length : 0;
  layout.take(headerBytes(keys, fetched !== undefined, rendered !== undefined));
  const scores = layout.take(n * 8);
  const columns: Column[] = new Array(keys);
  for (let j = 0; j < keys; j++) columns[j] = columnOf(hits, j, shardIndex, layout);
  const docs = layout.take(n * 4);
  let fetch: PackedFetch | undefined;
  let ids = '';
  const m = fetched?.ids.length ?? 0;
  if (fetched) {
    ids = fetched.ids.join('');
    fetch = {
      count: m,
      ids,
      idEnds: layout.take(m * 4),
      routing: fetched.routing.some((r) => r !== null) ? fetched.routing : null,
      versions: layout.take(m * 8),
      seqNos: layout.take(m * 8),
      primaryTerms: layout.take(m * 8),
      sourceOffsets: layout.take((m + 1) * 4),
      sourceBytes: layout.take(sourceLengthOf(fetched)),
      sourceLength: sourceLengthOf(fetched),
    };
  }
  let packedRendered: PackedRendered | undefined;
  if (rendered) {
    const count = rendered.ends.length - 1;
    packedRendered = {
      count,
      ends: layout.take((count + 1) * 4),
      bytes: layout.take(rendered.bytes.byteLength),
      length: rendered.bytes.byteLength,
    };
  }
  const claimed = slots?.claim(layout.size);
  // One view per element type over the whole buffer: every offset is 8-byte aligned.
  const v = claimed
    ? new BufferViews(slots!.buffer, claimed.base, layout.size)
    : new BufferViews(new ArrayBuffer(layout.size), 0, layout.size);
  const f64 = v.f64;
  const i32 = v.i32;
  const s = scores >> 3;
  const d = docs >> 2;
  for (let i = 0; i < n; i++) {
    const h = hits[i]!;
    f64[s + i] = h.score;
    i32[d + i] = h.doc;
  }
  for (let j = 0; j < keys; j++) {
    const c = columns[j]!;
    if (c.kind === 'f64') {
      const at = c.at >> 3;
      for (let i = 0; i < n; i++) f64[at + i] = hits[i]!.sort[j] as number;
    } else if (c.kind === 'i64') {
      const col = v.i64();
      const at = c.at >> 3;
      for (let i = 0; i < n; i++) col[at + i] = hits[i]!.sort[j] as bigint;
    }
  }
  if (fetched && fetch) {
    const u32 = v.u32;
    const ends = fetch.idEnds >> 2;
    let end = 0;
    for (let i = 0; i < m; i++) u32[ends + i] = end += fetched.ids[i]!.length;
    f64.set(fetched.versions, fetch.versions >> 3);
    f64.set(fetched.seqNos, fetch.seqNos >> 3);
    f64.set(fetched.primaryTerms, fetch.primaryTerms >> 3);
    if ('sources' in fetched) {
      // Each document's bytes straight into place, their ends beside them.
      const u8 = v.u8;
      const offsets = fetch.sourceOffsets >> 2;
      let at = 0;
      u32[offsets] = 0;
      for (let i = 0; i < m; i++) {
        const piece = fetched.sources[i];
        if (piece) {
          u8.set(piece, fetch.sourceBytes + at);
          at += piece.length;
        }
        u32[offsets + i + 1] = at;
      }
    } else {
      u32.set(fetched.sourceOffsets, fetch.sourceOffsets >> 2);
      v.u8.set(fetched.sourceBytes, fetch.sourceBytes);
    }
  }
  if (rendered && packedRendered) {
    v.u32.set(rendered.ends, packedRendered.ends >> 2);
    v.u8.set(rendered.bytes, packedRendered.bytes);
  }
  const packed: PackedHits = {
    totalHits: result.totalHits,
    totalRelation: result.totalRelation,
    maxScore: result.maxScore,
    count: n,
    shardIndex,
    docs,
    scores,
    columns,
    floatingKeys: result.floatingKeys ?? 0,
  };
  if (hits.some((h) => h.display)) packed.display = hits.map((h) => h.display ?? h.sort);
  if (fetch) packed.fetch = fetch;
  if (packedRendered) packed.rendered = packedRendered;
  const extra = writeHeader(f64, packed);
  const reply: WirePackedReply = claimed ? { slot: claimed.ref } : { bytes: v.u8 };
  if (fetch) reply.ids = ids;
  if (extra) reply.extra = extra;
  if (fetched?.fieldsJson) reply.extra = { ...reply.extra, fields: fetched.fieldsJson };
  if (fetched?.highlight) reply.extra = { ...reply.extra, highlight: fetched.highlight };
  if (fetched?.ignored) reply.extra = { ...reply.extra, ignored: fetched.ignored };
  if (fetched?.matched) reply.extra = { ...reply.extra, matched: fetched.matched };
  return reply;
}

function sourceLengthOf(fetched: ShardFetchResult | FetchedDocs): number {
  return 'sources' in fetched ? fetched.sourceLength : fetched.sourceBytes.byteLength;
}

/** The header of packed hits. */
export function packedHeader(reply: PackedReply): PackedHits {
  return readHeader(BufferViews.of(reply.bytes).f64, reply);
}

export function unpackHits(reply: PackedReply): {
  result: ShardQueryResult;
  fetched?: ShardFetchResult;
  rendered?: RenderedHits;
} {
  const v = BufferViews.of(reply.bytes);
  const p = readHeader(v.f64, reply);
  const { buf, base } = v;
  const n = p.count;
  const i32 = v.i32;
  const f64 = v.f64;
  const d = p.docs >> 2;
  const s = p.scores >> 3;
  const high = BigInt(p.shardIndex) << 32n;
  const columns = p.columns;
  const keys = columns.length;
  const hits: ShardHitRef[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const doc = i32[d + i]!;
    const sort: SortValue[] = new Array(keys);
    for (let j = 0; j < keys; j++) sort[j] = sortValueAt(v, columns[j]!, i, doc, high);
    // Tagged with its shard here, in the object's first shape: the coordinator's merge reads
    // `shardIndex`, and adding it later would move every hit to a new hidden class.
    const hit: ShardHitRef & { shardIndex: number } = {
      doc,
      score: f64[s + i]!,
      sort,
      shardIndex: p.shardIndex,
    };
    if (p.display) hit.display = p.display[i]!;
    hits[i] = hit;
  }
  const result: ShardQueryResult = {
    totalHits: p.totalHits,
    totalRelation: p.totalRelation,
    maxScore: p.maxScore,
    hits,
  };
  if (p.floatingKeys !== 0) result.floatingKeys = p.floatingKeys;
  const rendered = renderedViews(buf, base, p.rendered);
  const f = p.fetch;
  if (!f) return rendered ? { result, rendered } : { result };
  const m = f.count;
  const u32 = v.u32;
  const idEnds = f.idEnds >> 2;
  const ids: string[] = new Array(m);
  let start = 0;
  for (let i = 0; i < m; i++) {
    const end = u32[idEnds + i]!;
    ids[i] = f.ids.slice(start, end);
    start = end;
  }
  const fetched: ShardFetchResult = {
    ids,
    routing: f.routing ?? new Array(m).fill(null),
    versions: numbers(f64, f.versions, m),
    seqNos: numbers(f64, f.seqNos, m),
    primaryTerms: numbers(f64, f.primaryTerms, m),
    sourceBytes: new Uint8Array(buf, base + f.sourceBytes, f.sourceLength),
    sourceOffsets: new Uint32Array(buf, base + f.sourceOffsets, m + 1),
  };
  if (reply.extra?.fields) fetched.fieldsJson = reply.extra.fields;
  if (reply.extra?.highlight) fetched.highlight = reply.extra.highlight;
  if (reply.extra?.ignored) fetched.ignored = reply.extra.ignored;
  if (reply.extra?.matched) fetched.matched = reply.extra.matched;
  return rendered ? { result, fetched, rendered } : { result, fetched };
}

/** The rendered hits of a packed reply (its header's `rendered`), as views of its buffer. */
export function renderedViews(
  buf: ArrayBufferLike,
  base: number,
  r: PackedRendered | undefined,
): RenderedHits | undefined {
  return (
    r && {
      bytes: new Uint8Array(buf, base + r.bytes, r.length),
      ends: new Uint32Array(buf, base + r.ends, r.count + 1),
    }
  );
}

/** Hit i's value in a sort column (`high` is the shard index shifted for `_shard_doc`). */
export function sortValueAt(v: BufferViews, c: Column, i: number, doc: number, high: bigint): SortValue {
  switch (c.kind) {
    case 'doc':
      return doc;
    case 'shard_doc':
      return high | BigInt(doc);
    case 'f64':
      return v.f64[(c.at >> 3) + i]!;
    case 'i64':
      return v.i64()[(c.at >> 3) + i]!;
    default:
      return c.values[i] ?? null;
  }
}

/** m Float64 values at byte offset `at`, as a plain array. */
function numbers(f64: Float64Array, at: number, m: number): number[] {
  const out: number[] = new Array(m);
  const from = at >> 3;
  for (let i = 0; i < m; i++) out[i] = f64[from + i]!;
  return out;
}

/**
 * Typed views over a packed buffer, one per element type, indexed from the buffer's start:
 * element type T at byte offset `at` is `view[at / T.BYTES_PER_ELEMENT]`.
 */
export class BufferViews {
  readonly f64: Float64Array;
  readonly i32: Int32Array;
  private _u32: Uint32Array | undefined;
  private _u8: Uint8Array | undefined;
  private _i64: BigInt64Array | undefined;

  constructor(
    readonly buf: ArrayBufferLike,
    readonly base: number,
    readonly length: number,
  ) {
    this.f64 = new Float64Array(buf, base, length >> 3);
    this.i32 = new Int32Array(buf, base, length >> 2);
  }

  /** Views of received bytes (copied first in the unlikely case they are not 8-byte aligned). */
  static of(bytes: Uint8Array): BufferViews {
    if (bytes.byteOffset % 8 === 0 && bytes.byteLength % 8 === 0)
      return new BufferViews(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    const copy = new Uint8Array(Math.ceil(bytes.byteLength / 8) * 8);
    copy.set(bytes);
    return new BufferViews(copy.buffer, 0, copy.byteLength);
  }

  get u32(): Uint32Array {
    this._u32 ??= new Uint32Array(this.buf, this.base, this.length >> 2);
    return this._u32;
  }

  get u8(): Uint8Array {
    this._u8 ??= new Uint8Array(this.buf, this.base, this.length);
    return this._u8;
  }

  i64(): BigInt64Array {
    this._i64 ??= new BigInt64Array(this.buf, this.base, this.length >> 3);
    return this._i64;
  }
}

/** A query task's reply: its hits packed, and the partial aggregations beside them. */
export function packedQueryReply(
  result: ShardQueryResult,
  shardIndex: number,
  fetched?: ShardFetchResult | FetchedDocs,
  slots?: SlotWriter,
  /** The first hits rendered (a small first page's, hit-render.ts renderPage). */
  rendered?: RenderedHits,
): WirePackedReply & Pick<ShardQueryResult, 'aggregations' | 'collapseValues' | 'terminatedEarly'> {
  const reply: WirePackedReply &
    Pick<ShardQueryResult, 'aggregations' | 'collapseValues' | 'terminatedEarly'> = pack(
    result,
    shardIndex,
    fetched,
    rendered,
    slots,
  );
  if (result.aggregations !== undefined) reply.aggregations = result.aggregations;
  if (result.collapseValues !== undefined) reply.collapseValues = result.collapseValues;
  if (result.terminatedEarly !== undefined) reply.terminatedEarly = result.terminatedEarly;
  return reply;
}
