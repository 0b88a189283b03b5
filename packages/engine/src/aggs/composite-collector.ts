/**
 * composite on one shard (CompositeAggregator): each doc's key combinations — one value per
 * source, every combination of a multi-valued doc, null for a doc without a value when the
 * source has `missing_bucket` (else the doc has no key) — those after `after` collected, and the
 * first `size` in composite order returned.
 */

import {
  type AggPartial,
  type CompositeBucket,
  type CompositeSourceSpec,
  type CompositeSpec,
  type CompositeValue,
  compareComposite,
  type JsonScalar,
  RAW_FORMAT,
  type ValueFormat,
} from '@shoal/protocol';
import type { NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { FLOATING_TYPES } from '../mapping/params.ts';
import { rounderFor } from './agg-dates.ts';
import { type AggCancel, type AggCollector, BucketDoubles, BucketOrds } from './collector.ts';
import type { DateRounder } from './date-rounding.ts';
import {
  type AggEnv,
  type DoubleView,
  doubleView,
  exactLong,
  type FieldSource,
  ipKeyFor,
  ipKeys,
  longValues,
  NUMERIC_KINDS,
  normalizeLong,
  numberFor,
  resolveSource,
  TERMS_KINDS,
} from './field-source.ts';

/** One source: its values per doc, as sorted distinct composite values. */
class SourceValues {
  readonly src: FieldSource;
  readonly fmt: ValueFormat;
  /** A terms source on a double or float field: its keys are doubles. */
  readonly double: boolean;
  private readonly rounder: DateRounder | null;
  private readonly interval: number;
  private ords: SortedSetValues | null = null;
  private keys: readonly string[] = [];
  private longs: Extract<NumericValues, { kind: 'long' }> | null = null;
  private doubles: DoubleView | null = null;

  constructor(
    readonly spec: CompositeSourceSpec,
    private readonly env: AggEnv,
  ) {
    const date = spec.kind === 'date_histogram';
    this.src = resolveSource(
      spec.source,
      spec.kind,
      spec.kind === 'terms' ? TERMS_KINDS : NUMERIC_KINDS,
      env,
      date,
    );
    this.double =
      spec.kind === 'terms' && this.src.kind === 'number' && FLOATING_TYPES.has(this.src.type ?? '');
    this.rounder = spec.rounding ? rounderFor(spec.rounding) : null;
    this.interval = spec.interval ?? 0;
    if (spec.kind === 'terms') this.fmt = this.src.fmt;
    else if (date && spec.source.format !== undefined) this.fmt = this.src.fmt;
    else this.fmt = RAW_FORMAT;
  }

  setSegment(rs: ReaderSegment): void {
    this.ords = null;
    this.longs = null;
    this.doubles = null;
    const src = this.src;
    if (src.kind === 'unmapped') return;
    if (src.kind === 'keyword' || src.kind === 'ip') {
      this.ords = rs.segment.field(src.path)?.sortedSet ?? null;
      if (this.ords) this.keys = src.kind === 'ip' ? ipKeys(src, rs, this.ords.terms) : this.ords.terms;
      return;
    }
    if (this.spec.kind === 'terms' && src.long) this.longs = longValues(src, rs);
    if (this.longs === null) this.doubles = doubleView(src, rs);
  }

  /** The doc's values into `out` (emptied first), ascending and distinct. */
  values(doc: number, out: CompositeValue[]): void {
    out.length = 0;
    const ss = this.ords;
    if (ss !== null) {
      for (let i = ss.starts[doc]!; i < ss.starts[doc + 1]!; i++) out.push(this.keys[ss.ords[i]!]!);
    } else if (this.longs !== null) {
      const n = this.longs;
      for (let i = n.starts[doc]!; i < n.starts[doc + 1]!; i++) {
        if (i > n.starts[doc]! && n.values[i] === n.values[i - 1]) continue;
        out.push(normalizeLong(n.values[i]!));
      }
    } else if (this.doubles !== null) {
      const n = this.doubles;
      let previous = Number.NaN;
      for (let i = n.starts[doc]!; i < n.starts[doc + 1]!; i++) {
        const k = this.key(n.values[i]!);
        if (k === previous) continue;
        previous = k;
        out.push(k);
      }
    }
    if (out.length === 0 && this.src.constant !== undefined) out.push(this.src.constant);
    if (out.length === 0 && this.spec.missingBucket) out.push(null);
  }

  /**
   * For the columnar loop: this segment's values as small local ids — a keyword's ordinal, or a
   * rounded number's position among the keys seen so far — when each doc has one value at
   * most and no doc without one needs a bucket; null otherwise.
   */
  localIds(): LocalIds | null {
    if (this.spec.missingBucket || this.src.constant !== undefined) return null;
    const ss = this.ords;
    if (ss !== null) return ss.singleValued ? new OrdIds(ss, this.keys) : null;
    const v = this.doubles;
    if (v === null || this.longs !== null) return null;
    if ((v as { singleValued?: boolean }).singleValued !== true)
      for (let d = 0; d + 1 < v.starts.length; d++) if (v.starts[d + 1]! - v.starts[d]! > 1) return null;
    return new RoundedIds(v, this);
  }

  /** Where the date bucket starting at `key` ends; NaN for other sources. */
  bucketEnd(key: number): number {
    return this.rounder === null ? Number.NaN : this.rounder.next(key);
  }

  key(v: number): number {
    if (this.rounder !== null) return this.rounder.round(v);
    if (this.spec.kind === 'histogram') return Math.floor(v / this.interval) * this.interval;
    return v;
  }

  /** An `after` value as this source's key. */
  afterValue(v: JsonScalar): CompositeValue {
    if (v === null) return null;
    const src = this.src;
    if (this.spec.kind !== 'terms') return this.key(numberFor(src, v, this.env));
    switch (src.kind) {
      case 'keyword':
      case 'unmapped':
        return String(v);
      case 'ip':
        return ipKeyFor(v);
      case 'number':
        return src.long || src.type !== 'double' ? exactLong(v) : numberFor(src, v, this.env);
      default:
        return numberFor(src, v, this.env);
    }
  }
}

/** Composite keys of a segment are counted in an array when fewer than this are possible. */
const DENSE_KEYS = 1 << 22;

/** A source's per-doc local ids in one segment (-1: no value), and the value of each id. */
interface LocalIds {
  /** An exclusive bound of the ids. */
  readonly radix: number;
  id(doc: number): number;
  value(id: number): CompositeValue;
}

class OrdIds implements LocalIds {
  readonly radix: number;
  constructor(
    private readonly ss: SortedSetValues,
    private readonly keys: readonly string[],
  ) {
    this.radix = ss.terms.length;
  }
  id(doc: number): number {
    const s = this.ss.starts[doc]!;
    return s === this.ss.starts[doc + 1]! ? -1 : this.ss.ords[s]!;
  }
  value(id: number): CompositeValue {
    return this.keys[id]!;
  }
}

class RoundedIds implements LocalIds {
  readonly radix: number;
  private readonly ids = new Map<number, number>();
  private readonly values: number[] = [];
  // The last bucket seen: [lo, hi) rounds to lastId (dates only; else lo === hi).
  private lo = Number.NaN;
  private hi = Number.NaN;
  private lastId = -1;
  constructor(
    private readonly view: DoubleView,
    private readonly source: SourceValues,
  ) {
    this.radix = view.values.length;
  }
  id(doc: number): number {
    const s = this.view.starts[doc]!;
    if (s === this.view.starts[doc + 1]!) return -1;
    const v = this.view.values[s]!;
    if (v >= this.lo && v < this.hi) return this.lastId;
    const k = this.source.key(v);
    let id = this.ids.get(k);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(k);
      this.ids.set(k, id);
    }
    this.lo = k;
    this.hi = this.source.bucketEnd(k);
    this.lastId = id;
    return id;
  }
  value(id: number): CompositeValue {
    return this.values[id]!;
  }
}

