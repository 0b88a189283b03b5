/**
 * How a walk in sort order (the sorted fast paths) tells the docs a query matches in one
 * segment. Where the query has a check per doc (doc values, a cached filter) and the index
 * counts its matches (a points range, a term's postings), nothing is collected: the walk checks
 * the docs it visits, about k ÷ (the share of the segment that matches) of them, as Lucene
 * leads a conjunction with the sort's competitive iterator and verifies the filter on the
 * docs it yields. Otherwise, or when the matches are so few that collecting them costs less
 * than the docs the walk would check, the matches are collected and marked.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type DocFilter, passes } from './doc-filter.ts';
import type { DocCheck, Weight } from './weights.ts';

/** `alwaysCheck`: check docs whenever the query can (tests set it to cover that path). */
export const walkFilterTuning = { alwaysCheck: false };

export interface WalkFilter {
  /** Docs the query matched (1), when they were collected. */
  accept: Uint8Array | null;
  /** Or the query's check per doc (deleted and excluded docs still to be left out). */
  check: DocCheck | null;
  /** The segment's matches that pass the search's filter. */
  total: number;
}

export function walkFilter(
  weight: Weight,
  rs: ReaderSegment,
  excluded: Uint32Array | null,
  filter: DocFilter,
  k: number,
): WalkFilter {
  const passing = filter.count(rs);
  const check = weight.checker?.(rs);
  if (check !== undefined) {
    const known = weight.count(rs, excluded, passing);
    const maxDoc = rs.segment.maxDoc;
    // Docs the walk checks against the cost of collecting and marking the matches.
    if (
      known === 0 ||
      (known > 0 && (walkFilterTuning.alwaysCheck || (k * maxDoc) / known <= known + maxDoc / 4))
    )
      return { accept: null, check, total: known };
  }
  const m = weight.matches(rs, false);
  if (m.kind === 'all') return { accept: null, check: null, total: passing };
  const accept = new Uint8Array(rs.segment.maxDoc);
  let total = 0;
  for (let i = 0; i < m.docs.length; i++) {
    const d = m.docs[i]!;
    if (passes(excluded, d)) {
      accept[d] = 1;
      total++;
    }
  }
  return { accept, check: null, total };
}
