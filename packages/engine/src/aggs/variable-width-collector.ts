/**
 * variable_width_histogram on one shard: every distinct value of an owning bucket starts as a
 * cluster of its own (its docs counted, its sub-aggregations collected under its ordinal), and
 * at build the closest clusters merge until `shard_size` remain (mergeClosest, the reduce's own
 * rule). Elasticsearch clusters a shard's first `initial_buffer` values and streams the rest;
 * starting from exact per-value clusters gives the same answer on small data and never fewer
 * buckets than asked for, at the cost of a cluster per distinct value while collecting.
 */
import {
  type AggPartial,
  type Cluster,
  clusterBuckets,
  mergeAggregations,
  mergeClosest,
  type VariableWidthHistogramSpec,
  type VariableWidthPartial,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type AggCollector, BucketDoubles, BucketOrds } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import {
  type AggEnv,
  type DoubleView,
  doubleView,
  type FieldSource,
  NUMERIC_KINDS,
  numberFor,
  resolveSource,
} from './field-source.ts';

export class VariableWidthCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: number | undefined;
  private readonly values = new BucketOrds<number>();
  private readonly counts = new BucketDoubles();
  private view: DoubleView | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;

  constructor(
    private readonly spec: VariableWidthHistogramSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.src = resolveSource(spec.source, 'variable_width_histogram', NUMERIC_KINDS, env);
    const m = spec.source.missing;
    this.missing = m === undefined || m === null ? undefined : numberFor(this.src, m, env);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.view = this.src.kind === 'unmapped' ? null : doubleView(this.src, rs);
  }

  collect(doc: number, owner: number): void {
    const v = this.view;
    const s = v ? v.starts[doc]! : 0;
    const e = v ? v.starts[doc + 1]! : 0;
    if (s === e) {
      if (this.missing !== undefined) this.collectValue(doc, owner, this.missing);
      return;
    }
    let previous = Number.NaN;
    for (let i = s; i < e; i++) {
      const x = v!.values[i]!;
      if (x === previous) continue;
      previous = x;
      this.collectValue(doc, owner, x);
    }
  }

  private collectValue(doc: number, owner: number, value: number): void {
    const bucket = this.values.ord(owner, value);
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const clusters: Cluster[] = this.values
      .ordsOf(owner)
      .map((o) => {
        const x = this.values.key(o);
        return {
          min: x,
          max: x,
          centroid: x,
          docCount: this.counts.get(o),
          parts: [this.subs.map((s) => s.build(o))],
        };
      })
      .sort((a, b) => a.centroid - b.centroid);
    const buckets = clusterBuckets(
      mergeClosest(clusters, this.spec.shardSize),
      this.spec.aggs,
      mergeAggregations,
    );
    const out: VariableWidthPartial = { t: 'variable_width_histogram', fmt: this.src.fmt, buckets };
    return this.src.kind === 'unmapped' ? { ...out, unmapped: true } : out;
  }
}
