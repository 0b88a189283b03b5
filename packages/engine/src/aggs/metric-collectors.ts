/**
 * Numeric metrics (avg, sum, min, max, stats, extended_stats) and value_count. One stats
 * collector keeps count, compensated sum, min, max and the sum of squares per bucket and builds
 * whichever partial its type needs (Elasticsearch's AvgAggregator … ExtendedStatsAggregator
 * keep subsets of the same arrays). Every value of a multi-valued doc counts; a doc without
 * values counts the `missing` value when one is given.
 */
import type { AggPartial, ExtendedStatsSpec, SimpleMetricSpec } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type AggCancel, type AggCollector, BucketDoubles } from './collector.ts';
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

  /** The doc values of the matching docs in one loop, the sums kept in locals. */
  collectAll(
    _rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const v = this.view;
    // A script's values are computed per doc (collect).
    if (this.missing !== undefined || this.script !== null) return false;
    if (v === null) return true;
    if (docs === null && excluded === null) {
      // Every doc of the segment: its totals, computed once per segment and field.
      const t = _rs.segment.cached(`agg:stats:${this.src.path}:${this.src.nanos === true}`, () =>
        segmentTotals(v),
      );
      this.merge(t);
      return true;
    }
    const { starts, values } = v;
    let count = this.counts.get(0);
    let sum = this.sums.get(0);
    let comp = this.comps.get(0);
    let min = this.mins.get(0);
    let max = this.maxs.get(0);
    let squares = this.squares?.get(0) ?? 0;
    const n = docs === null ? starts.length - 1 : docs.length;
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      for (let j = starts[d]!, e = starts[d + 1]!; j < e; j++) {
        const value = values[j]!;
        count++;
        if (!Number.isFinite(value) || !Number.isFinite(sum)) sum += value;
        else {
          const y = value - comp;
          const t = sum + y;
          comp = t - sum - y;
          sum = t;
        }
        if (value < min) min = value;
        if (value > max) max = value;
        squares += value * value;
      }
    }
    this.counts.set(0, count);
    this.sums.set(0, sum);
    this.comps.set(0, comp);
    this.mins.set(0, min);
    this.maxs.set(0, max);
    this.squares?.set(0, squares);
    return true;
  }

  /** Adds a segment's totals to owner 0 (its sum Kahan-added as one value). */
  private merge(t: Totals): void {
    if (t.count === 0) return;
    this.counts.add(0, t.count);
    const sum = this.sums.get(0);
    if (!Number.isFinite(t.sum) || !Number.isFinite(sum)) this.sums.set(0, sum + t.sum);
    else {
      const y = t.sum - this.comps.get(0);
      const s = sum + y;
      this.comps.set(0, s - sum - y);
      this.sums.set(0, s);
    }
    if (t.min < this.mins.get(0)) this.mins.set(0, t.min);
    if (t.max > this.maxs.get(0)) this.maxs.set(0, t.max);
    this.squares?.add(0, t.squares);
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

interface Totals {
  count: number;
  sum: number;
  min: number;
  max: number;
  squares: number;
}

/** Count, compensated sum, min, max and sum of squares of every value of a segment's field. */
function segmentTotals(v: DoubleView): Totals {
  const values = v.values;
  let sum = 0;
  let comp = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let squares = 0;
  for (let j = 0; j < values.length; j++) {
    const value = values[j]!;
    if (!Number.isFinite(value) || !Number.isFinite(sum)) sum += value;
    else {
      const y = value - comp;
      const t = sum + y;
      comp = t - sum - y;
      sum = t;
    }
    if (value < min) min = value;
    if (value > max) max = value;
    squares += value * value;
  }
  return { count: values.length, sum, min, max, squares };
}
