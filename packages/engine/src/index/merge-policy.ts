/**
 * A simplified tiered merge policy: once a shard has more than `maxSegments` segments, merge
 * the `mergeFactor` smallest into one. Small segments are what frequent refreshes produce, and
 * merging them first keeps the cost of each merge proportional to what it tidies up.
 */
export interface MergePolicyOptions {
  maxSegments?: number;
  mergeFactor?: number;
}

/** Indices (into `liveCounts`) of the segments to merge, or undefined when none should be. */
export function pickMerge(
  liveCounts: readonly number[],
  opts: MergePolicyOptions = {},
): number[] | undefined {
  const maxSegments = opts.maxSegments ?? 10;
  const factor = Math.max(2, opts.mergeFactor ?? 10);
  if (liveCounts.length <= maxSegments) return undefined;
  const order = liveCounts.map((_, i) => i).sort((a, b) => liveCounts[a]! - liveCounts[b]! || a - b);
  return order.slice(0, Math.min(factor, order.length));
}

/** What the merge choices need of a segment: its live and deleted doc counts. */
interface Counted {
  liveDocs: { numLive: number; numDeleted: number };
}

/**
 * `_forcemerge?max_num_segments=N`: the smallest segments to merge so that at most N remain,
 * or undefined when the shard is already merged (Lucene's rule: few enough segments, unless
 * it is a single one with deletions).
 */
export function forceMergeChoice<E extends Counted>(
  entries: readonly E[],
  maxSegments: number,
): E[] | undefined {
  const target = Math.max(1, maxSegments);
  const n = entries.length;
  if (n === 0) return undefined;
  if (n <= target && !(n === 1 && entries[0]!.liveDocs.numDeleted > 0)) return undefined;
  const bySize = [...entries].sort((a, b) => a.liveDocs.numLive - b.liveDocs.numLive);
  return bySize.slice(0, Math.max(1, n - target + 1));
}

/** `only_expunge_deletes`: the segments with deleted docs, or undefined when there are none. */
export function expungeChoice<E extends Counted>(entries: readonly E[]): E[] | undefined {
  const withDeletes = entries.filter((e) => e.liveDocs.numDeleted > 0);
  return withDeletes.length > 0 ? withDeletes : undefined;
}

/** The segment list after a merge: the merged one where the first of its inputs was. */
export function replaceMerged<E>(entries: readonly E[], inputs: ReadonlySet<E>, merged: E | undefined): E[] {
  const next: E[] = [];
  let placed = false;
  for (const e of entries) {
    if (!inputs.has(e)) {
      next.push(e);
    } else if (!placed) {
      placed = true;
      if (merged) next.push(merged);
    }
  }
  return next;
}
