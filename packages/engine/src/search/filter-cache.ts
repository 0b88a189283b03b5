/**
 * The filter cache of a segment (Lucene's LRUQueryCache with its UsageTrackingQueryCachingPolicy):
 * the doc set of a filter clause is kept once the filter has been used often enough among the
 * segment's recent filters — twice for the costly ones (multi-term, terms and range queries),
 * five times for the others; a `term` is never kept, its postings are as cheap as a copy —
 * least recently used dropped first, within a byte budget proportional to the segment's size.
 * Small segments are not cached, as Lucene leaves out segments under 10,000 docs.
 *
 * A set depends on the immutable segment alone (deletes and slices are applied by the caller),
 * so nothing is ever invalidated: the cache lives on the segment and goes with it.
 */
import type { Segment } from '../index/segment.ts';

/** Tunables (tests lower them). */
export const filterCacheTuning = {
  /** Segments with fewer docs are not cached. */
  minSegmentDocs: 10_000,
};

/** Filter keys remembered per segment to tell a recurring filter. */
const HISTORY = 256;
/** Sets kept per segment. */
const MAX_ENTRIES = 64;
/** Kept bytes per segment: this many bytes per doc of the segment. */
const BYTES_PER_DOC = 16;

interface FilterCacheState {
  uses: Map<string, number>;
  kept: Map<string, Int32Array>;
  bytes: number;
}

function stateOf(segment: Segment): FilterCacheState {
  return segment.cached<FilterCacheState>('filter-cache', () => ({
    uses: new Map(),
    kept: new Map(),
    bytes: 0,
  }));
}

/**
 * One use of filter `key` in the segment by a search: its kept docs, or — when this use makes
 * it frequent enough — `compute()`'s docs, kept from now on; undefined when it is not cached
 * (the caller evaluates the filter its own way).
 */
export function useFilter(
  segment: Segment,
  key: string,
  minUses: number,
  compute: () => Int32Array,
): Int32Array | undefined {
  if (segment.maxDoc < filterCacheTuning.minSegmentDocs) return undefined;
  const state = stateOf(segment);
  const hit = state.kept.get(key);
  if (hit !== undefined) {
    state.kept.delete(key);
    state.kept.set(key, hit);
    return hit;
  }
  const uses = (state.uses.get(key) ?? 0) + 1;
  state.uses.delete(key);
  state.uses.set(key, uses);
  if (state.uses.size > HISTORY) state.uses.delete(state.uses.keys().next().value!);
  if (uses < minUses) return undefined;
  const docs = compute();
  const budget = segment.maxDoc * BYTES_PER_DOC;
  if (docs.byteLength > budget / 4) return docs;
  state.kept.set(key, docs);
  state.bytes += docs.byteLength;
  for (const [k, v] of state.kept) {
    if (state.bytes <= budget && state.kept.size <= MAX_ENTRIES) break;
    state.kept.delete(k);
    state.bytes -= v.byteLength;
  }
  return docs;
}

/** The number of filters kept in the segment (for tests and stats). */
export function keptFilters(segment: Segment): number {
  return stateOf(segment).kept.size;
}

/** Forgets the segment's kept filters and their use counts (`_cache/clear?query=true`). */
export function clearFilterCache(segment: Segment): void {
  const state = stateOf(segment);
  state.uses.clear();
  state.kept.clear();
  state.bytes = 0;
}
