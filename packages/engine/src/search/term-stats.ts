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

/** Document frequencies remembered per reader and field, up to this many terms. */
const DOC_FREQ_MEMO_MAX = 4096;

export function docFreq(reader: ShardReader, field: string, term: string): number {
  // The reader never changes: a term's frequency over it is looked up in every segment once.
  const memo = reader.cached(`df:${field}`, () => new Map<string, number>());
  const known = memo.get(term);
  if (known !== undefined) return known;
  let df = 0;
  for (const s of reader.segments) {
    const p = s.segment.field(field)?.postings;
    if (!p) continue;
    const t = findTerm(p.terms, term);
    if (t >= 0) df += p.starts[t + 1]! - p.starts[t]!;
  }
  if (memo.size >= DOC_FREQ_MEMO_MAX) memo.clear();
  memo.set(term, df);
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
