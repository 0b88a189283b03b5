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
  compareKeys,
  type JsonScalar,
  RAW_FORMAT,
  type ValueFormat,
} from '@shoal/protocol';
import type { NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { FLOATING_TYPES } from '../mapping/params.ts';
import { rounderFor } from './agg-dates.ts';
import { type AggCancel, type AggCollector, BucketDoubles, BucketOrds } from './collector.ts';
import { GeotileSource } from './composite-geotile.ts';
import { numericKeys, ordinalKeys, type SegmentKeys, segmentCounts } from './composite-segment-keys.ts';
import type { DateRounder } from './date-rounding.ts';
import { docCountsOf } from './doc-counts.ts';
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
export class SourceValues {
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

  /** A geotile_grid source: its tiles come from there. */
  private readonly tile: GeotileSource | null;

  constructor(
    readonly spec: CompositeSourceSpec,
    private readonly env: AggEnv,
  ) {
    this.tile = spec.kind === 'geotile_grid' ? new GeotileSource(spec, env) : null;
    if (this.tile !== null) {
      this.src = this.tile.src;
      this.double = false;
      this.rounder = null;
      this.interval = 0;
      this.fmt = { kind: 'geotile', zoom: this.tile.zoom };
      return;
    }
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
    if (this.tile !== null) {
      this.tile.setSegment(rs);
      return;
    }
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
    if (this.tile !== null) this.tile.values(doc, out);
    else if (ss !== null) {
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
   * For the columnar loop: this segment's keys by rank (composite-segment-keys.ts), when each
   * doc has one value at most and no doc without one needs a bucket; null otherwise.
   */
  segmentKeys(rs: ReaderSegment): SegmentKeys | null {
    if (this.spec.missingBucket || this.src.constant !== undefined || this.tile !== null) return null;
    const src = this.src;
    const ss = this.ords;
    if (ss !== null) return ordinalKeys(rs, `${src.kind}:${src.path}`, ss.starts, ss.ords, this.keys);
    if (this.longs === null && this.doubles === null) return null;
    if (src.kind !== 'number' && src.kind !== 'date') return null;
    const kind = this.spec.kind;
    const detail =
      kind === 'histogram'
        ? this.interval
        : kind === 'date_histogram'
          ? JSON.stringify(this.spec.rounding)
          : '';
    const exact = this.longs !== null;
    const nanos = src.nanos;
    const read = (v: number | bigint): CompositeValue => {
      if (typeof v === 'number') return this.key(v);
      if (exact) return normalizeLong(v);
      return this.key(nanos ? Number(v / 1_000_000n) : Number(v));
    };
    return numericKeys(rs, src.path, `${kind}:${src.path}:${exact}:${detail}`, read);
  }

  key(v: number): number {
    if (this.rounder !== null) return this.rounder.round(v);
    if (this.spec.kind === 'histogram') return Math.floor(v / this.interval) * this.interval;
    return v;
  }

  /** An `after` value as this source's key. */
  afterValue(v: JsonScalar): CompositeValue {
    if (v === null) return null;
    if (this.tile !== null) return this.tile.afterValue(v);
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

/** A segment's packed keys are counted in an array when it needs fewer slots than this. */
const DENSE_KEYS = 1 << 16;

/**
 * Adds one source's digit, times its `weight`, to each doc's packed key: the doc's rank, or
 * `flip` - rank for a descending source; a doc without a key gets -1 for good.
 */
function addDigits(
  packed: Int32Array,
  ids: Int32Array,
  docs: Int32Array | null,
  flip: number,
  weight: number,
): void {
  const n = packed.length;
  for (let i = 0; i < n; i++) {
    const key = packed[i]!;
    if (key < 0) continue;
    const id = ids[docs === null ? i : docs[i]!]!;
    packed[i] = id < 0 ? -1 : key + (flip === 0 ? id : flip - id) * weight;
  }
}

/** Cuts `counts` back to its `size` smallest keys; returns the bound past the last kept. */
function keepFirst(counts: Map<number, number>, size: number): number {
  const keys = [...counts.keys()].sort((a, b) => a - b);
  for (let i = size; i < keys.length; i++) counts.delete(keys[i]!);
  return keys.length > size ? keys[size - 1]! + 1 : Number.MAX_SAFE_INTEGER;
}

export class CompositeCollector implements AggCollector {
  private readonly sources: SourceValues[];
  private readonly after: CompositeValue[] | undefined;
  private readonly buckets = new BucketOrds<string>();
  private readonly keys: CompositeValue[][] = [];
  private readonly counts = new BucketDoubles();
  private readonly perSource: CompositeValue[][];
  private readonly key: CompositeValue[];
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;

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
    this.docCounts = docCountsOf(rs);
  }

  collect(doc: number, owner: number): void {
    for (let i = 0; i < this.sources.length; i++) {
      this.sources[i]!.values(doc, this.perSource[i]!);
      if (this.perSource[i]!.length === 0) return;
    }
    this.combine(doc, owner, 0);
  }

  /**
   * Without sub-aggregations, single-valued sources: each matching doc's key packed into one
   * number — the sources' ranks in mixed radix, in source order, a descending source's ranks
   * reversed, so packed keys order as composite keys do — counted only when it comes after
   * `after` and can still make the page; then the first `size` keys of the segment become
   * buckets (no key of a later segment can take the place of one the segment left out).
   */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    // Pre-aggregated docs (`_doc_count`) count per doc.
    if (this.subs.length > 0 || this.docCounts !== null) return false;
    const m = this.sources.length;
    const tables: SegmentKeys[] = [];
    for (const s of this.sources) {
      const t = s.segmentKeys(rs);
      if (t === null) return false;
      tables.push(t);
    }
    const weights = new Array<number>(m);
    let span = 1;
    for (let j = m - 1; j >= 0; j--) {
      weights[j] = span;
      span *= tables[j]!.keys.length;
    }
    if (span === 0 || this.spec.size === 0) return true;
    // Packed keys are 31-bit (more keys than that: doc by doc).
    if (span > 0x7fffffff) return false;
    const from = this.after === undefined ? 0 : this.firstAfter(tables, weights);
    if (from >= span) return true;
    const size = this.spec.size;
    const asc = this.sources.map((s) => s.spec.asc);
    const limit = Math.max(DENSE_KEYS, 2 * rs.segment.maxDoc);
    // Counts per packed key from `base` on, in an array, or in a map.
    let dense: Int32Array | null = null;
    let base = from;
    let counts: Map<number, number> | null = null;
    if (docs === null && excluded === null && span <= limit) {
      // Every doc of a segment without deletes: the segment's own counts, kept with it.
      const name = `${tables.map((t) => t.name).join('|')}|${asc.join(',')}`;
      dense = segmentCounts(rs, name, () => {
        const packed = this.packedKeys(tables, weights, null, rs.segment.maxDoc);
        const all = new Int32Array(span);
        for (let i = 0; i < packed.length; i++) if (packed[i]! >= 0) all[packed[i]!]!++;
        return all;
      });
      base = 0;
    } else {
      if (span - from <= limit) dense = new Int32Array(span - from);
      else counts = new Map();
      const n = docs === null ? rs.segment.maxDoc : docs.length;
      const packed = this.packedKeys(tables, weights, docs, n);
      // Past this packed key nothing can make the page (the map is cut back to `size` keys).
      let bound = span;
      for (let i = 0; i < n; i++) {
        const key = packed[i]!;
        if (key < from || key >= bound) continue;
        if (excluded !== null) {
          const d = docs === null ? i : docs[i]!;
          if ((excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
        }
        cancel.step();
        if (dense !== null) dense[key - from]!++;
        else {
          counts!.set(key, (counts!.get(key) ?? 0) + 1);
          if (counts!.size >= Math.max(4 * size, 1024)) bound = keepFirst(counts!, size);
        }
      }
    }
    const radix = tables.map((t) => t.keys.length);
    const page: [number, number][] = [];
    if (dense !== null) {
      for (let x = from - base; x < dense.length && page.length < size; x++)
        if (dense[x]! > 0) page.push([x + base, dense[x]!]);
    } else {
      keepFirst(counts!, size);
      for (const [key, count] of counts!) page.push([key, count]);
    }
    for (const [packed, count] of page) {
      for (let j = 0; j < m; j++) {
        const digit = Math.floor(packed / weights[j]!) % radix[j]!;
        this.key[j] = tables[j]!.keys[asc[j] ? digit : radix[j]! - 1 - digit]!;
      }
      this.counts.add(this.bucketOf(0), count);
    }
    return true;
  }

  /** The packed key of each of `n` docs (`docs`, or the first n; -1: without one), a pass per source. */
  private packedKeys(
    tables: readonly SegmentKeys[],
    weights: readonly number[],
    docs: Int32Array | null,
    n: number,
  ): Int32Array {
    const packed = new Int32Array(n);
    for (let j = 0; j < tables.length; j++) {
      const r = tables[j]!.keys.length;
      addDigits(packed, tables[j]!.ids, docs, this.sources[j]!.spec.asc ? 0 : r - 1, weights[j]!);
    }
    return packed;
  }

  /** The first packed key of the segment that comes after `after`. */
  private firstAfter(tables: readonly SegmentKeys[], weights: readonly number[]): number {
    const after = this.after!;
    let packed = 0;
    for (let j = 0; j < tables.length; j++) {
      const keys = tables[j]!.keys;
      const r = keys.length;
      const a = after[j]!;
      const asc = this.sources[j]!.spec.asc;
      if (a === null) return packed + (asc ? 0 : r) * weights[j]!;
      let lo = 0;
      let hi = r;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeys(keys[mid]!, a) < 0) lo = mid + 1;
        else hi = mid;
      }
      const present = lo < r && compareKeys(keys[lo]!, a) === 0;
      // How many keys come before `a` in this source's order.
      const before = asc ? lo : r - (present ? lo + 1 : lo);
      if (!present) return packed + before * weights[j]!;
      packed += before * weights[j]!;
    }
    return packed + 1;
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
      this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
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
