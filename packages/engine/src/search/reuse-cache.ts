/**
 * Per-segment results of queries that come back (in the spirit of Lucene's query cache and its
 * usage-tracking policy): a result is computed every time until its key has been asked for
 * twice among the segment's recent requests, and is then kept, least recently used dropped
 * first, within a byte budget proportional to the segment's size. Only what depends on the
 * segment alone is kept (never a score, whose statistics belong to the reader), so nothing has
 * to be invalidated: it goes with the immutable segment.
 */
import type { Segment } from '../index/segment.ts';

/** Keys remembered per segment and namespace to tell a recurring request. */
const HISTORY = 256;
/** Results kept per segment and namespace. */
const MAX_ENTRIES = 32;
/** Kept bytes per segment and namespace: this many bytes per doc of the segment. */
const BYTES_PER_DOC = 16;

interface Kept {
  value: unknown;
  bytes: number;
}

interface ReuseState {
  seen: Map<string, number>;
  kept: Map<string, Kept>;
  bytes: number;
}

/** The result of `key` in the segment: kept when it recurs; `size` tells its bytes. */
export function reusedResult<T>(
  segment: Segment,
  namespace: string,
  key: string,
  compute: () => T,
  size: (value: T) => number,
): T {
  const state = segment.cached<ReuseState>(`reuse:${namespace}`, () => ({
    seen: new Map(),
    kept: new Map(),
    bytes: 0,
  }));
  const hit = state.kept.get(key);
  if (hit !== undefined) {
    // Most recently used last.
    state.kept.delete(key);
    state.kept.set(key, hit);
    return hit.value as T;
  }
  const uses = (state.seen.get(key) ?? 0) + 1;
  state.seen.delete(key);
  state.seen.set(key, uses);
  if (state.seen.size > HISTORY) state.seen.delete(state.seen.keys().next().value!);
  const value = compute();
  const bytes = size(value);
  const budget = segment.maxDoc * BYTES_PER_DOC;
  if (uses >= 2 && bytes <= budget) {
    state.kept.set(key, { value, bytes });
    state.bytes += bytes;
    for (const [k, v] of state.kept) {
      if (state.bytes <= budget && state.kept.size <= MAX_ENTRIES) break;
      state.kept.delete(k);
      state.bytes -= v.bytes;
    }
  }
  return value;
}
