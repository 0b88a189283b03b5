/**
 * variable_width_histogram (VariableWidthHistogramAggregationBuilder, InternalVariableWidthHistogram):
 * clusters of values, each known by its centroid (the bucket's `key`), bounds (`min`, `max`) and
 * doc count. Shards and the reduce both bring a sorted list of clusters down to a target count
 * the same way: the two neighbours whose centroids are closest merge, their centroid weighted by
 * doc count, until few enough remain.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { intValue } from '../../query/xcontent-values.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { AggPartial } from './partial.ts';
import type { VariableWidthBucket, VariableWidthPartial } from './partial-more-buckets.ts';
import { DEFAULT_MAX_BUCKETS, type Renderer } from './render.ts';
import type { AggSpec, VariableWidthHistogramSpec } from './spec.ts';
import { valueText } from './value-text.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseVariableWidthHistogram(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let buckets = 10;
  let shardSize = -1;
  let initialBuffer = -1;
  const positive = (field: string, v: unknown, least: number) => {
    const n = intValue(ctx, v);
    if (n <= least) throw illegalArgument(`${field} must be greater than [${least}] for [${name}]`);
    return n;
  };
  const seen = readDeclared(ctx, 'variable_width_histogram', body, {
    ...sourceFields(ctx, 'variable_width_histogram', draft, { formattable: true, timeZoneAware: true }),
    buckets: { tokens: TOKENS.NUMBER, read: (v) => (buckets = positive('buckets', v, 0)) },
    shard_size: { tokens: TOKENS.NUMBER, read: (v) => (shardSize = positive('shard_size', v, 1)) },
    initial_buffer: {
      tokens: TOKENS.NUMBER,
      read: (v) => (initialBuffer = positive('initial_buffer', v, 0)),
    },
  });
  const source = finishSource(draft, seen);
  if (shardSize === -1) shardSize = buckets * 50;
  if (initialBuffer === -1) initialBuffer = Math.min(10 * shardSize, 50000);
  if (buckets > DEFAULT_MAX_BUCKETS)
    throw illegalArgument(`buckets must be less than ${DEFAULT_MAX_BUCKETS}`);
  if (initialBuffer < buckets) {
    throw illegalArgument(
      `initial_buffer must be at least buckets but was [${initialBuffer}<${buckets}] for [${name}]`,
    );
  }
  const mergePhaseInit = Math.floor((shardSize * 3) / 4);
  if (mergePhaseInit < buckets) {
    throw illegalArgument(
      `3/4 of shard_size must be at least buckets but was [${mergePhaseInit}<${buckets}] for [${name}]`,
    );
  }
  return { type: 'variable_width_histogram', source, buckets, shardSize, initialBuffer };
}

/** A cluster being merged: a bucket with the sub-aggregation partials of what it holds. */
export interface Cluster {
  min: number;
  max: number;
  centroid: number;
  docCount: number;
  parts: (readonly AggPartial[])[];
}

/**
 * Merges the closest neighbours of `clusters` (ascending by centroid) until at most `target`
 * remain; ties merge the leftmost pair first. A heap of gaps with stale entries skipped keeps
 * it O(n log n).
 */
export function mergeClosest(clusters: Cluster[], target: number): Cluster[] {
  const n = clusters.length;
  if (n <= target) return clusters;
  const next = Int32Array.from({ length: n }, (_, i) => (i + 1 < n ? i + 1 : -1));
  const prev = Int32Array.from({ length: n }, (_, i) => i - 1);
  const alive = new Uint8Array(n).fill(1);
  const version = new Int32Array(n);
  // Heap entries: [gap, left index, left version, right version].
  const heap: [number, number, number, number][] = [];
  const less = (a: [number, number, number, number], b: [number, number, number, number]) =>
    a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  const push = (e: [number, number, number, number]) => {
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  };
  const gapAt = (i: number) => {
    const j = next[i]!;
    if (j >= 0) push([clusters[j]!.centroid - clusters[i]!.centroid, i, version[i]!, version[j]!]);
  };
  for (let i = 0; i < n - 1; i++) gapAt(i);
  let count = n;
  while (count > target && heap.length > 0) {
    const [, i, vi, vj] = pop();
    const j = next[i]!;
    if (!alive[i] || j < 0 || version[i] !== vi || version[j] !== vj) continue;
    const a = clusters[i]!;
    const b = clusters[j]!;
    const docs = a.docCount + b.docCount;
    a.centroid =
      docs === 0 ? (a.centroid + b.centroid) / 2 : (a.centroid * a.docCount + b.centroid * b.docCount) / docs;
    a.min = Math.min(a.min, b.min);
    a.max = Math.max(a.max, b.max);
    a.docCount = docs;
    a.parts.push(...b.parts);
    alive[j] = 0;
    next[i] = next[j]!;
    if (next[j]! >= 0) prev[next[j]!] = i;
    version[i]!++;
    count--;
    if (prev[i]! >= 0) gapAt(prev[i]!);
    gapAt(i);
  }
  return clusters.filter((_, i) => alive[i] === 1);
}

type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

/** Clusters back to buckets, each one's sub-aggregations merged. */
export function clusterBuckets(
  clusters: readonly Cluster[],
  subs: readonly AggSpec[],
  merge: Merge,
): VariableWidthBucket[] {
  return clusters.map((c) => ({
    min: c.min,
    max: c.max,
    centroid: c.centroid,
    docCount: c.docCount,
    aggs: c.parts.length === 1 ? c.parts[0]! : merge(subs, c.parts),
  }));
}

export function mergeVariableWidth(
  spec: VariableWidthHistogramSpec,
  parts: readonly VariableWidthPartial[],
  merge: Merge,
): VariableWidthPartial {
  const clusters: Cluster[] = parts
    .flatMap((p) => p.buckets)
    .map((b) => ({ min: b.min, max: b.max, centroid: b.centroid, docCount: b.docCount, parts: [b.aggs] }))
    .sort((a, b) => a.centroid - b.centroid);
  const buckets = clusterBuckets(mergeClosest(clusters, spec.buckets), spec.aggs, merge);
  const mapped = parts.find((p) => !p.unmapped);
  const out: VariableWidthPartial = {
    t: 'variable_width_histogram',
    fmt: (mapped ?? parts[0]!).fmt,
    buckets,
  };
  return mapped ? out : { ...out, unmapped: true };
}

export function renderVariableWidth(
  r: Renderer,
  spec: VariableWidthHistogramSpec,
  p: VariableWidthPartial,
  out: Record<string, unknown>,
  merge: Merge,
): void {
  // One shard's partial reaches here unmerged: the target applies now.
  const buckets =
    p.buckets.length <= spec.buckets
      ? p.buckets
      : mergeVariableWidth(spec, [p, { ...p, buckets: [] }], merge).buckets;
  r.consumeBuckets(buckets.length);
  const withText = (o: Record<string, unknown>, field: string, v: number) => {
    o[field] = r.double(v);
    const text = valueText(v, p.fmt, r.dates);
    if (text !== undefined) o[`${field}_as_string`] = text;
  };
  out.buckets = buckets.map((b) => {
    const o: Record<string, unknown> = {};
    withText(o, 'min', b.min);
    withText(o, 'key', b.centroid);
    withText(o, 'max', b.max);
    o.doc_count = b.docCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}
