/**
 * Shard-level term statistics over a reader, for BM25: per field the number of docs with the
 * field and the sum of term frequencies, per term its document frequency. Sums over all
 * segments of the reader (deleted docs included, as Lucene's statistics are).
 */
import type { Postings } from '../index/segment.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { findTerm } from '../index/term-order.ts';
import type { CollectionStats } from './bm25.ts';

export function fieldStats(reader: ShardReader, field: string): CollectionStats {
  return reader.cached(`stats:${field}`, () => {
    let docCount = 0;
    let sumTotalTermFreq = 0;
    for (const s of reader.segments) {
      const f = s.segment.field(field);
      if (!f?.postings) continue;
      docCount += f.docsWithField.length;
      sumTotalTermFreq += f.postings.sumTotalTermFreq;
    }
    return { docCount, sumTotalTermFreq };
  });
}

export function docFreq(reader: ShardReader, field: string, term: string): number {
  let df = 0;
  for (const s of reader.segments) {
    const p = s.segment.field(field)?.postings;
    if (!p) continue;
    const t = findTerm(p.terms, term);
    if (t >= 0) df += p.starts[t + 1]! - p.starts[t]!;
  }
  return df;
}

/** The ordinal of `term` in a segment's postings, or -1. */
export function termOrdinal(p: Postings | undefined, term: string): number {
  if (!p) return -1;
  const t = findTerm(p.terms, term);
  return t < 0 ? -1 : t;
}

/** The postings slice of one term in one segment, or undefined. */
export function termPostings(
  p: Postings | undefined,
  term: string,
): { from: number; to: number } | undefined {
  if (!p) return undefined;
  const t = findTerm(p.terms, term);
  if (t < 0) return undefined;
  return { from: p.starts[t]!, to: p.starts[t + 1]! };
}
