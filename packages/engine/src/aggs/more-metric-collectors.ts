/**
 * weighted_avg (WeightedAvgAggregator: Σ value·weight / Σ weight over docs with both, a doc's
 * weight taken from its single weight value) and string_stats (StringStatsAggregator: lengths
 * and character counts of a keyword field's values).
 */
import {
  type AggPartial,
  illegalArgument,
  type StringStatsSpec,
  type WeightedAvgSpec,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type AggCollector, BucketDoubles } from './collector.ts';
import {
  type AggEnv,
  type DoubleView,
  doubleView,
  type FieldSource,
  NUMERIC_KINDS,
  numberFor,
  resolveSource,
} from './field-source.ts';

export class WeightedAvgCollector implements AggCollector {
  private readonly value: FieldSource;
  private readonly weight: FieldSource;
  private readonly valueMissing: number | undefined;
  private readonly weightMissing: number | undefined;
  private readonly sums = new BucketDoubles();
  private readonly weights = new BucketDoubles();
  private valueView: DoubleView | null = null;
  private weightView: DoubleView | null = null;

  constructor(spec: WeightedAvgSpec, env: AggEnv) {
    this.value = resolveSource(spec.value, 'weighted_avg', NUMERIC_KINDS, env);
    this.weight = resolveSource(spec.weight, 'weighted_avg', NUMERIC_KINDS, env);
    this.valueMissing =
      spec.value.missing === undefined ? undefined : numberFor(this.value, spec.value.missing, env);
    this.weightMissing =
      spec.weight.missing === undefined ? undefined : numberFor(this.weight, spec.weight.missing, env);
  }

  setSegment(rs: ReaderSegment): void {
    this.valueView = this.value.kind === 'unmapped' ? null : doubleView(this.value, rs);
    this.weightView = this.weight.kind === 'unmapped' ? null : doubleView(this.weight, rs);
  }

  collect(doc: number, owner: number): void {
    const wv = this.weightView;
    let weight: number;
    if (wv !== null && wv.starts[doc]! < wv.starts[doc + 1]!) {
      if (wv.starts[doc + 1]! - wv.starts[doc]! > 1) {
        throw illegalArgument(
          `Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.`,
        );
      }
      weight = wv.values[wv.starts[doc]!]!;
    } else if (this.weightMissing !== undefined) weight = this.weightMissing;
    else return;
    const vv = this.valueView;
    if (vv !== null && vv.starts[doc]! < vv.starts[doc + 1]!) {
      for (let i = vv.starts[doc]!, e = vv.starts[doc + 1]!; i < e; i++) {
        this.sums.add(owner, vv.values[i]! * weight);
        this.weights.add(owner, weight);
      }
    } else if (this.valueMissing !== undefined) {
      this.sums.add(owner, this.valueMissing * weight);
      this.weights.add(owner, weight);
    }
  }

  build(owner: number): AggPartial {
    const fmt = this.value.fmt;
    const unmapped = this.value.kind === 'unmapped' ? { unmapped: true } : {};
    return {
      t: 'weighted_avg',
      sum: this.sums.get(owner),
      weight: this.weights.get(owner),
      fmt,
      ...unmapped,
    };
  }
}

interface StringAcc {
  count: number;
  totalLength: number;
  minLength: number;
  maxLength: number;
  chars: Map<string, number>;
}

export class StringStatsCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: string | undefined;
  private readonly accs: (StringAcc | undefined)[] = [];
  private terms: readonly string[] = [];
  private starts: Uint32Array | null = null;
  private ords: Int32Array | null = null;

  constructor(spec: StringStatsSpec, env: AggEnv) {
    this.src = resolveSource(spec.source, 'string_stats', new Set(['keyword']), env);
    this.missing = spec.source.missing === undefined ? undefined : String(spec.source.missing);
  }

  setSegment(rs: ReaderSegment): void {
    const ss = this.src.kind === 'unmapped' ? null : (rs.segment.field(this.src.path)?.sortedSet ?? null);
    this.terms = ss?.terms ?? [];
    this.starts = ss?.starts ?? null;
    this.ords = ss?.ords ?? null;
  }

  private add(owner: number, s: string): void {
    let a = this.accs[owner];
    if (a === undefined) {
      a = { count: 0, totalLength: 0, minLength: Infinity, maxLength: -Infinity, chars: new Map() };
      this.accs[owner] = a;
    }
    a.count++;
    a.totalLength += s.length;
    if (s.length < a.minLength) a.minLength = s.length;
    if (s.length > a.maxLength) a.maxLength = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      a.chars.set(c, (a.chars.get(c) ?? 0) + 1);
    }
  }

  collect(doc: number, owner: number): void {
    if (this.src.constant !== undefined) {
      this.add(owner, this.src.constant);
      return;
    }
    const st = this.starts;
    if (st !== null && st[doc]! < st[doc + 1]!) {
      for (let i = st[doc]!, e = st[doc + 1]!; i < e; i++) this.add(owner, this.terms[this.ords![i]!]!);
      return;
    }
    if (this.missing !== undefined) this.add(owner, this.missing);
  }

  build(owner: number): AggPartial {
    const a = owner >= 0 ? this.accs[owner] : undefined;
    if (a === undefined) {
      return {
        t: 'string_stats',
        count: 0,
        totalLength: 0,
        minLength: Infinity,
        maxLength: -Infinity,
        chars: {},
      };
    }
    return {
      t: 'string_stats',
      count: a.count,
      totalLength: a.totalLength,
      minLength: a.minLength,
      maxLength: a.maxLength,
      chars: Object.fromEntries(a.chars),
    };
  }
}
