/**
 * adjacency_matrix on one shard (AdjacencyMatrixAggregator): each filter's matches as a bitset
 * per segment; a doc counts in the bucket of every filter it matches and of every pair of them.
 * Buckets are `owner * cells + cell`; only the cells holding docs are returned.
 */
import {
  type AdjacencyMatrixPartial,
  type AdjacencyMatrixSpec,
  type AggPartial,
  adjacencyCells,
  adjacencyRowStart,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { Weight } from '../search/weights.ts';
import { type AggCollector, BucketDoubles } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import type { AggEnv } from './field-source.ts';
import { compileFilter, isSet, matchBits } from './single-bucket-collectors.ts';

export class AdjacencyMatrixCollector implements AggCollector {
  private readonly weights: Weight[];
  private readonly cells: number;
  private readonly counts = new BucketDoubles();
  private bits: Uint32Array[] = [];
  private readonly matched: Int32Array;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;

  constructor(
    spec: AdjacencyMatrixSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.weights = spec.filters.map((f) => compileFilter(f.query, env));
    this.cells = adjacencyCells(this.weights.length);
    this.matched = new Int32Array(this.weights.length);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.bits = this.weights.map((w) => matchBits(w, rs));
    this.docCounts = docCountsOf(rs);
  }

  collect(doc: number, owner: number): void {
    const n = this.weights.length;
    let m = 0;
    for (let i = 0; i < n; i++) if (isSet(this.bits[i]!, doc)) this.matched[m++] = i;
    const base = owner * this.cells;
    for (let a = 0; a < m; a++) {
      const i = this.matched[a]!;
      this.collectCell(doc, base + i);
      // Cell of the pair (i, j): its row's start plus j - i - 1.
      const row = adjacencyRowStart(n, i) - i - 1;
      for (let b = a + 1; b < m; b++) this.collectCell(doc, base + row + this.matched[b]!);
    }
  }

  private collectCell(doc: number, bucket: number): void {
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const buckets: AdjacencyMatrixPartial['buckets'][number][] = [];
    if (owner >= 0) {
      for (let cell = 0; cell < this.cells; cell++) {
        const bucket = owner * this.cells + cell;
        const docCount = this.counts.get(bucket);
        if (docCount > 0) buckets.push({ cell, docCount, aggs: this.subs.map((s) => s.build(bucket)) });
      }
    }
    return { t: 'adjacency_matrix', buckets };
  }
}
