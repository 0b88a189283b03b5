/**
 * Shard-side aggregation (Elasticsearch's Aggregator and LeafBucketCollector): a collector is
 * given each segment, then each matching doc with the ordinal of the bucket that owns it — 0 at
 * the top level; a bucket aggregation gives its sub-aggregations the ordinals of its own
 * buckets. Per-bucket state lives in arrays indexed by those ordinals, so one collector serves
 * every bucket of its parent without objects per bucket or closures per doc.
 *
 * `build(owner)` turns the state of one owning bucket into a partial (protocol partial.ts); an
 * owner that collected nothing (NO_OWNER included) builds the empty partial.
 */
import { type AggPartial, taskCancelled } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';

export interface AggCollector {
  setSegment(rs: ReaderSegment): void;
  /** `doc` is segment-local; `owner` the owning bucket's ordinal. */
  collect(doc: number, owner: number): void;
  /**
   * Collects a segment's docs at the top level (owner 0) in one loop of its own over the doc
   * values — `docs` the matching docs ascending, or null for all of them, less `excluded` —
   * when the collector has such a loop for its field and options (columnar-loops.ts); false
   * when it has not, and collect() is then called per doc. setSegment() was called first.
   */
  collectAll?(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean;
  build(owner: number): AggPartial;
  /** Collects nothing (a pipeline's place): a parent's columnar loop may leave it out. */
  readonly inert?: boolean;
}

/** Whether any of a bucket aggregation's sub-collectors needs the docs. */
export function collectsDocs(subs: readonly AggCollector[]): boolean {
  return subs.some((s) => s.inert !== true);
}

/** An owner that never collects: building it gives the empty partial. */
export const NO_OWNER = -1;

/** A growable array of doubles indexed by bucket ordinal; unset and negative slots read `fill`. */
export class BucketDoubles {
  private data: Float64Array;

  constructor(private readonly fill = 0) {
    this.data = new Float64Array(8);
    if (fill !== 0) this.data.fill(fill);
  }

  get(i: number): number {
    return i >= 0 && i < this.data.length ? this.data[i]! : this.fill;
  }

  set(i: number, v: number): void {
    if (i >= this.data.length) this.grow(i);
    this.data[i] = v;
  }

  add(i: number, v: number): void {
    if (i >= this.data.length) this.grow(i);
    this.data[i]! += v;
  }

  private grow(i: number): void {
    let n = this.data.length * 2;
    while (n <= i) n *= 2;
    const next = new Float64Array(n);
    if (this.fill !== 0) next.fill(this.fill, this.data.length);
    next.set(this.data);
    this.data = next;
  }
}

/**
 * The buckets of a dynamic bucket aggregation (terms, histograms, composite): per owning
 * bucket, its keys and their bucket ordinals (LongKeyedBucketOrds / BytesKeyedBucketOrds).
 */
export class BucketOrds<K> {
  private readonly maps: (Map<K, number> | undefined)[] = [];
  private readonly keyList: K[] = [];

  get size(): number {
    return this.keyList.length;
  }

  /** The bucket ordinal of (owner, key), made on first use. */
  ord(owner: number, key: K): number {
    let m = this.maps[owner];
    if (m === undefined) {
      m = new Map();
      this.maps[owner] = m;
    }
    let o = m.get(key);
    if (o === undefined) {
      o = this.keyList.length;
      this.keyList.push(key);
      m.set(key, o);
    }
    return o;
  }

  has(owner: number, key: K): boolean {
    return this.maps[owner]?.has(key) ?? false;
  }

  key(ord: number): K {
    return this.keyList[ord]!;
  }

  /** The bucket ordinals of one owner, in creation order. */
  ordsOf(owner: number): number[] {
    const m = owner >= 0 ? this.maps[owner] : undefined;
    return m ? [...m.values()] : [];
  }
}

/** Checks for cancellation every 4096 docs. */
export class AggCancel {
  private n = 0;

  constructor(private readonly isCancelled: (() => boolean) | undefined) {}

  step(): void {
    if ((++this.n & 4095) === 0 && this.isCancelled?.()) throw taskCancelled('cancelled');
  }
}
