/**
 * cardinality: per bucket, the distinct values exactly until there are more than
 * `precision_threshold`, then a HyperLogLog++ sketch (protocol cardinality-sketch.ts). Values
 * are the keyword or ip term, the number (64-bit values of long fields stay exact), the date in
 * millis, or the geo point's `lat,lon`. A `script` gives the values instead: alone, as their
 * string form (Elasticsearch reads a script's values as bytes); over a field's `_value`, numbers
 * stay numbers.
 */
import {
  type AggPartial,
  addHash,
  addValue,
  type CardinalitySpec,
  type DistinctValue,
  newRegisters,
  precisionFromThreshold,
} from '@shoal/protocol';
import type { GeoValues, NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { DateValue } from '../script/values.ts';
import {
  distinctHashes,
  keywordDistinct,
  numberDistinct,
  type SegmentDistinct,
  segmentRegisters,
} from './cardinality-ordinals.ts';
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
import { ScriptValues, scriptString } from './script-values.ts';

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
  private readonly script: ScriptValues | null;
  /** A value script over a field's `_value` (rather than a script alone). */
  private readonly valueScript: boolean;

  constructor(spec: CardinalitySpec, env: AggEnv) {
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
    this.valueScript = spec.source.field !== '';
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
    if (this.script !== null) {
      this.script.setSegment(rs);
      return;
    }
    const sf = this.src.kind === 'unmapped' ? undefined : rs.segment.field(this.src.path);
    if (!sf) return;
    if (sf.sortedSet) this.ords = sf.sortedSet;
    else if (sf.geo) this.geo = sf.geo;
    else if (sf.numeric?.kind === 'long' && !this.src.nanos) this.longs = sf.numeric;
    else this.doubles = doubleView(this.src, rs);
  }

  collect(doc: number, owner: number): void {
    let found = false;
    if (this.script !== null) {
      const n = this.script.fill(doc);
      for (let i = 0; i < n; i++) this.add(owner, this.scriptValue(this.script.buf[i]));
      if (n === 0 && this.missing !== undefined) this.add(owner, this.missing);
      return;
    }
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
   * Keyword, ip and numeric values by ordinal (cardinality-ordinals.ts): the ordinals the
   * matching docs hold marked in one loop — none when every doc of the segment matches — then
   * each distinct value added once, or, past the threshold, its hash (the segment's whole
   * sketch when every doc matches).
   */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const table = this.distinctTable(rs);
    if (table === null) return false;
    const everyDoc = docs === null && excluded === null && table.allUsed;
    let seen: Uint8Array | null = null;
    let distinct = table.values.length;
    let without = table.someWithout;
    if (!everyDoc) {
      seen = new Uint8Array(table.values.length);
      const { starts, ords } = table;
      without = false;
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
      distinct = 0;
      for (let ord = 0; ord < seen.length; ord++) distinct += seen[ord]!;
    }
    if (this.sketches[0] === undefined && (this.sets[0]?.size ?? 0) + distinct <= this.threshold) {
      for (let ord = 0; ord < table.values.length; ord++)
        if (seen === null || seen[ord] === 1) this.add(0, table.values[ord]!);
    } else if (seen === null) {
      const sketch = this.sketchOf(0);
      const whole = segmentRegisters(rs, table, this.precision);
      for (let i = 0; i < whole.length; i++) if (whole[i]! > sketch[i]!) sketch[i] = whole[i]!;
    } else {
      const sketch = this.sketchOf(0);
      const hashes = distinctHashes(rs, table);
      for (let ord = 0; ord < seen.length; ord++)
        if (seen[ord] === 1) addHash(sketch, this.precision, hashes[2 * ord]!, hashes[2 * ord + 1]!);
    }
    if (without && this.missing !== undefined) this.add(0, this.missing);
    return true;
  }

  private scriptValue(v: unknown): DistinctValue {
    if (this.valueScript) {
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return normalizeLong(v);
      if (v instanceof DateValue) return v.millis;
    }
    return scriptString(v);
  }

  /** The segment's values by ordinal; null for geo points and scripts (counted doc by doc). */
  private distinctTable(rs: ReaderSegment): SegmentDistinct | null {
    if (this.script !== null) return null;
    if (this.ords !== null) return keywordDistinct(rs, this.src.path, this.ords);
    if (this.longs !== null) return numberDistinct(rs, this.src.path, this.longs);
    if (this.doubles !== null) return numberDistinct(rs, this.src.path, this.doubles);
    return null;
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
