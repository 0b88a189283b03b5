/**
 * percentiles, percentile_ranks, boxplot and median_absolute_deviation on a shard: per owning
 * bucket, the values go into a TDigest (or, for `hdr`, an HDR histogram) whose plain data is
 * the shard's partial; the coordinator merges the shards' digests and reads the percentiles.
 */
import {
  type AggPartial,
  DigestBuilder,
  type DigestMetricSpec,
  emptyDigest,
  emptyHdr,
  HdrBuilder,
  illegalArgument,
  type PercentilesSpec,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { pointsIndex } from '../search/points.ts';
import type { AggCancel, AggCollector } from './collector.ts';
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

type Sketch = DigestBuilder | HdrBuilder;

export class DigestCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: number | undefined;
  private readonly script: ScriptValues | null;
  private readonly sketches: (Sketch | undefined)[] = [];
  private view: DoubleView | null = null;
  private readonly hdrDigits: number | undefined;
  private readonly compression: number;

  constructor(
    private readonly spec: PercentilesSpec | DigestMetricSpec,
    env: AggEnv,
  ) {
    this.src = resolveSource(spec.source, spec.type, NUMERIC_KINDS, env);
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
    this.missing =
      spec.source.missing === undefined ? undefined : numberFor(this.src, spec.source.missing, env);
    if ('method' in spec) {
      this.hdrDigits = spec.method.kind === 'hdr' ? spec.method.digits : undefined;
      this.compression = spec.method.kind === 'tdigest' ? spec.method.compression : 100;
    } else {
      this.hdrDigits = undefined;
      this.compression = spec.compression;
    }
  }

  private sketch(owner: number): Sketch {
    let s = this.sketches[owner];
    if (s === undefined) {
      s = this.hdrDigits === undefined ? new DigestBuilder(this.compression) : new HdrBuilder(this.hdrDigits);
      this.sketches[owner] = s;
    }
    return s;
  }

  private add(s: Sketch, v: number): void {
    if (s instanceof HdrBuilder && v < 0) {
      throw illegalArgument(
        `[${this.spec.name}] the HDR histogram can not hold negative values: found [${v}] in [${this.src.path}]`,
      );
    }
    s.add(v);
  }

  setSegment(rs: ReaderSegment): void {
    this.view = this.src.kind === 'unmapped' ? null : doubleView(this.src, rs);
    this.script?.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    if (this.script !== null) {
      const n = this.script.fill(doc);
      const buf = this.script.buf;
      if (n === 0 && this.missing === undefined) return;
      const s = this.sketch(owner);
      for (let i = 0; i < n; i++) this.add(s, scriptDouble(buf[i]));
      if (n === 0) this.add(s, this.missing!);
      return;
    }
    const v = this.view;
    if (v !== null) {
      const st = v.starts[doc]!;
      const e = v.starts[doc + 1]!;
      if (st < e) {
        const s = this.sketch(owner);
        for (let i = st; i < e; i++) this.add(s, v.values[i]!);
        return;
      }
    }
    if (this.missing !== undefined) this.add(this.sketch(owner), this.missing);
  }

  /** The matching docs' values in one loop into owner 0's sketch. */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    if (this.missing !== undefined || this.script !== null) return false;
    const v = this.view;
    if (v === null) return true;
    const { starts, values } = v;
    const s = this.sketch(0);
    const n = docs === null ? starts.length - 1 : docs.length;
    if (s instanceof HdrBuilder) {
      for (let i = 0; i < n; i++) {
        const d = docs === null ? i : docs[i]!;
        if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
        cancel.step();
        for (let j = starts[d]!, e = starts[d + 1]!; j < e; j++) this.add(s, values[j]!);
      }
      return true;
    }
    if (docs === null && excluded === null) {
      // Every doc of the segment: doubles as the points index holds them, already in order
      // (the digest then merges the segments' runs rather than sorting every value), or the
      // values as they are.
      const n = rs.segment.field(this.src.path)?.numeric;
      const p = n?.kind === 'double' && n.values === values ? pointsIndex(rs, this.src.path) : null;
      if (p !== null && p.values instanceof Float64Array) s.addSorted(p.values);
      else s.addAll(values);
      return true;
    }
    for (let i = 0; i < n; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      for (let j = starts[d]!, e = starts[d + 1]!; j < e; j++) s.add(values[j]!);
    }
    return true;
  }

  build(owner: number): AggPartial {
    const fmt = this.src.fmt;
    const unmapped = this.src.kind === 'unmapped' && this.script === null ? { unmapped: true } : {};
    const s = owner >= 0 ? this.sketches[owner] : undefined;
    if (this.hdrDigits !== undefined) {
      const hdr = s instanceof HdrBuilder ? s.build() : emptyHdr(this.hdrDigits);
      return { t: 'hdr', hdr, fmt, ...unmapped };
    }
    const digest = s instanceof DigestBuilder ? s.build() : emptyDigest(this.compression);
    return { t: 'tdigest', digest, fmt, ...unmapped };
  }
}
