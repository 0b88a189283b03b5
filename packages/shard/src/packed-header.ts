/**
 * The header of packed hits (hit-codec.ts), written as Float64 slots at the start of the
 * reply's buffer instead of as an object beside it. A structured-clone object costs the
 * receiving thread a lookup per property name and a map transition per property; read from
 * slots, the same thirty-odd numbers cost a few array reads. What numbers cannot carry (sort
 * values that are strings, display values, routing, the ids) travels beside the buffer.
 *
 * Slots: totalHits, relation (0 eq, 1 gte), maxScore, count, shardIndex, docs, scores, the
 * number of sort columns, whether there is a fetch and whether there are rendered hits, the
 * floating-point sort keys (a bit mask, ShardQueryResult.floatingKeys); then
 * two per column (kind, byte offset); then the fetch's eight, then the rendered hits' four.
 */
import type { SortValue } from '@shoal/protocol';

export type Column =
  | { kind: 'doc' }
  | { kind: 'shard_doc' }
  | { kind: 'f64'; at: number }
  | { kind: 'i64'; at: number }
  | { kind: 'values'; values: SortValue[] };

export interface PackedFetch {
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

export interface PackedRendered {
  count: number;
  ends: number;
  bytes: number;
  length: number;
}

/** The header, decoded. */
export interface PackedHits {
  totalHits: number;
  totalRelation: 'eq' | 'gte';
  maxScore: number;
  count: number;
  shardIndex: number;
  docs: number;
  scores: number;
  columns: Column[];
  /** ShardQueryResult.floatingKeys (0: none). */
  floatingKeys: number;
  display?: SortValue[][];
  fetch?: PackedFetch;
  rendered?: PackedRendered;
}

/** What travels beside the buffer when numbers cannot carry it. */
export interface PackedExtra {
  /** The values of each `values` column, by column index. */
  values?: Record<number, SortValue[]>;
  /** Formatted sort values (`format` on a date sort), one list per hit. */
  display?: SortValue[][];
  /** The fetched documents' routing, when one has any. */
  routing?: (string | null)[];
  /** The fetched documents' `fields` JSON (ShardFetchResult.fieldsJson). */
  fields?: string[];
  /** The fetched documents' highlights (ShardFetchResult.highlight). */
  highlight?: (string | null)[];
  /** The fetched documents' `matched_queries` JSON (ShardFetchResult.matched). */
  matched?: (string | null)[];
  /** The fetched documents' `_ignored` field names (ShardFetchResult.ignored). */
  ignored?: (string[] | null)[];
}

/** Packed hits as they cross the thread. */
export interface PackedReply {
  /** The header (these slots), then the columns and documents at the offsets it names. */
  bytes: Uint8Array;
  /** The fetched documents' ids, one after another (their ends are in `bytes`). */
  ids?: string;
  extra?: PackedExtra;
}

const FIXED = 11;
const FETCH_SLOTS = 8;
const RENDERED_SLOTS = 4;
const KINDS = ['doc', 'shard_doc', 'f64', 'i64', 'values'] as const;

/** Bytes the header takes (a multiple of 8). */
export function headerBytes(columns: number, fetch: boolean, rendered: boolean): number {
  return 8 * (FIXED + 2 * columns + (fetch ? FETCH_SLOTS : 0) + (rendered ? RENDERED_SLOTS : 0));
}

/** Writes `p`'s header into `f64` from slot 0; returns what must travel beside the buffer. */
export function writeHeader(f64: Float64Array, p: PackedHits): PackedExtra | undefined {
  let extra: PackedExtra | undefined;
  f64[0] = p.totalHits;
  f64[1] = p.totalRelation === 'gte' ? 1 : 0;
  f64[2] = p.maxScore;
  f64[3] = p.count;
  f64[4] = p.shardIndex;
  f64[5] = p.docs;
  f64[6] = p.scores;
  f64[7] = p.columns.length;
  f64[8] = p.fetch ? 1 : 0;
  f64[9] = p.rendered ? 1 : 0;
  f64[10] = p.floatingKeys;
  let at = FIXED;
  for (let j = 0; j < p.columns.length; j++) {
    const c = p.columns[j]!;
    f64[at++] = KINDS.indexOf(c.kind);
    if (c.kind === 'values') {
      extra ??= {};
      extra.values ??= {};
      extra.values[j] = c.values;
      f64[at++] = -1;
    } else f64[at++] = c.kind === 'f64' || c.kind === 'i64' ? c.at : -1;
  }
  const f = p.fetch;
  if (f) {
    f64[at++] = f.count;
    f64[at++] = f.idEnds;
    f64[at++] = f.versions;
    f64[at++] = f.seqNos;
    f64[at++] = f.primaryTerms;
    f64[at++] = f.sourceOffsets;
    f64[at++] = f.sourceBytes;
    f64[at++] = f.sourceLength;
    if (f.routing) {
      extra ??= {};
      extra.routing = f.routing;
    }
  }
  const r = p.rendered;
  if (r) {
    f64[at++] = r.count;
    f64[at++] = r.ends;
    f64[at++] = r.bytes;
    f64[at++] = r.length;
  }
  if (p.display) {
    extra ??= {};
    extra.display = p.display;
  }
  return extra;
}

/** The header of a received reply (`f64` views its buffer from the header's start). */
export function readHeader(f64: Float64Array, reply: PackedReply): PackedHits {
  const extra = reply.extra;
  const keys = f64[7]!;
  const columns: Column[] = new Array(keys);
  let at = FIXED;
  for (let j = 0; j < keys; j++) {
    const kind = KINDS[f64[at]!]!;
    const offset = f64[at + 1]!;
    at += 2;
    if (kind === 'f64' || kind === 'i64') columns[j] = { kind, at: offset };
    else if (kind === 'values') columns[j] = { kind, values: extra?.values?.[j] ?? [] };
    else columns[j] = { kind };
  }
  const p: PackedHits = {
    totalHits: f64[0]!,
    totalRelation: f64[1] === 1 ? 'gte' : 'eq',
    maxScore: f64[2]!,
    count: f64[3]!,
    shardIndex: f64[4]!,
    docs: f64[5]!,
    scores: f64[6]!,
    columns,
    floatingKeys: f64[10]!,
  };
  if (f64[8] === 1) {
    p.fetch = {
      count: f64[at]!,
      ids: reply.ids ?? '',
      idEnds: f64[at + 1]!,
      routing: extra?.routing ?? null,
      versions: f64[at + 2]!,
      seqNos: f64[at + 3]!,
      primaryTerms: f64[at + 4]!,
      sourceOffsets: f64[at + 5]!,
      sourceBytes: f64[at + 6]!,
      sourceLength: f64[at + 7]!,
    };
    at += FETCH_SLOTS;
  }
  if (f64[9] === 1) {
    p.rendered = { count: f64[at]!, ends: f64[at + 1]!, bytes: f64[at + 2]!, length: f64[at + 3]! };
  }
  if (extra?.display) p.display = extra.display;
  return p;
}
