/**
 * histogram and date_histogram on one shard: a bucket per key, the key being the value rounded
 * down to its interval — `floor((v - offset) / interval) * interval + offset`, or the start of its
 * date bucket (date-rounding.ts). A doc counts once per key, however many of its values fall in
 * it. The shard returns every non-empty bucket; for `min_doc_count: 0` it also sends the empty
 * sub-aggregations the reduce puts in the buckets it adds, and for date_histogram the
 * `extended_bounds` resolved and rounded.
 */
import type {
  AggPartial,
  DateHistogramSpec,
  HistogramPartial,
  HistogramSpec,
  KeyBucket,
} from '@shoal/protocol';
import { checkOrderPaths } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { pointsIndex } from '../search/points.ts';
import { rounderFor } from './agg-dates.ts';
import {
  type AggCancel,
  type AggCollector,
  BucketDoubles,
  BucketOrds,
  collectsDocs,
  NO_OWNER,
} from './collector.ts';
import type { DateRounder } from './date-rounding.ts';
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
import { ScriptValues, scriptDouble } from './script-values.ts';

export class HistogramCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly buckets = new BucketOrds<number>();
  private readonly counts = new BucketDoubles();
  private readonly interval: number;
  private readonly offset: number;
  private readonly rounder: DateRounder | null;
  private readonly missingKey: number | undefined;
  private readonly bounds: { min?: number; max?: number } | undefined;
  private view: DoubleView | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  private readonly script: ScriptValues | null;

  constructor(
    private readonly spec: HistogramSpec | DateHistogramSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    checkOrderPaths(spec.order, spec.aggs);
    const date = spec.type === 'date_histogram';
    this.src = resolveSource(spec.source, spec.type, NUMERIC_KINDS, env, date);
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
    if (spec.type === 'histogram') {
      this.interval = spec.interval;
      this.offset = spec.offset;
      this.rounder = null;
    } else {
      this.interval = 0;
      this.offset = 0;
      this.rounder = rounderFor(spec.rounding);
    }
    const m = spec.source.missing;
    this.missingKey = m === undefined || m === null ? undefined : this.key(numberFor(this.src, m, env));
    if (spec.type === 'date_histogram' && spec.extendedBounds) {
      const b: { min?: number; max?: number } = {};
      const { min, max } = spec.extendedBounds;
      if (min !== undefined) b.min = this.key(numberFor(this.src, min, env));
      if (max !== undefined) b.max = this.key(numberFor(this.src, max, env));
      this.bounds = b;
    }
  }

  private key(v: number): number {
    if (this.rounder !== null) return this.rounder.round(v);
    return Math.floor((v - this.offset) / this.interval) * this.interval + this.offset;
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.view = this.src.kind === 'unmapped' ? null : doubleView(this.src, rs);
    this.script?.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    if (this.script !== null) {
      const n = this.script.fill(doc);
      const buf = this.script.buf;
      if (n === 1) this.collectBucket(doc, this.buckets.ord(owner, this.key(scriptDouble(buf[0]))));
      else if (n > 1) {
        const keys = new Set<number>();
        for (let i = 0; i < n; i++) keys.add(this.key(scriptDouble(buf[i])));
        for (const k of keys) this.collectBucket(doc, this.buckets.ord(owner, k));
      }
      if (n === 0 && this.missingKey !== undefined)
        this.collectBucket(doc, this.buckets.ord(owner, this.missingKey));
      return;
    }
    const v = this.view;
    if (v !== null) {
      const s = v.starts[doc]!;
      const e = v.starts[doc + 1]!;
      if (s < e) {
        let previous = Number.NaN;
        for (let i = s; i < e; i++) {
          const k = this.key(v.values[i]!);
          if (k === previous) continue;
          previous = k;
          this.collectBucket(doc, this.buckets.ord(owner, k));
        }
        return;
      }
    }
    if (this.missingKey !== undefined) this.collectBucket(doc, this.buckets.ord(owner, this.missingKey));
  }

  /**
   * Without sub-aggregations: every doc of the segment, one value each — counted bucket by
   * bucket from the points index, two binary searches a bucket; otherwise the matching docs in
   * one loop that rounds only values outside the last bucket seen (dates: the rounding is
   * monotonic and each bucket ends where the next starts).
   */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const v = this.view;
    // A script's values are computed per doc (collect).
    if (collectsDocs(this.subs) || this.missingKey !== undefined || this.script !== null) return false;
    // Pre-aggregated docs (`_doc_count`) count per doc.
    if (this.docCounts !== null) return false;
    if (v === null) return true;
    const rounder = this.rounder;
    const p = docs === null && excluded === null && rounder !== null ? pointsIndex(rs, this.src.path) : null;
    if (p !== null && rounder !== null && p.singleValued && countsFromPoints(p.values, this.src.nanos)) {
      const values = p.values;
      for (let i = 0; i < values.length; ) {
        cancel.step();
        const k = rounder.round(Number(values[i]!));
        const to = firstAtOrAbove(values, i + 1, rounder.next(k));
        this.counts.add(this.buckets.ord(0, k), to - i);
        i = to;
      }
      return true;
    }
    if (rounder === null) {
      const n = docs === null ? v.starts.length - 1 : docs.length;
      for (let i = 0; i < n; i++) {
        const d = docs === null ? i : docs[i]!;
        if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
        cancel.step();
        this.collect(d, 0);
      }
      return true;
    }
    const { starts, values } = v;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let bucket = -1;
    const n = docs === null ? starts.length - 1 : docs.length;
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      let previous = -1;
      for (let j = starts[d]!, e = starts[d + 1]!; j < e; j++) {
        const x = values[j]!;
        if (!(x >= lo && x < hi)) {
          lo = rounder.round(x);
          hi = rounder.next(lo);
          bucket = this.buckets.ord(0, lo);
        }
        if (bucket === previous) continue;
        previous = bucket;
        this.counts.add(bucket, 1);
      }
    }
    return true;
  }

  private collectBucket(doc: number, bucket: number): void {
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const buckets: KeyBucket[] = this.buckets.ordsOf(owner).map((b) => ({
      key: this.buckets.key(b),
      docCount: this.counts.get(b),
      aggs: this.subs.map((s) => s.build(b)),
    }));
    buckets.sort((a, b) => a.key - b.key);
    const out: { -readonly [K in keyof HistogramPartial]: HistogramPartial[K] } = {
      t: this.spec.type,
      buckets,
      fmt: this.src.fmt,
    };
    if (this.src.kind === 'unmapped' && this.script === null) out.unmapped = true;
    if (this.spec.minDocCount === 0 && this.subs.length > 0)
      out.empty = this.subs.map((s) => s.build(NO_OWNER));
    if (this.bounds) out.bounds = this.bounds;
    return out;
  }
}

/**
 * Whether buckets can be counted from the points index: doubles, or longs that are exact as
 * doubles (the view's values are then the same numbers; not nanoseconds, which the view
 * divides down to milliseconds).
 */
function countsFromPoints(values: Float64Array | BigInt64Array, nanos: boolean): boolean {
  if (values instanceof Float64Array) return true;
  if (nanos || values.length === 0) return !nanos;
  const limit = 2n ** 53n;
  return values[0]! > -limit && values[values.length - 1]! < limit;
}

/**
 * The first position from `from` whose value is at or above `bound` (values ascending):
 * galloping, as buckets are found in order and most are short next to the whole index.
 */
function firstAtOrAbove(values: Float64Array | BigInt64Array, from: number, bound: number): number {
  const n = values.length;
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < n && values[hi]! < bound) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
