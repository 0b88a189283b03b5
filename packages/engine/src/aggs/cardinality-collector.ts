/**
 * cardinality: per bucket, the distinct values exactly until there are more than
 * `precision_threshold`, then a HyperLogLog++ sketch (protocol cardinality-sketch.ts). Values
 * are the keyword or ip term, the number (64-bit values of long fields stay exact), the date in
 * millis, or the geo point's `lat,lon`.
 */
import {
  type AggPartial,
  addValue,
  type CardinalitySpec,
  type DistinctValue,
  newRegisters,
  precisionFromThreshold,
} from '@shoal/protocol';
import type { GeoValues, NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { AggCollector } from './collector.ts';
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
