/**
 * A segment read from its file. Only the `_id` lookup structures stay resident (every write
 * looks ids up in every segment); postings, doc values, per-doc seq_no/version/term and the
 * `_source` offsets and blocks of `_source` bytes are loaded on first use into the thread's
 * section cache and dropped when they go cold.
 */

import { Section, sectionCache } from '../store/section-cache.ts';
import type { FieldDirectory, SegmentDirectory } from '../store/segment-codec.ts';
import { byteLengthOf, type SegmentFile } from '../store/segment-file.ts';

/** The unit in which `_source` is read and cached (see FileBacking.source). */
const SOURCE_BLOCK_BYTES = 16 * 1024;

import type {
  GeoValues,
  NumericValues,
  Postings,
  SegmentBacking,
  SegmentField,
  SortedSetValues,
  StoredFields,
} from './segment.ts';

let owners = 0;
const decoder = new TextDecoder();
const encoder = new TextEncoder();
/** Reused for id lookups: a write looks its id up in every segment (ids are at most 512 bytes). */
let idScratch = new Uint8Array(1024);

/** The UTF-8 bytes of an id, in a buffer the next call reuses. */
function encodeId(id: string): Uint8Array {
  if (id.length * 3 > idScratch.length) idScratch = new Uint8Array(id.length * 3);
  const { written } = encoder.encodeInto(id, idScratch);
  return idScratch.subarray(0, written);
}

/** Rough heap cost of a decoded string list. */
function stringsBytes(list: readonly string[]): number {
  let n = 0;
  for (const s of list) n += 32 + s.length;
  return n;
}

function compareBytes(a: Uint8Array, aFrom: number, aTo: number, b: Uint8Array): number {
  const n = Math.min(aTo - aFrom, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[aFrom + i]! - b[i]!;
    if (d !== 0) return d;
  }
  return aTo - aFrom - b.length;
}

export class FileBacking implements SegmentBacking {
  readonly maxDoc: number;
  readonly sizeInBytes: number;
  readonly fields: ReadonlyMap<string, SegmentField>;
  readonly stored: StoredFields;
  private readonly owner = ++owners;
  private readonly idBytes: Uint8Array;
  private readonly idOffsets: Uint32Array;
  private readonly idOrder: Int32Array;

  constructor(
    readonly file: SegmentFile,
    readonly dir: SegmentDirectory,
  ) {
    this.maxDoc = dir.maxDoc;
    this.sizeInBytes = file.length;
    this.idBytes = file.array(dir.ids.bytes) as Uint8Array;
    this.idOffsets = file.array(dir.ids.offsets) as Uint32Array;
    this.idOrder = file.array(dir.idOrder) as Int32Array;
    const fields = new Map<string, SegmentField>();
    for (const fd of dir.fields) fields.set(fd.path, this.fieldView(fd));
    this.fields = fields;
    this.stored = this.storedView();
  }

  /** A section of this segment, looked up in the thread's section cache by `key`. */
  private section<T>(key: string, load: () => { value: T; bytes: number }): Section<T> {
    return new Section(this.owner, key, load);
  }

  private storedView(): StoredFields {
    const { file, dir } = this;
    const meta = this.section('meta', () => ({
      value: {
        seqNos: file.array(dir.seqNos) as Float64Array,
        versions: file.array(dir.versions) as Float64Array,
        primaryTerms: file.array(dir.primaryTerms) as Float64Array,
      },
      bytes: this.maxDoc * 24,
    }));
    const ids = this.section('ids', () => {
      const value: string[] = new Array(this.maxDoc);
      for (let d = 0; d < this.maxDoc; d++) value[d] = this.id(d);
      return { value, bytes: stringsBytes(value) + 8 * value.length };
    });
    const routing = this.section('routing', () => {
      const value: (string | null)[] = new Array(this.maxDoc).fill(null);
      if (dir.routing) {
        const present = file.array(dir.routing.present) as Uint8Array;
        const values = file.strings(dir.routing.values);
        for (let d = 0; d < this.maxDoc; d++) if (present[d]) value[d] = values[d]!;
      }
      return { value, bytes: 8 * value.length };
    });
    return {
      get ids() {
        return ids.value;
      },
      get routing() {
        return routing.value;
      },
      get seqNos() {
        return meta.value.seqNos;
      },
      get versions() {
        return meta.value.versions;
      },
      get primaryTerms() {
        return meta.value.primaryTerms;
      },
    };
  }

