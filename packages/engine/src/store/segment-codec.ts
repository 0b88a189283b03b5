/**
 * What a segment file holds, and how an in-memory segment is written into one. The reading
 * side is index/file-backing.ts, which loads these arrays lazily.
 */
import { closeSync, openSync } from 'node:fs';
import type { InMemoryStored, LeafType, SegmentField } from '../index/segment.ts';
import { compareTerms } from '../index/term-order.ts';
import { type ArrayRef, SegmentFileWriter, type StringsRef } from './segment-file.ts';

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
