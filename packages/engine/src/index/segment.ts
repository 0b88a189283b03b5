/**
 * An immutable segment: what one refresh (or one merge) produced. Everything is typed arrays
 * and flat string arrays. A shard with a data path writes each segment to its file as soon as
 * it is built and reads it back lazily from there (file-backing.ts); a shard without one keeps
 * it in memory. Derived structures (sorted permutations for sort fast paths) are computed
 * lazily and cached here: they are as immutable as the segment.
 */
import type { ResolvedField } from '../contract.ts';
import { idOrderOf } from '../store/segment-codec.ts';
import type { SegmentFile } from '../store/segment-file.ts';
import { IdFilter } from './id-filter.ts';
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
  ids: readonly string[];
  routing: readonly (string | null)[];
  /** seq_no, version and primary term per doc (Float64Array: exact up to 2^53). */
  seqNos: Float64Array;
  versions: Float64Array;
  primaryTerms: Float64Array;
}

/** What a segment built in memory holds besides its fields: the stored `_source` bytes. */
export interface InMemoryStored extends StoredFields {
  sourceBytes: Uint8Array;
  /** Source of doc d: bytes [sourceOffsets[d], sourceOffsets[d+1]). */
  sourceOffsets: Uint32Array;
}

/**
 * Where a segment's data lives: in memory (built by a refresh or merge of a shard without a
 * data path) or in its file (see file-backing.ts), loaded lazily.
 */
export interface SegmentBacking {
  readonly maxDoc: number;
  readonly stored: StoredFields;
  readonly fields: ReadonlyMap<string, SegmentField>;
  readonly sizeInBytes: number;
  source(doc: number): Uint8Array;
  /** Every doc's source at once (merges), without going through any cache. */
  sourceBlock(): { bytes: Uint8Array; offsets: ArrayLike<number> };
  id(doc: number): string;
  docOfId(id: string): number;
  /** The file behind the data, for a segment that has one. */
  readonly file?: SegmentFile;
  /** Bytes kept in memory for as long as the segment is open. */
  readonly residentBytes: number;
  close(): void;
}

class MemoryBacking implements SegmentBacking {
  readonly maxDoc: number;
  readonly sizeInBytes: number;
  private idOrder: Int32Array | undefined;

  constructor(
    readonly stored: InMemoryStored,
    readonly fields: ReadonlyMap<string, SegmentField>,
  ) {
    this.maxDoc = stored.ids.length;
    this.sizeInBytes = estimateSize(stored, fields);
  }

  source(doc: number): Uint8Array {
    const o = this.stored.sourceOffsets;
    return this.stored.sourceBytes.subarray(o[doc]!, o[doc + 1]!);
  }

  sourceBlock() {
    return { bytes: this.stored.sourceBytes, offsets: this.stored.sourceOffsets };
  }

  id(doc: number): string {
    return this.stored.ids[doc]!;
  }

  docOfId(id: string): number {
    const ids = this.stored.ids;
    this.idOrder ??= idOrderOf(ids);
    const order = this.idOrder;
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

  get residentBytes(): number {
    return this.sizeInBytes;
  }

  close(): void {
    this.idOrder = undefined;
  }
}

let segmentGeneration = 0;

export class Segment {
  readonly name: string;
  readonly maxDoc: number;
  private readonly backing: SegmentBacking;
  private readonly cache = new Map<string, unknown>();
  private refs = 0;
  /** Built on the first id lookup (every write looks its id up in every segment). */
  private idFilter: IdFilter | undefined;
  private readonly closeListeners: ((s: Segment) => void)[] = [];

  constructor(stored: InMemoryStored, fields: Map<string, SegmentField>, name?: string);
  constructor(backing: SegmentBacking, name: string);
  constructor(a: InMemoryStored | SegmentBacking, b?: Map<string, SegmentField> | string, name?: string) {
    if (typeof b === 'string') {
      this.backing = a as SegmentBacking;
      this.name = b;
    } else {
      this.backing = new MemoryBacking(a as InMemoryStored, b ?? new Map());
      this.name = name ?? `_m${(segmentGeneration++).toString(36)}`;
    }
    this.maxDoc = this.backing.maxDoc;
  }

  /** Stored per-doc data (ids, routing, seq_no, version, term); may load it from the file. */
  get stored(): StoredFields {
    return this.backing.stored;
  }

  get fields(): ReadonlyMap<string, SegmentField> {
    return this.backing.fields;
  }

  /** Bytes: the file's length, or an estimate of the arrays of an in-memory segment. */
  get sizeInBytes(): number {
    return this.backing.sizeInBytes;
  }

  get residentBytes(): number {
    return this.backing.residentBytes + (this.idFilter?.byteLength ?? 0);
  }

  /** The segment's file, when it has one (a shard with a data path). */
  get file(): SegmentFile | undefined {
    return this.backing.file;
  }

  field(path: string): SegmentField | undefined {
    return this.backing.fields.get(path);
  }

  source(doc: number): Uint8Array {
    return this.backing.source(doc);
  }

  sourceBlock(): { bytes: Uint8Array; offsets: ArrayLike<number> } {
    return this.backing.sourceBlock();
  }

  /** The `_id` of `doc`, without materialising the whole id list. */
  id(doc: number): string {
    return this.backing.id(doc);
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
    this.idFilter ??= IdFilter.build(this.maxDoc, (d) => this.backing.id(d));
    if (!this.idFilter.mayContain(id)) return -1;
    return this.backing.docOfId(id);
  }

  // Reference counting: the engine holds one reference while the segment is part of the
  // shard's current set, every reader holds one while open. The store listens for the last
  // release to close the file and delete it unless a commit still needs it (as Lucene's
  // IndexFileDeleter does), so a PIT or scroll keeps its segments' files on disk.
  incRef(): void {
    this.refs++;
  }

  decRef(): void {
    if (this.refs <= 0) throw new Error(`segment ${this.name} released too often`);
    if (--this.refs === 0) {
      this.cache.clear();
      this.idFilter = undefined;
      this.backing.close();
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

function estimateSize(stored: InMemoryStored, fields: ReadonlyMap<string, SegmentField>): number {
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