  private fieldView(fd: FieldDirectory): SegmentField {
    const { file } = this;
    const terms = this.section(`terms:${fd.path}`, () => {
      const value = file.strings(fd.postings!.terms);
      return { value, bytes: stringsBytes(value) };
    });
    const docs = this.section(`docs:${fd.path}`, () => ({
      value: file.array(fd.docsWithField) as Int32Array,
      bytes: byteLengthOf(fd.docsWithField),
    }));
    const view: SegmentField = {
      path: fd.path,
      type: fd.type,
      get docsWithField() {
        return docs.value;
      },
    };
    const p = fd.postings;
    if (p) {
      const postings = this.section(`postings:${fd.path}`, () => {
        const arr = (r: typeof p.freqs) => (r ? file.array(r) : null);
        const value: Postings = {
          terms: terms.value,
          starts: file.array(p.starts) as Uint32Array,
          docs: file.array(p.docs) as Int32Array,
          freqs: arr(p.freqs) as Int32Array | null,
          positionStarts: arr(p.positionStarts) as Uint32Array | null,
          positions: arr(p.positions) as Int32Array | null,
          norms: arr(p.norms) as Uint8Array | null,
          sumTotalTermFreq: p.sumTotalTermFreq,
          sumDocFreq: p.sumDocFreq,
        };
        let bytes = byteLengthOf(p.starts) + byteLengthOf(p.docs);
        for (const r of [p.freqs, p.positionStarts, p.positions, p.norms]) if (r) bytes += byteLengthOf(r);
        return { value, bytes };
      });
      Object.defineProperty(view, 'postings', { enumerable: true, get: (): Postings => postings.value });
    }
    const ss = fd.sortedSet;
    if (ss) {
      const sortedSet = this.section(`sortedSet:${fd.path}`, () => ({
        value: {
          terms: terms.value,
          starts: file.array(ss.starts) as Uint32Array,
          ords: file.array(ss.ords) as Int32Array,
          singleValued: ss.singleValued,
        },
        bytes: byteLengthOf(ss.starts) + byteLengthOf(ss.ords),
      }));
      Object.defineProperty(view, 'sortedSet', {
        enumerable: true,
        get: (): SortedSetValues => sortedSet.value,
      });
    }
    const n = fd.numeric;
    if (n) {
      const numeric = this.section(`numeric:${fd.path}`, () => {
        const starts = file.array(n.starts) as Uint32Array;
        const value: NumericValues =
          n.kind === 'long'
            ? {
                kind: 'long',
                starts,
                values: file.array(n.values) as BigInt64Array,
                singleValued: n.singleValued,
              }
            : {
                kind: 'double',
                starts,
                values: file.array(n.values) as Float64Array,
                singleValued: n.singleValued,
              };
        return { value, bytes: byteLengthOf(n.starts) + byteLengthOf(n.values) };
      });
      Object.defineProperty(view, 'numeric', { enumerable: true, get: (): NumericValues => numeric.value });
    }
    const g = fd.geo;
    if (g) {
      const geo = this.section(`geo:${fd.path}`, () => ({
        value: {
          starts: file.array(g.starts) as Uint32Array,
          lat: file.array(g.lat) as Float64Array,
          lon: file.array(g.lon) as Float64Array,
        },
        bytes: byteLengthOf(g.starts) + byteLengthOf(g.lat) * 2,
      }));
      Object.defineProperty(view, 'geo', { enumerable: true, get: (): GeoValues => geo.value });
    }
    return view;
  }

  private readonly sourceOffsets = this.section('sourceOffsets', () => ({
    value: this.file.array(this.dir.sourceOffsets) as Uint32Array,
    bytes: byteLengthOf(this.dir.sourceOffsets),
  }));
  /** The `_source` blocks' sections, made on first use. */
  private readonly sourceBlocks: Section<Uint8Array>[] = [];

  /**
   * `_source` bytes are read in aligned blocks of SOURCE_BLOCK_BYTES kept in the section cache:
   * the documents a search returns again and again (the top hits of frequent queries) are
   * served from memory, and a page of neighbouring documents (match_all, a scroll in `_doc`
   * order) costs one read. A document that crosses a block boundary or is larger than half
   * a block is read on its own, uncached.
   */
  private lastBlock: { index: number; bytes: Uint8Array } | undefined;

  source(doc: number): Uint8Array {
    const o = this.sourceOffsets.value;
    const from = o[doc]!;
    const to = o[doc + 1]!;
    const index = Math.floor(from / SOURCE_BLOCK_BYTES);
    const start = index * SOURCE_BLOCK_BYTES;
    if (to - from > SOURCE_BLOCK_BYTES / 2 || to > start + SOURCE_BLOCK_BYTES) {
      return this.file.bytes(this.dir.source.off + from, to - from);
    }
    let block = this.lastBlock;
    if (block?.index !== index) {
      block = { index, bytes: this.sourceBlockAt(index) };
      this.lastBlock = block;
    }
    // A view, never the whole block: it is copied, not transferred, across threads.
    return block.bytes.subarray(from - start, to - start);
  }

  private sourceBlockAt(index: number): Uint8Array {
    let block = this.sourceBlocks[index];
    if (block === undefined) {
      block = this.section(`source:${index}`, () => {
        const start = index * SOURCE_BLOCK_BYTES;
        const len = Math.min(SOURCE_BLOCK_BYTES, byteLengthOf(this.dir.source) - start);
        return { value: this.file.bytes(this.dir.source.off + start, len), bytes: len };
      });
      this.sourceBlocks[index] = block;
    }
    return block.value;
  }

  sourceBlock() {
    return {
      bytes: this.file.array(this.dir.source) as Uint8Array,
      offsets: this.file.array(this.dir.sourceOffsets) as Uint32Array,
    };
  }

  id(doc: number): string {
    return decoder.decode(this.idBytes.subarray(this.idOffsets[doc]!, this.idOffsets[doc + 1]!));
  }

  docOfId(id: string): number {
    const probe = encodeId(id);
    const order = this.idOrder;
    const bytes = this.idBytes;
    const offs = this.idOffsets;
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const doc = order[mid]!;
      const c = compareBytes(bytes, offs[doc]!, offs[doc + 1]!, probe);
      if (c < 0) lo = mid + 1;
      else if (c > 0) hi = mid - 1;
      else return doc;
    }
    return -1;
  }

  /** Bytes that stay resident whatever the cache holds. */
  get residentBytes(): number {
    return this.idBytes.byteLength + this.idOffsets.byteLength + this.idOrder.byteLength;
  }

  close(): void {
    sectionCache.dropOwner(this.owner);
    this.file.close();
  }
}