export class CompositeCollector implements AggCollector {
  private readonly sources: SourceValues[];
  private readonly after: CompositeValue[] | undefined;
  private readonly buckets = new BucketOrds<string>();
  private readonly keys: CompositeValue[][] = [];
  private readonly counts = new BucketDoubles();
  private readonly perSource: CompositeValue[][];
  private readonly key: CompositeValue[];

  constructor(
    private readonly spec: CompositeSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.sources = spec.sources.map((s) => new SourceValues(s, env));
    this.after = spec.after
      ? this.sources.map((s) => s.afterValue(spec.after![s.spec.name] ?? null))
      : undefined;
    this.perSource = this.sources.map(() => []);
    this.key = new Array<CompositeValue>(this.sources.length).fill(null);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    for (const s of this.sources) s.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    for (let i = 0; i < this.sources.length; i++) {
      this.sources[i]!.values(doc, this.perSource[i]!);
      if (this.perSource[i]!.length === 0) return;
    }
    this.combine(doc, owner, 0);
  }

  /**
   * Without sub-aggregations, single-valued sources: each matching doc's key as one number
   * (the sources' local ids in mixed radix) counted in a map, then each distinct key checked
   * against `after` and turned into its bucket once.
   */
  collectAll(
    _rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    if (this.subs.length > 0) return false;
    const local: LocalIds[] = [];
    for (const s of this.sources) {
      const l = s.localIds();
      if (l === null) return false;
      local.push(l);
    }
    // Packed in mixed radix, the source of most ids first: its own radix then bounds nothing,
    // and the keys seen span (its largest id + 1) × the product of the others' radixes.
    const m = local.length;
    const order = local.map((_, j) => j);
    order.sort((a, b) => local[b]!.radix - local[a]!.radix);
    const ids = order.map((j) => local[j]!);
    let rest = 1;
    for (let j = 1; j < m; j++) rest *= Math.max(1, ids[j]!.radix);
    if (rest * Math.max(1, ids[0]!.radix) > Number.MAX_SAFE_INTEGER) return false;
    // Keys counted in an array grown as they come when the others' span is small, else in a map.
    let dense = rest <= DENSE_KEYS ? new Int32Array(rest * 16) : null;
    const perKey = dense === null ? new Map<number, number>() : null;
    let used = 0;
    const n = docs === null ? _rs.segment.maxDoc : docs.length;
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      let key = 0;
      let j = 0;
      for (; j < m; j++) {
        const id = ids[j]!.id(d);
        if (id < 0) break;
        key = key * ids[j]!.radix + id;
      }
      if (j < m) continue;
      if (dense !== null) {
        if (key >= dense.length) {
          const grown = new Int32Array(Math.max(dense.length * 2, key + 1));
          grown.set(dense);
          dense = grown;
        }
        dense[key]!++;
        if (key >= used) used = key + 1;
      } else perKey!.set(key, (perKey!.get(key) ?? 0) + 1);
    }
    const packedKeys = dense === null ? [...perKey!.keys()] : null;
    const end = dense === null ? packedKeys!.length : used;
    for (let x = 0; x < end; x++) {
      const packed = dense === null ? packedKeys![x]! : x;
      const count = dense === null ? perKey!.get(packed)! : dense[x]!;
      if (count === 0) continue;
      let left = packed;
      for (let j = m - 1; j > 0; j--) {
        const r = ids[j]!.radix;
        this.key[order[j]!] = ids[j]!.value(left % r);
        left = Math.floor(left / r);
      }
      this.key[order[0]!] = ids[0]!.value(left);
      if (this.after && compareComposite(this.key, this.after, this.spec.sources) <= 0) continue;
      this.counts.add(this.bucketOf(0), count);
    }
    return true;
  }

  /** The bucket of the key in `this.key` (made on first use). */
  private bucketOf(owner: number): number {
    let text = '';
    for (const v of this.key) text += `${v === null ? 'z' : typeof v === 'string' ? 's' : 'n'}${v}\u0001`;
    const bucket = this.buckets.ord(owner, text);
    if (bucket === this.keys.length) this.keys.push([...this.key]);
    return bucket;
  }

  /** Every combination of the sources' values from source `i` on. */
  private combine(doc: number, owner: number, i: number): void {
    if (i === this.sources.length) {
      if (this.after && compareComposite(this.key, this.after, this.spec.sources) <= 0) return;
      const bucket = this.bucketOf(owner);
      this.counts.add(bucket, 1);
      for (const s of this.subs) s.collect(doc, bucket);
      return;
    }
    for (const v of this.perSource[i]!) {
      this.key[i] = v;
      this.combine(doc, owner, i + 1);
    }
  }

  build(owner: number): AggPartial {
    const ords = this.buckets.ordsOf(owner);
    ords.sort((a, b) => compareComposite(this.keys[a]!, this.keys[b]!, this.spec.sources));
    const buckets: CompositeBucket[] = ords.slice(0, this.spec.size).map((b) => ({
      key: this.keys[b]!,
      docCount: this.counts.get(b),
      aggs: this.subs.map((s) => s.build(b)),
    }));
    const out: AggPartial = { t: 'composite', buckets, formats: this.sources.map((s) => s.fmt) };
    return this.sources.some((s) => s.double) ? { ...out, doubles: this.sources.map((s) => s.double) } : out;
  }
}
