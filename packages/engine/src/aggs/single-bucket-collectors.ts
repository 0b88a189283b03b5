/**
 * The aggregations that select docs into fixed buckets: filter and filters (queries compiled by
 * the engine's query compiler against the same reader, matched per segment as bitsets), missing
 * (docs without a value) and global (every live doc, fed by aggregate-shard.ts). A single-bucket
 * aggregation's sub-aggregations collect under the owner's own ordinal; filters' buckets are
 * `owner * buckets + filter`, the other bucket last.
 */
import type {
  AggPartial,
  FilterSpec,
  FiltersSpec,
  MissingSpec,
  QueryNode,
  SingleBucketPartial,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { compileQuery } from '../search/query-compiler.ts';
import { topLevelFields } from '../search/top-level-fields.ts';
import type { Weight } from '../search/weights.ts';
import { type AggCollector, BucketDoubles } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import { type AggEnv, ANY_KINDS, type FieldSource, resolveSource } from './field-source.ts';

export function compileFilter(query: QueryNode, env: AggEnv): Weight {
  return compileQuery(query, {
    reader: env.reader,
    mapping: topLevelFields(env.mapping),
    index: env.ctx.index,
    indexUuid: env.ctx.indexUuid,
    nowMillis: env.ctx.nowMillis,
  });
}

export function matchBits(weight: Weight, rs: ReaderSegment): Uint32Array {
  const bits = new Uint32Array((rs.segment.maxDoc + 31) >>> 5);
  weight.markDocs(rs, bits);
  return bits;
}

export function isSet(bits: Uint32Array, doc: number): boolean {
  return (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
}

/** Collects into the owner's bucket every doc `accepts` lets through. */
abstract class SingleBucketCollector implements AggCollector {
  private readonly counts = new BucketDoubles();
  private docCounts: Float64Array | null = null;

  constructor(protected readonly subs: readonly AggCollector[]) {}

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.segment(rs);
  }

  protected abstract segment(rs: ReaderSegment): void;
  protected abstract accepts(doc: number): boolean;

  collect(doc: number, owner: number): void {
    if (!this.accepts(doc)) return;
    this.counts.add(owner, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, owner);
  }

  build(owner: number): AggPartial {
    return { t: 'single', docCount: this.counts.get(owner), aggs: this.subs.map((s) => s.build(owner)) };
  }
}

export class FilterCollector extends SingleBucketCollector {
  private readonly weight: Weight;
  private bits: Uint32Array = new Uint32Array(0);

  constructor(spec: FilterSpec, env: AggEnv, subs: readonly AggCollector[]) {
    super(subs);
    this.weight = compileFilter(spec.query, env);
  }

  protected segment(rs: ReaderSegment): void {
    this.bits = matchBits(this.weight, rs);
  }

  protected accepts(doc: number): boolean {
    return isSet(this.bits, doc);
  }
}

export class MissingCollector extends SingleBucketCollector {
  private readonly src: FieldSource;
  /** With a `missing` substitute every doc has a value. */
  private readonly never: boolean;
  private starts: Uint32Array | null = null;

  constructor(spec: MissingSpec, env: AggEnv, subs: readonly AggCollector[]) {
    super(subs);
    this.src = resolveSource(spec.source, 'missing', ANY_KINDS, env);
    this.never = spec.source.missing !== undefined || this.src.constant !== undefined;
  }

  protected segment(rs: ReaderSegment): void {
    const sf = this.src.kind === 'unmapped' ? undefined : rs.segment.field(this.src.path);
    this.starts = sf?.numeric?.starts ?? sf?.sortedSet?.starts ?? sf?.geo?.starts ?? null;
  }

  protected accepts(doc: number): boolean {
    if (this.never) return false;
    const st = this.starts;
    return st === null || st[doc] === st[doc + 1];
  }
}

export class GlobalCollector extends SingleBucketCollector {
  protected segment(): void {}

  protected accepts(): boolean {
    return true;
  }
}

export class FiltersCollector implements AggCollector {
  private readonly weights: Weight[];
  private readonly width: number;
  private readonly counts = new BucketDoubles();
  private bits: Uint32Array[] = [];
  private docCounts: Float64Array | null = null;

  constructor(
    private readonly spec: FiltersSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.weights = spec.filters.map((f) => compileFilter(f.query, env));
    this.width = spec.filters.length + (spec.otherBucket ? 1 : 0);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.bits = this.weights.map((w) => matchBits(w, rs));
    this.docCounts = docCountsOf(rs);
  }

  collect(doc: number, owner: number): void {
    let matched = false;
    for (let i = 0; i < this.bits.length; i++) {
      if (!isSet(this.bits[i]!, doc)) continue;
      matched = true;
      this.collectBucket(doc, owner * this.width + i);
    }
    if (!matched && this.spec.otherBucket) this.collectBucket(doc, owner * this.width + this.weights.length);
  }

  private collectBucket(doc: number, bucket: number): void {
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const bucket = (i: number): SingleBucketPartial => {
      const b = owner < 0 ? -1 : owner * this.width + i;
      return { t: 'single', docCount: this.counts.get(b), aggs: this.subs.map((s) => s.build(b)) };
    };
    const buckets = this.weights.map((_, i) => bucket(i));
    return this.spec.otherBucket
      ? { t: 'filters', buckets, other: bucket(this.weights.length) }
      : { t: 'filters', buckets };
  }
}
