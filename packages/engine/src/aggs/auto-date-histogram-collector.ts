/**
 * auto_date_histogram on one shard (AutoDateHistogramAggregator): each owning bucket's values
 * are kept until every doc has been seen; then the owner's rounding is the first of the ladder
 * that gives at most `buckets × largest multiple` buckets over its [min, max] (the reduce picks
 * the final one), its docs are bucketed at that rounding, and the sub-aggregations see them
 * through a deferred replay.
 */
import {
  type AggPartial,
  type AutoDateHistogramPartial,
  type AutoDateHistogramSpec,
  appropriateRounding,
  type KeyBucket,
  roundingLadder,
  stepRounding,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { rounderFor } from './agg-dates.ts';
import { type AggCollector, BucketDoubles, BucketOrds, NO_OWNER } from './collector.ts';
import { type DeferredDoc, replay } from './deferred-replay.ts';
import { docCountsOf } from './doc-counts.ts';
import {
  type AggEnv,
  type DoubleView,
  doubleView,
  type FieldSource,
  numberFor,
  resolveSource,
} from './field-source.ts';

const DATE_KINDS: ReadonlySet<FieldSource['kind']> = new Set(['date', 'number']);

/** One owner's docs and their values: `values[starts[i]] … values[starts[i + 1] - 1]` for doc i. */
class OwnerValues {
  readonly segments: ReaderSegment[] = [];
  readonly docs: number[] = [];
  /** Each doc's `_doc_count` (1 for most). */
  readonly weights: number[] = [];
  readonly starts: number[] = [0];
  readonly values: number[] = [];
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
}

export class AutoDateHistogramCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: number | undefined;
  private readonly owners: (OwnerValues | undefined)[] = [];
  private readonly buckets = new BucketOrds<number>();
  private readonly counts = new BucketDoubles();
  private readonly roundingIdx: number[] = [];
  private view: DoubleView | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  private segment: ReaderSegment | null = null;
  private built = false;

  constructor(
    private readonly spec: AutoDateHistogramSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.src = resolveSource(spec.source, 'auto_date_histogram', DATE_KINDS, env, true);
    const m = spec.source.missing;
    this.missing = m === undefined || m === null ? undefined : numberFor(this.src, m, env);
  }

  setSegment(rs: ReaderSegment): void {
    this.segment = rs;
    this.docCounts = docCountsOf(rs);
    this.view = this.src.kind === 'unmapped' ? null : doubleView(this.src, rs);
  }

  collect(doc: number, owner: number): void {
    const v = this.view;
    const s = v ? v.starts[doc]! : 0;
    const e = v ? v.starts[doc + 1]! : 0;
    if (s === e && this.missing === undefined) return;
    let o = this.owners[owner];
    if (o === undefined) {
      o = new OwnerValues();
      this.owners[owner] = o;
    }
    o.segments.push(this.segment!);
    o.docs.push(doc);
    o.weights.push(this.docCounts === null ? 1 : this.docCounts[doc]!);
    const add = (x: number) => {
      o.values.push(x);
      if (x < o.min) o.min = x;
      if (x > o.max) o.max = x;
    };
    if (s === e) add(this.missing!);
    else for (let i = s; i < e; i++) add(v!.values[i]!);
    o.starts.push(o.values.length);
  }

  /** Buckets every owner at its rounding, then replays the docs into the sub-aggregations. */
  private bucketAll(): void {
    const ladder = roundingLadder(this.spec);
    const tz = this.spec.source.timeZone;
    const deferred: DeferredDoc[] = [];
    this.owners.forEach((o, owner) => {
      if (o === undefined) return;
      const dates = { nextKey: (k: number, r: Parameters<typeof rounderFor>[0]) => rounderFor(r).next(k) };
      const first = rounderFor(stepRounding(ladder[0]!, tz));
      const idx = appropriateRounding(first.round(o.min), o.max, 0, ladder, this.spec.buckets, dates, tz);
      this.roundingIdx[owner] = idx;
      const rounder = rounderFor(stepRounding(ladder[idx]!, tz));
      for (let d = 0; d < o.docs.length; d++) {
        let previous = Number.NaN;
        for (let i = o.starts[d]!; i < o.starts[d + 1]!; i++) {
          const key = rounder.round(o.values[i]!);
          // A doc's values are ascending, so its values in one bucket are neighbours.
          if (key === previous) continue;
          previous = key;
          const bucket = this.buckets.ord(owner, key);
          this.counts.add(bucket, o.weights[d]!);
          if (this.subs.length > 0) deferred.push({ segment: o.segments[d]!, doc: o.docs[d]!, bucket });
        }
      }
    });
    replay(this.subs, deferred);
  }

  build(owner: number): AggPartial {
    if (!this.built) {
      this.built = true;
      this.bucketAll();
    }
    const buckets: KeyBucket[] = this.buckets
      .ordsOf(owner)
      .map((o) => ({
        key: this.buckets.key(o),
        docCount: this.counts.get(o),
        aggs: this.subs.map((s) => s.build(o)),
      }))
      .sort((a, b) => a.key - b.key);
    const out: { -readonly [K in keyof AutoDateHistogramPartial]: AutoDateHistogramPartial[K] } = {
      t: 'auto_date_histogram',
      fmt: this.src.fmt,
      roundingIdx: (owner >= 0 ? this.roundingIdx[owner] : undefined) ?? 0,
      buckets,
      empty: this.subs.map((s) => s.build(NO_OWNER)),
    };
    if (this.src.kind === 'unmapped') out.unmapped = true;
    return out;
  }
}
