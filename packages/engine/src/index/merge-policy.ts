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
