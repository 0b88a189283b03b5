/**
 * Partial hits (and, for a scroll step, their documents) packed into one transferable buffer:
 * bytes cross the thread, not object graphs. A thousand hit objects cost the coordinator a
 * millisecond or more to deserialize; the same hits as typed-array columns cost microseconds,
 * and the buffer is transferred, never copied.
 *
 * Sort values travel as columns: a `_doc` value is the hit's doc and a `_shard_doc` value is
 * rebuilt from the shard index and the doc, so neither is sent; numbers and longs travel as
 * Float64 / BigInt64 columns; anything else (strings, nulls, mixed) as a plain array.
 */
import type { ShardFetchResult, ShardHitRef, ShardQueryResult } from '@shoal/engine';
import type { SortValue } from '@shoal/protocol';

type Column =
  | { kind: 'doc' }
  | { kind: 'shard_doc' }
  | { kind: 'f64'; at: number }
  | { kind: 'i64'; at: number }
  | { kind: 'values'; values: SortValue[] };

interface PackedFetch {
  /** The documents of the first `count` hits (a scroll step may prefetch only some). */
  count: number;
  ids: string;
  idEnds: number;
  routing: (string | null)[] | null;
  versions: number;
  seqNos: number;
  primaryTerms: number;
  sourceOffsets: number;
  sourceBytes: number;
  sourceLength: number;
}

export interface PackedHits {
  totalHits: number;
  totalRelation: 'eq' | 'gte';
  maxScore: number;
  count: number;
  shardIndex: number;
  docs: number;
  scores: number;
  columns: Column[];
  display?: SortValue[][];
  fetch?: PackedFetch;
}

/**
 * Packed hits and their buffer. A task reply carries `bytes` as a top-level field, so the
 * worker transfers it (see worker.ts `transferables`).
 */
export interface PackedReply {
  hits: PackedHits;
  /** Every column, at the byte offsets `hits` names (8-byte aligned). */
  bytes: Uint8Array;
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
  fetched?: ShardFetchResult,
): PackedReply {
  const hits = result.hits;
  const n = hits.length;
  const layout = new Layout();
  const scores = layout.take(n * 8);
  const keys = n > 0 ? hits[0]!.sort.length : 0;
  const columns = Array.from({ length: keys }, (_, j) => columnOf(hits, j, shardIndex, layout));
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
      sourceBytes: layout.take(fetched.sourceBytes.byteLength),
      sourceLength: fetched.sourceBytes.byteLength,
    };
  }
  const buf = new ArrayBuffer(layout.size);
  const f64 = (at: number) => new Float64Array(buf, at, n);
  const s = f64(scores);
  const d = new Int32Array(buf, docs, n);
  for (let i = 0; i < n; i++) {
    s[i] = hits[i]!.score;
    d[i] = hits[i]!.doc;
  }
  columns.forEach((c, j) => {
    if (c.kind === 'f64') {
      const col = f64(c.at);
      for (let i = 0; i < n; i++) col[i] = hits[i]!.sort[j] as number;
    } else if (c.kind === 'i64') {
      const col = new BigInt64Array(buf, c.at, n);
      for (let i = 0; i < n; i++) col[i] = hits[i]!.sort[j] as bigint;
    }
  });
  if (fetched && fetch) {
    const ends = new Uint32Array(buf, fetch.idEnds, m);
    let end = 0;
    for (let i = 0; i < m; i++) ends[i] = end += fetched.ids[i]!.length;
    new Float64Array(buf, fetch.versions, m).set(fetched.versions);
    new Float64Array(buf, fetch.seqNos, m).set(fetched.seqNos);
    new Float64Array(buf, fetch.primaryTerms, m).set(fetched.primaryTerms);
    new Uint32Array(buf, fetch.sourceOffsets, m + 1).set(fetched.sourceOffsets);
    new Uint8Array(buf, fetch.sourceBytes, fetch.sourceLength).set(fetched.sourceBytes);
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
  };
  if (hits.some((h) => h.display)) packed.display = hits.map((h) => h.display ?? h.sort);
  if (fetch) packed.fetch = fetch;
  return { hits: packed, bytes: new Uint8Array(buf) };
}

export function unpackHits(reply: PackedReply): { result: ShardQueryResult; fetched?: ShardFetchResult } {
  const p = reply.hits;
  const buf = reply.bytes.buffer;
  const base = reply.bytes.byteOffset;
  const n = p.count;
  const docs = new Int32Array(buf, base + p.docs, n);
  const scores = new Float64Array(buf, base + p.scores, n);
  const high = BigInt(p.shardIndex) << 32n;
  const cols = p.columns.map((c): ((i: number) => SortValue) => {
    switch (c.kind) {
      case 'doc':
        return (i) => docs[i]!;
      case 'shard_doc':
        return (i) => high | BigInt(docs[i]!);
      case 'f64': {
        const a = new Float64Array(buf, base + c.at, n);
        return (i) => a[i]!;
      }
      case 'i64': {
        const a = new BigInt64Array(buf, base + c.at, n);
        return (i) => a[i]!;
      }
      default:
        return (i) => c.values[i] ?? null;
    }
  });
  const hits: ShardHitRef[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const sort: SortValue[] = new Array(cols.length);
    for (let j = 0; j < cols.length; j++) sort[j] = cols[j]!(i);
    const hit: ShardHitRef = { doc: docs[i]!, score: scores[i]!, sort };
    if (p.display) hit.display = p.display[i]!;
    hits[i] = hit;
  }
  const result: ShardQueryResult = {
    totalHits: p.totalHits,
    totalRelation: p.totalRelation,
    maxScore: p.maxScore,
    hits,
  };
  const f = p.fetch;
  if (!f) return { result };
  const m = f.count;
  const ends = new Uint32Array(buf, base + f.idEnds, m);
  const ids: string[] = new Array(m);
  let start = 0;
  for (let i = 0; i < m; i++) {
    ids[i] = f.ids.slice(start, ends[i]);
    start = ends[i]!;
  }
  const f64 = (at: number) => Array.from(new Float64Array(buf, base + at, m));
  const fetched: ShardFetchResult = {
    ids,
    routing: f.routing ?? new Array(m).fill(null),
    versions: f64(f.versions),
    seqNos: f64(f.seqNos),
    primaryTerms: f64(f.primaryTerms),
    sourceBytes: new Uint8Array(buf, base + f.sourceBytes, f.sourceLength),
    sourceOffsets: new Uint32Array(buf, base + f.sourceOffsets, m + 1),
  };
  return { result, fetched };
}

/** A query task's reply with its hits packed (`result.hits` left empty). */
export function packedQueryReply(
  result: ShardQueryResult,
  shardIndex: number,
): { result: ShardQueryResult; packed: PackedHits; bytes: Uint8Array } {
  const { hits, bytes } = packHits(result, shardIndex);
  return { result: { ...result, hits: [] }, packed: hits, bytes };
}
