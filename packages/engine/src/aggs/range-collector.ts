/**
 * range and date_range on one shard (RangeAggregator): the ranges' bounds resolved — text bounds
 * of date fields as date math in the aggregation's format and time zone — and ordered by
 * (from, to); a doc counts once in every range one of its values falls in (`from` inclusive,
 * `to` exclusive). Bucket ordinals are `owner * ranges + range`.
 *
 * On a `float` field the bounds are first reduced to the field's stored precision
 * (NumberFieldType.reduceToStoredPrecision, Elasticsearch 7.16+): the stored float nearest 0.04
 * is 0.03999999910593033, below the double 0.04, so `to: 0.04` must exclude it. The buckets
 * still show the bounds as the request gave them.
 */
import type { AggPartial, RangeBucket, RangeSpec } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { pointRange, pointsIndex } from '../search/points.ts';
import { type AggCancel, type AggCollector, BucketDoubles } from './collector.ts';
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

interface ResolvedRange {
  key?: string;
  /** The bounds as requested (what the bucket shows). */
  from: number;
  to: number;
  /** The bounds the values are compared with. */
  matchFrom: number;
  matchTo: number;
}

export class RangeCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly ranges: ResolvedRange[];
  private readonly froms: Float64Array;
  private readonly tos: Float64Array;
  private readonly counts = new BucketDoubles();
  private readonly missing: number | undefined;
  /** Per range, the collect call that last counted in it: a doc counts once per range. */
  private readonly lastCall: Int32Array;
  private call = 0;
  private view: DoubleView | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  private readonly script: ScriptValues | null;

  constructor(
    spec: RangeSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.src = resolveSource(spec.source, spec.type, NUMERIC_KINDS, env, spec.type === 'date_range');
    const src = this.src;
    // Bounds parse as the field type parses them (NumberType.parse): a float, even for a
    // half_float, whose half rounding belongs to indexing only.
    const stored = src.type === 'float' || src.type === 'half_float' ? Math.fround : (v: number) => v;
    this.ranges = spec.ranges.map((r) => {
      const from = r.from === undefined ? Number.NEGATIVE_INFINITY : numberFor(src, r.from, env);
      const to = r.to === undefined ? Number.POSITIVE_INFINITY : numberFor(src, r.to, env);
      const out: ResolvedRange = { from, to, matchFrom: stored(from), matchTo: stored(to) };
      if (r.key !== undefined) out.key = r.key;
      return out;
    });
    this.ranges.sort((a, b) => a.matchFrom - b.matchFrom || a.matchTo - b.matchTo);
    this.froms = Float64Array.from(this.ranges, (r) => r.matchFrom);
    this.tos = Float64Array.from(this.ranges, (r) => r.matchTo);
    this.lastCall = new Int32Array(this.ranges.length);
    const m = spec.source.missing;
    this.missing = m === undefined || m === null ? undefined : numberFor(src, m, env);
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.view = this.src.kind === 'unmapped' ? null : doubleView(this.src, rs);
    this.script?.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    if (++this.call === 0x7fffffff) {
      this.call = 1;
      this.lastCall.fill(0);
    }
    if (this.script !== null) {
      const n = this.script.fill(doc);
      const buf = this.script.buf;
      for (let i = 0; i < n; i++) this.collectValue(doc, owner, scriptDouble(buf[i]));
      if (n === 0 && this.missing !== undefined) this.collectValue(doc, owner, this.missing);
      return;
    }
    const v = this.view;
    if (v !== null) {
      const s = v.starts[doc]!;
      const e = v.starts[doc + 1]!;
      if (s < e) {
        for (let i = s; i < e; i++) this.collectValue(doc, owner, v.values[i]!);
        return;
      }
    }
    if (this.missing !== undefined) this.collectValue(doc, owner, this.missing);
  }

  /**
   * Without sub-aggregations: when every doc of the segment has at most one value and all
   * match, each range counted from the points index by two binary searches; otherwise the
   * matching docs in one loop.
   */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    // A script's values are computed per doc (collect).
    if (this.subs.length > 0 || this.missing !== undefined || this.script !== null) return false;
    // Pre-aggregated docs (`_doc_count`) count per doc.
    if (this.docCounts !== null) return false;
    if (this.view === null) return true;
    const p = docs === null && excluded === null ? pointsIndex(rs, this.src.path) : null;
    if (p?.singleValued && p.values instanceof Float64Array && p.values.length === this.view.values.length) {
      for (let r = 0; r < this.froms.length; r++) {
        const [from, to] = pointRange(p, this.froms[r]!, true, this.tos[r]!, false);
        if (to > from) this.counts.add(r, to - from);
      }
      return true;
    }
    const n = docs === null ? rs.segment.maxDoc : docs.length;
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      this.collect(d, 0);
    }
    return true;
  }

  private collectValue(doc: number, owner: number, value: number): void {
    const n = this.froms.length;
    for (let r = 0; r < n; r++) {
      if (value < this.froms[r]! || value >= this.tos[r]!) continue;
      if (this.lastCall[r] === this.call) continue;
      this.lastCall[r] = this.call;
      const bucket = owner * n + r;
      this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
      for (const s of this.subs) s.collect(doc, bucket);
    }
  }

  build(owner: number): AggPartial {
    const n = this.ranges.length;
    const buckets: RangeBucket[] = this.ranges.map((r, i) => {
      const bucket = owner < 0 ? -1 : owner * n + i;
      const b: { -readonly [K in keyof RangeBucket]: RangeBucket[K] } = {
        from: r.from,
        to: r.to,
        docCount: this.counts.get(bucket),
        aggs: this.subs.map((s) => s.build(bucket)),
      };
      if (r.key !== undefined) b.key = r.key;
      return b;
    });
    const out: AggPartial = { t: 'range', buckets, fmt: this.src.fmt };
    return this.src.kind === 'unmapped' && this.script === null ? { ...out, unmapped: true } : out;
  }
}
