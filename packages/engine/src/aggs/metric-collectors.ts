/**
 * Numeric metrics (avg, sum, min, max, stats, extended_stats) and value_count. One stats
 * collector keeps count, compensated sum, min, max and the sum of squares per bucket and builds
 * whichever partial its type needs (Elasticsearch's AvgAggregator … ExtendedStatsAggregator
 * keep subsets of the same arrays). Every value of a multi-valued doc counts; a doc without
 * values counts the `missing` value when one is given.
 */
import type { AggPartial, ExtendedStatsSpec, SimpleMetricSpec } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type AggCollector, BucketDoubles } from './collector.ts';
import {
  type AggEnv,
  ANY_KINDS,
  type DoubleView,
  doubleView,
  type FieldSource,
  NUMERIC_KINDS,
  numberFor,
  resolveSource,
} from './field-source.ts';
import { ScriptValues, scriptDouble } from './script-values.ts';

export class StatsCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: number | undefined;
  private readonly counts = new BucketDoubles();
  private readonly sums = new BucketDoubles();
  private readonly comps = new BucketDoubles();
  private readonly mins = new BucketDoubles(Number.POSITIVE_INFINITY);
  private readonly maxs = new BucketDoubles(Number.NEGATIVE_INFINITY);
  private readonly squares: BucketDoubles | null;
  private view: DoubleView | null = null;
  private readonly script: ScriptValues | null;

  constructor(
    private readonly spec: SimpleMetricSpec | ExtendedStatsSpec,
    env: AggEnv,
  ) {
    this.src = resolveSource(spec.source, spec.type, NUMERIC_KINDS, env);
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
    this.missing =
      spec.source.missing === undefined ? undefined : numberFor(this.src, spec.source.missing, env);
    this.squares = spec.type === 'extended_stats' ? new BucketDoubles() : null;
  }

  setSegment(rs: ReaderSegment): void {
    this.view = this.src.kind === 'unmapped' ? null : doubleView(this.src, rs);
    this.script?.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    if (this.script !== null) {
      const n = this.script.fill(doc);
      const buf = this.script.buf;
      for (let i = 0; i < n; i++) this.add(owner, scriptDouble(buf[i]));
      if (n === 0 && this.missing !== undefined) this.add(owner, this.missing);
      return;
    }
    const v = this.view;
    if (v !== null) {
      const s = v.starts[doc]!;
      const e = v.starts[doc + 1]!;
      if (s < e) {
        for (let i = s; i < e; i++) this.add(owner, v.values[i]!);
        return;
      }
    }
    if (this.missing !== undefined) this.add(owner, this.missing);
  }

  private add(owner: number, value: number): void {
    this.counts.add(owner, 1);
    // Kahan summation, as Elasticsearch's CompensatedSum.
    const sum = this.sums.get(owner);
    if (!Number.isFinite(value) || !Number.isFinite(sum)) this.sums.set(owner, sum + value);
    else {
      const y = value - this.comps.get(owner);
      const t = sum + y;
      this.comps.set(owner, t - sum - y);
      this.sums.set(owner, t);
    }
    if (value < this.mins.get(owner)) this.mins.set(owner, value);
    if (value > this.maxs.get(owner)) this.maxs.set(owner, value);
    this.squares?.add(owner, value * value);
  }

  build(owner: number): AggPartial {
    const fmt = this.src.fmt;
    const unmapped = this.src.kind === 'unmapped' && this.script === null ? { unmapped: true } : {};
    const count = this.counts.get(owner);
    const sum = this.sums.get(owner);
    switch (this.spec.type) {
      case 'avg':
        return { t: 'avg', sum, count, fmt, ...unmapped };
      case 'sum':
        return { t: 'sum', sum, fmt, ...unmapped };
      case 'min':
        return { t: 'min', value: this.mins.get(owner), fmt, ...unmapped };
      case 'max':
        return { t: 'max', value: this.maxs.get(owner), fmt, ...unmapped };
      default:
        return {
          t: this.spec.type === 'extended_stats' ? 'extended_stats' : 'stats',
          count,
          sum,
          min: this.mins.get(owner),
          max: this.maxs.get(owner),
          sumOfSquares: this.squares?.get(owner) ?? 0,
          fmt,
          ...unmapped,
        };
    }
  }
}

/** value_count: the number of values (any field type with doc values). */
export class ValueCountCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly hasMissing: boolean;
  private readonly counts = new BucketDoubles();
  private starts: Uint32Array | null = null;
  private readonly script: ScriptValues | null;

  constructor(spec: SimpleMetricSpec, env: AggEnv) {
    this.src = resolveSource(spec.source, 'value_count', ANY_KINDS, env);
    this.hasMissing = spec.source.missing !== undefined || this.src.constant !== undefined;
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
  }

  setSegment(rs: ReaderSegment): void {
    this.script?.setSegment(rs);
    const sf = this.src.kind === 'unmapped' ? undefined : rs.segment.field(this.src.path);
    this.starts = sf?.numeric?.starts ?? sf?.sortedSet?.starts ?? sf?.geo?.starts ?? null;
  }

  collect(doc: number, owner: number): void {
    if (this.script !== null) {
      const n = this.script.fill(doc);
      if (n > 0) this.counts.add(owner, n);
      else if (this.hasMissing) this.counts.add(owner, 1);
      return;
    }
    const st = this.starts;
    const n = st === null ? 0 : st[doc + 1]! - st[doc]!;
    if (n > 0) this.counts.add(owner, n);
    else if (this.hasMissing) this.counts.add(owner, 1);
  }

  build(owner: number): AggPartial {
    return { t: 'value_count', count: this.counts.get(owner) };
  }
}
