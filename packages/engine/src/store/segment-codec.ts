/**
 * What a segment file holds, and how an in-memory segment is written into one. The reading
 * side is index/file-backing.ts, which loads these arrays lazily.
 */
import { closeSync, openSync } from 'node:fs';
import type { InMemoryStored, LeafType, NumericValues, SegmentField } from '../index/segment.ts';
import { compareTerms } from '../index/term-order.ts';
import {
  type ArrayRef,
  arrayIn,
  type SegmentFile,
  SegmentFileWriter,
  type StringsRef,
  stringsIn,
} from './segment-file.ts';

export interface FieldDirectory {
  path: string;
  type: LeafType;
  docsWithField: ArrayRef;
  postings?: {
    terms: StringsRef;
    starts: ArrayRef;
    docs: ArrayRef;
    freqs?: ArrayRef;
    positionStarts?: ArrayRef;
    positions?: ArrayRef;
    norms?: ArrayRef;
    sumTotalTermFreq: number;
    sumDocFreq: number;
  };
  /** Its terms are the postings' terms. */
  sortedSet?: { starts: ArrayRef; ords: ArrayRef; singleValued: boolean };
  numeric?: { kind: 'double' | 'long'; starts: ArrayRef; values: ArrayRef; singleValued: boolean };
  geo?: { starts: ArrayRef; lat: ArrayRef; lon: ArrayRef };
}

export interface SegmentDirectory {
  name: string;
  maxDoc: number;
  ids: StringsRef;
  /** Docs in `_id` order, for the id lookups of every write. */
  idOrder: ArrayRef;
  /** Absent when no doc has a custom routing. */
  routing?: { values: StringsRef; present: ArrayRef };
  seqNos: ArrayRef;
  versions: ArrayRef;
  primaryTerms: ArrayRef;
  source: ArrayRef;
  sourceOffsets: ArrayRef;
  fields: FieldDirectory[];
}

/** A segment as built in memory, before it is written. */
export interface SegmentData {
  name: string;
  stored: InMemoryStored;
  fields: ReadonlyMap<string, SegmentField>;
}

export function idOrderOf(ids: readonly string[]): Int32Array {
  const o = new Int32Array(ids.length);
  for (let i = 0; i < o.length; i++) o[i] = i;
  o.sort((a, b) => compareTerms(ids[a]!, ids[b]!));
  return o;
}

function fieldDirectory(w: SegmentFileWriter, f: SegmentField): FieldDirectory {
  const d: FieldDirectory = { path: f.path, type: f.type, docsWithField: w.array(f.docsWithField) };
  const p = f.postings;
  if (p) {
    d.postings = {
      terms: w.strings(p.terms),
      starts: w.array(p.starts),
      docs: w.array(p.docs),
      sumTotalTermFreq: p.sumTotalTermFreq,
      sumDocFreq: p.sumDocFreq,
    };
    if (p.freqs) d.postings.freqs = w.array(p.freqs);
    if (p.positionStarts) d.postings.positionStarts = w.array(p.positionStarts);
    if (p.positions) d.postings.positions = w.array(p.positions);
    if (p.norms) d.postings.norms = w.array(p.norms);
  }
  const ss = f.sortedSet;
  if (ss) d.sortedSet = { starts: w.array(ss.starts), ords: w.array(ss.ords), singleValued: ss.singleValued };
  const n = f.numeric;
  if (n) {
    d.numeric = {
      kind: n.kind,
      starts: w.array(n.starts),
      values: w.array(n.values),
      singleValued: n.singleValued,
    };
  }
  const g = f.geo;
  if (g) d.geo = { starts: w.array(g.starts), lat: w.array(g.lat), lon: w.array(g.lon) };
  return d;
}

