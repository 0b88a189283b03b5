/**
 * cardinality: per bucket, the distinct values exactly until there are more than
 * `precision_threshold`, then a HyperLogLog++ sketch (protocol cardinality-sketch.ts). Values
 * are the keyword or ip term, the number (64-bit values of long fields stay exact), the date in
 * millis, or the geo point's `lat,lon`.
 */
import {
  type AggPartial,
  addHash,
  addValue,
  type CardinalitySpec,
  type DistinctValue,
  hashValue,
  newRegisters,
  precisionFromThreshold,
} from '@shoal/protocol';
import type { GeoValues, NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { pointsIndex } from '../search/points.ts';
import type { AggCancel, AggCollector } from './collector.ts';
import {
  type AggEnv,
  ANY_KINDS,
  type DoubleView,
  doubleView,
  type FieldSource,
  normalizeLong,
  resolveSource,
} from './field-source.ts';

export class CardinalityCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly threshold: number;
  private readonly precision: number;
  private readonly missing: DistinctValue | undefined;
  private readonly sets: (Set<DistinctValue> | undefined)[] = [];
  private readonly sketches: (Uint8Array | undefined)[] = [];
  private ords: SortedSetValues | null = null;
  private longs: Extract<NumericValues, { kind: 'long' }> | null = null;
  private doubles: DoubleView | null = null;
  private geo: GeoValues | null = null;

  constructor(spec: CardinalitySpec, env: AggEnv) {
    this.src = resolveSource(spec.source, 'cardinality', ANY_KINDS, env);
    this.threshold = spec.precisionThreshold;
    this.precision = precisionFromThreshold(spec.precisionThreshold);
    const m = this.src.constant ?? spec.source.missing;
    this.missing = m === undefined || m === null ? undefined : typeof m === 'boolean' ? String(m) : m;
  }

  setSegment(rs: ReaderSegment): void {
    this.ords = null;
    this.longs = null;
    this.doubles = null;
    this.geo = null;
    const sf = this.src.kind === 'unmapped' ? undefined : rs.segment.field(this.src.path);
    if (!sf) return;
    if (sf.sortedSet) this.ords = sf.sortedSet;
    else if (sf.geo) this.geo = sf.geo;
    else if (sf.numeric?.kind === 'long' && !this.src.nanos) this.longs = sf.numeric;
    else this.doubles = doubleView(this.src, rs);
  }

  collect(doc: number, owner: number): void {
    let found = false;
    const ss = this.ords;
    if (ss !== null) {
      for (let i = ss.starts[doc]!; i < ss.starts[doc + 1]!; i++) {
        this.add(owner, ss.terms[ss.ords[i]!]!);
        found = true;
      }
    } else if (this.longs !== null) {
      const n = this.longs;
      for (let i = n.starts[doc]!; i < n.starts[doc + 1]!; i++) {
        this.add(owner, normalizeLong(n.values[i]!));
        found = true;
      }
    } else if (this.doubles !== null) {
      const n = this.doubles;
      for (let i = n.starts[doc]!; i < n.starts[doc + 1]!; i++) {
        this.add(owner, n.values[i]!);
        found = true;
      }
    } else if (this.geo !== null) {
      const g = this.geo;
      for (let i = g.starts[doc]!; i < g.starts[doc + 1]!; i++) {
        this.add(owner, `${g.lat[i]},${g.lon[i]}`);
        found = true;
      }
    }
    if (!found && this.missing !== undefined) this.add(owner, this.missing);
  }

  /**
   * Keyword and ip terms: the segment's ordinals seen by the matching docs marked in one loop,
   * then each distinct term added once.
   */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const ss = this.ords;
    if (ss === null) return this.collectNumbers(rs, docs, excluded, cancel);
    const seen = new Uint8Array(ss.terms.length);
    const { starts, ords } = ss;
    let without = false;
    const n = docs === null ? starts.length - 1 : docs.length;
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      const s = starts[d]!;
      const e = starts[d + 1]!;
      if (s === e) without = true;
      for (let j = s; j < e; j++) seen[ords[j]!] = 1;
    }
    let distinct = 0;
    for (let ord = 0; ord < seen.length; ord++) distinct += seen[ord]!;
    if (this.sketches[0] === undefined && (this.sets[0]?.size ?? 0) + distinct <= this.threshold) {
      for (let ord = 0; ord < seen.length; ord++) if (seen[ord] === 1) this.add(0, ss.terms[ord]!);
    } else {
      // Past the threshold: each term's hash, computed once per segment, into the sketch.
      const sketch = this.sketchOf(0);
      const hashes = rs.segment.cached(`agg:hash:${this.src.path}`, () => termHashes(ss.terms));
      for (let ord = 0; ord < seen.length; ord++)
        if (seen[ord] === 1) addHash(sketch, this.precision, hashes[2 * ord]!, hashes[2 * ord + 1]!);
    }
    if (without && this.missing !== undefined) this.add(0, this.missing);
    return true;
  }

  /** Doubles (and dates): every doc's distinct values, from the points index when all docs match. */
  private collectNumbers(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const v = this.doubles;
    if (v === null || this.missing !== undefined) return false;
    const p = docs === null && excluded === null ? pointsIndex(rs, this.src.path) : null;
    if (p !== null && p.values instanceof Float64Array && p.values.length === v.values.length) {
      const values = p.values;
      for (let i = 0; i < values.length; i++) {
        if (i > 0 && values[i] === values[i - 1]) continue;
        cancel.step();
        this.add(0, values[i]!);
      }
      return true;
    }
    const { starts, values } = v;
    const n = docs === null ? starts.length - 1 : docs.length;
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      for (let j = starts[d]!, e = starts[d + 1]!; j < e; j++) this.add(0, values[j]!);
    }
    return true;
  }

  /** The owner's sketch, its exact values moved into it first. */
  private sketchOf(owner: number): Uint8Array {
    let sketch = this.sketches[owner];
    if (sketch === undefined) {
      sketch = newRegisters(this.precision);
      for (const x of this.sets[owner] ?? []) addValue(sketch, this.precision, x);
      this.sketches[owner] = sketch;
      this.sets[owner] = undefined;
    }
    return sketch;
  }

  private add(owner: number, v: DistinctValue): void {
    const sketch = this.sketches[owner];
    if (sketch !== undefined) {
      addValue(sketch, this.precision, v);
      return;
    }
    let set = this.sets[owner];
    if (set === undefined) {
      set = new Set();
      this.sets[owner] = set;
    }
    set.add(v);
    if (set.size > this.threshold) {
      const registers = newRegisters(this.precision);
      for (const x of set) addValue(registers, this.precision, x);
      this.sketches[owner] = registers;
      this.sets[owner] = undefined;
    }
  }

  build(owner: number): AggPartial {
    const sketch = owner >= 0 ? this.sketches[owner] : undefined;
    if (sketch !== undefined) return { t: 'cardinality', registers: sketch, precision: this.precision };
    const set = owner >= 0 ? this.sets[owner] : undefined;
    return { t: 'cardinality', values: set ? [...set] : [], precision: this.precision };
  }
}

/** The sketch hash of each term of a segment's dictionary, [high, low] per term. */
function termHashes(terms: readonly string[]): Uint32Array {
  const out = new Uint32Array(terms.length * 2);
  const one = new Uint32Array(2);
  for (let i = 0; i < terms.length; i++) {
    hashValue(terms[i]!, one);
    out[2 * i] = one[0]!;
    out[2 * i + 1] = one[1]!;
  }
  return out;
}
