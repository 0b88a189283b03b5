/**
 * The docs of a reader that a search may return: the live docs, narrowed to a slice when the
 * request has one. The query loops skip on one bitset per segment (`excluded`: deleted, or
 * outside the slice), so slicing costs them nothing beyond building that bitset once.
 */
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';

export interface DocFilter {
  /** Bit set = skip the doc (deleted, or outside the slice); null when every doc passes. */
  excluded(rs: ReaderSegment): Uint32Array | null;
  /** How many docs of the segment pass. */
  count(rs: ReaderSegment): number;
  /** How many docs of the reader pass. */
  readonly total: number;
  /** No doc passes: the shard is not part of the slice. */
  readonly empty: boolean;
}

/** The live docs of a reader (a class: one is made per search, with no closure to name). */
class LiveDocsFilter implements DocFilter {
  readonly empty = false;
  constructor(readonly total: number) {}
  excluded(rs: ReaderSegment): Uint32Array | null {
    return rs.liveDocs.deletedBits;
  }
  count(rs: ReaderSegment): number {
    return rs.liveDocs.numLive;
  }
}

export function liveDocsFilter(reader: ShardReader): DocFilter {
  return new LiveDocsFilter(reader.numDocs);
}

export const EMPTY_FILTER: DocFilter = {
  excluded: () => null,
  count: () => 0,
  total: 0,
  empty: true,
};

export function passes(excluded: Uint32Array | null, d: number): boolean {
  return excluded === null || (excluded[d >>> 5]! & (1 << (d & 31))) === 0;
}

/**
 * A filter from a per-reader-doc predicate, combined with each segment's live docs. Built in
 * one pass over the reader; `bytes` is what it holds.
 */
export function predicateFilter(
  reader: ShardReader,
  inSlice: (readerDoc: number) => boolean,
): DocFilter & { bytes: number } {
  const bits = new Map<number, Uint32Array>();
  const counts = new Map<number, number>();
  let total = 0;
  let bytes = 0;
  for (const rs of reader.segments) {
    const max = rs.segment.maxDoc;
    const out = new Uint32Array((max + 31) >>> 5);
    const deleted = rs.liveDocs.deletedBits;
    let n = 0;
    for (let d = 0; d < max; d++) {
      if (passes(deleted, d) && inSlice(rs.docBase + d)) n++;
      else out[d >>> 5]! |= 1 << (d & 31);
    }
    bits.set(rs.ord, out);
    counts.set(rs.ord, n);
    total += n;
    bytes += out.byteLength;
  }
  return {
    excluded: (rs) => bits.get(rs.ord) ?? null,
    count: (rs) => counts.get(rs.ord) ?? 0,
    total,
    empty: total === 0,
    bytes,
  };
}