/** Writes `data` to `path` (not fsynced); returns the directory, length and CRC. */
export function writeSegmentFile(
  path: string,
  data: SegmentData,
): { directory: SegmentDirectory; length: number; crc: number } {
  const w = new SegmentFileWriter();
  const st = data.stored;
  const maxDoc = st.ids.length;
  const directory: SegmentDirectory = {
    name: data.name,
    maxDoc,
    ids: w.strings(st.ids),
    idOrder: w.array(idOrderOf(st.ids)),
    seqNos: w.array(st.seqNos),
    versions: w.array(st.versions),
    primaryTerms: w.array(st.primaryTerms),
    source: w.array(st.sourceBytes),
    sourceOffsets: w.array(st.sourceOffsets),
    fields: [],
  };
  if (st.routing.some((r) => r !== null && r !== undefined)) {
    const present = new Uint8Array(maxDoc);
    const values = st.routing.map((r, i) => {
      if (r === null || r === undefined) return '';
      present[i] = 1;
      return r;
    });
    directory.routing = { values: w.strings(values), present: w.array(present) };
  }
  for (const f of data.fields.values()) directory.fields.push(fieldDirectory(w, f));
  const fd = openSync(path, 'wx');
  try {
    const { length, crc } = w.write(fd, directory);
    return { directory, length, crc };
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole segment file read back in one positioned read, every array a view into that one
 * buffer (what a merge reads of each input): into `scratch` when it is large enough (a merge
 * reuses one for all its inputs), else into a buffer of its own. Array-by-array reads would be
 * as many mid-sized malloc blocks, freed in an order that leaves holes in the allocator's
 * arenas. It also keeps merges out of the section cache, whose room is for searches.
 */
export function readSegmentData(file: SegmentFile, scratch?: Uint8Array): SegmentData {
  const dir = file.directory as SegmentDirectory;
  const all =
    scratch && scratch.length >= file.length
      ? file.readInto(scratch.subarray(0, file.length), 0)
      : file.bytes(0, file.length);
  const at = (ref: ArrayRef) => arrayIn(all, ref);
  const maxDoc = dir.maxDoc;
  const routing: (string | null)[] = new Array(maxDoc).fill(null);
  if (dir.routing) {
    const present = at(dir.routing.present) as Uint8Array;
    const values = stringsIn(all, dir.routing.values);
    for (let d = 0; d < maxDoc; d++) if (present[d]) routing[d] = values[d]!;
  }
  const stored: InMemoryStored = {
    ids: stringsIn(all, dir.ids),
    routing,
    seqNos: at(dir.seqNos) as Float64Array,
    versions: at(dir.versions) as Float64Array,
    primaryTerms: at(dir.primaryTerms) as Float64Array,
    sourceBytes: at(dir.source) as Uint8Array,
    sourceOffsets: at(dir.sourceOffsets) as Uint32Array,
  };
  const fields = new Map<string, SegmentField>();
  for (const fd of dir.fields) {
    const f: SegmentField = {
      path: fd.path,
      type: fd.type,
      docsWithField: at(fd.docsWithField) as Int32Array,
    };
    const p = fd.postings;
    const terms = p ? stringsIn(all, p.terms) : [];
    if (p) {
      f.postings = {
        terms,
        starts: at(p.starts) as Uint32Array,
        docs: at(p.docs) as Int32Array,
        freqs: p.freqs ? (at(p.freqs) as Int32Array) : null,
        positionStarts: p.positionStarts ? (at(p.positionStarts) as Uint32Array) : null,
        positions: p.positions ? (at(p.positions) as Int32Array) : null,
        norms: p.norms ? (at(p.norms) as Uint8Array) : null,
        sumTotalTermFreq: p.sumTotalTermFreq,
        sumDocFreq: p.sumDocFreq,
      };
    }
    const ss = fd.sortedSet;
    if (ss) {
      f.sortedSet = {
        terms,
        starts: at(ss.starts) as Uint32Array,
        ords: at(ss.ords) as Int32Array,
        singleValued: ss.singleValued,
      };
    }
    const n = fd.numeric;
    if (n) {
      const starts = at(n.starts) as Uint32Array;
      f.numeric = (
        n.kind === 'long'
          ? { kind: 'long', starts, values: at(n.values), singleValued: n.singleValued }
          : { kind: 'double', starts, values: at(n.values), singleValued: n.singleValued }
      ) as NumericValues;
    }
    const g = fd.geo;
    if (g) {
      f.geo = {
        starts: at(g.starts) as Uint32Array,
        lat: at(g.lat) as Float64Array,
        lon: at(g.lon) as Float64Array,
      };
    }
    fields.set(fd.path, f);
  }
  return { name: dir.name, stored, fields };
}
