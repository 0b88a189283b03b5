/**
 * An immutable segment: what one refresh (or one merge) produced. Everything is typed arrays
 * and flat string arrays, so a segment is cheap to keep alive and to hand to a later
 * persistence layer. Derived structures (sorted permutations for sort fast paths, the `_id`
 * lookup order) are computed lazily and cached here: they are as immutable as the segment.
 */
import type { ResolvedField } from '../contract.ts';
import { compareTerms } from './term-order.ts';

export type LeafType = ResolvedField['type'];

/** Inverted index of one field: term dictionary → doc ids (+ freqs, positions for text). */
export interface Postings {
  /** Sorted in code point (UTF-8 byte) order. */
  terms: readonly string[];
  /** Posting range of term t: [starts[t], starts[t+1]). */
  starts: Uint32Array;
  docs: Int32Array;
  /** Term frequency per posting; null when the field indexes docs only (freq is 1). */
  freqs: Int32Array | null;
  /** Position range of posting p: [positionStarts[p], positionStarts[p+1]). Text only. */
  positionStarts: Uint32Array | null;
  positions: Int32Array | null;
  /** SmallFloat-encoded field length per doc (text only). */
  norms: Uint8Array | null;
  sumTotalTermFreq: number;
  sumDocFreq: number;
}

/** Sorted-set doc values: per doc, the sorted unique ordinals of its terms. */
export interface SortedSetValues {
  terms: readonly string[];
  starts: Uint32Array;
  ords: Int32Array;
  singleValued: boolean;
}

/** Sorted-numeric doc values: per doc, its values in ascending order. */
export type NumericValues =
  | { kind: 'double'; starts: Uint32Array; values: Float64Array; singleValued: boolean }
  | { kind: 'long'; starts: Uint32Array; values: BigInt64Array; singleValued: boolean };

export interface GeoValues {
  starts: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
}

export interface SegmentField {
  path: string;
  type: LeafType;
  /** Docs that have at least one value, ascending (what `exists` matches). */
  docsWithField: Int32Array;
  postings?: Postings;
  sortedSet?: SortedSetValues;
  numeric?: NumericValues;
  geo?: GeoValues;
}

export interface StoredFields {
  ids: string[];
  routing: (string | null)[];
  sourceBytes: Uint8Array;
  /** Source of doc d: bytes [sourceOffsets[d], sourceOffsets[d+1]). */
  sourceOffsets: Uint32Array;
  /** seq_no, version and primary term per doc (Float64Array: exact up to 2^53). */
  seqNos: Float64Array;
  versions: Float64Array;
  primaryTerms: Float64Array;
}

let segmentGeneration = 0;

export class Segment {
  readonly name: string;
  readonly maxDoc: number;
  readonly stored: StoredFields;
  readonly fields: ReadonlyMap<string, SegmentField>;
  readonly sizeInBytes: number;
  private readonly cache = new Map<string, unknown>();
  private refs = 0;
  private readonly closeListeners: ((s: Segment) => void)[] = [];

  constructor(stored: StoredFields, fields: Map<string, SegmentField>, name?: string) {
    this.name = name ?? `_${(segmentGeneration++).toString(36)}`;
    this.maxDoc = stored.ids.length;
    this.stored = stored;
    this.fields = fields;
    this.sizeInBytes = estimateSize(stored, fields);
  }

  field(path: string): SegmentField | undefined {
    return this.fields.get(path);
  }

  source(doc: number): Uint8Array {
    const o = this.stored.sourceOffsets;
    return this.stored.sourceBytes.subarray(o[doc]!, o[doc + 1]!);
  }

  /** Lazily computed, cached derived data (sort permutations, id order…). */
  cached<T>(key: string, compute: () => T): T {
    let v = this.cache.get(key) as T | undefined;
    if (v === undefined) {
      v = compute();
      this.cache.set(key, v);
    }
    return v;
  }

  /** The doc holding `id` (deleted or not), or -1. Ids are unique within a segment. */
  docOfId(id: string): number {
    const ids = this.stored.ids;
    const order = this.cached('_id:order', () => {
      const o = new Int32Array(ids.length);
      for (let i = 0; i < o.length; i++) o[i] = i;
      o.sort((a, b) => compareTerms(ids[a]!, ids[b]!));
      return o;
    });
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const doc = order[mid]!;
      const c = compareTerms(ids[doc]!, id);
      if (c < 0) lo = mid + 1;
      else if (c > 0) hi = mid - 1;
      else return doc;
    }
    return -1;
  }

  // Reference counting: the engine holds one reference while the segment is part of the
  // shard's current set, every reader holds one while open. A persistence layer may listen
  // for the last release to delete the segment's files (as Lucene's IndexFileDeleter does).
  incRef(): void {
    this.refs++;
  }

  decRef(): void {
    if (this.refs <= 0) throw new Error(`segment ${this.name} released too often`);
    if (--this.refs === 0) {
      this.cache.clear();
      for (const l of this.closeListeners) l(this);
    }
  }

  get refCount(): number {
    return this.refs;
  }

  onClose(listener: (s: Segment) => void): void {
    this.closeListeners.push(listener);
  }
}

function estimateSize(stored: StoredFields, fields: Map<string, SegmentField>): number {
  let size = stored.sourceBytes.byteLength + stored.sourceOffsets.byteLength + stored.seqNos.byteLength * 3;
  for (const id of stored.ids) size += id.length + 16;
  for (const f of fields.values()) {
    size += f.docsWithField.byteLength;
    const p = f.postings;
    if (p) {
      size += p.starts.byteLength + p.docs.byteLength + (p.freqs?.byteLength ?? 0);
      size +=
        (p.positions?.byteLength ?? 0) + (p.positionStarts?.byteLength ?? 0) + (p.norms?.byteLength ?? 0);
      for (const t of p.terms) size += t.length + 16;
    }
    if (f.sortedSet) size += f.sortedSet.starts.byteLength + f.sortedSet.ords.byteLength;
    if (f.numeric) size += f.numeric.starts.byteLength + f.numeric.values.byteLength;
    if (f.geo) size += f.geo.starts.byteLength + f.geo.lat.byteLength * 2;
  }
  return size;
}
