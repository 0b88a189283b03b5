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
import { rounderFor } from './agg-dates.ts';
import { type AggCollector, BucketDoubles, BucketOrds, NO_OWNER } from './collector.ts';
import type { DateRounder } from './date-rounding.ts';
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

  private collectBucket(doc: number, bucket: number): void {
    this.counts.add(bucket, 1);
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
