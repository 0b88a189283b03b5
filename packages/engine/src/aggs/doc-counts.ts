/**
 * How many documents each doc of a segment stands for in bucket doc counts (DocCountProvider):
 * its `_doc_count` value, 1 without one. Null when no doc of the segment has the field, so that
 * collectors keep counting 1 per doc, and their column loops, wherever no pre-aggregated doc is.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { DOC_COUNT_FIELD } from '../mapping/doc-count-field.ts';

export function docCountsOf(rs: ReaderSegment): Float64Array | null {
  const n = rs.segment.field(DOC_COUNT_FIELD)?.numeric;
  if (!n) return null;
  return rs.segment.cached(`agg:doc_count`, () => {
    const counts = new Float64Array(rs.segment.maxDoc).fill(1);
    for (let d = 0; d < counts.length; d++) {
      if (n.starts[d]! < n.starts[d + 1]!) counts[d] = Number(n.values[n.starts[d]!]!);
    }
    return counts;
  });
}
