/**
 * Per-field accumulators of a segment under construction. Refresh feeds them from parsed
 * documents, merge feeds them from older segments' postings and doc values; both produce the
 * same typed-array layout (see segment.ts). Tokens are recorded as a flat (term, doc, position)
 * stream and grouped by a stable counting sort at build time, so building costs O(tokens)
 * plus sorting the distinct terms once.
 */
import { storedFloating } from '../mapping/number-values.ts';
import { BigBuffer, FloatBuffer, IntBuffer } from './growable.ts';
import type { GeoValues, LeafType, NumericValues, Postings, SortedSetValues } from './segment.ts';
import { compareTerms } from './term-order.ts';

export class TermFieldWriter {
  private readonly termIds = new Map<string, number>();
  private readonly termList: string[] = [];
  private readonly tokTerm = new IntBuffer(256);
  private readonly tokDoc = new IntBuffer(256);
  private readonly tokPos: IntBuffer | null;
  private readonly normDoc: IntBuffer | null;
  private readonly normByte: IntBuffer | null;
  private readonly dvDoc: IntBuffer | null;
  private readonly dvTerm: IntBuffer | null;
  readonly docsWithField = new IntBuffer(64);

  constructor(readonly type: LeafType) {
    const text = type === 'text';
    this.tokPos = text ? new IntBuffer(256) : null;
    this.normDoc = text ? new IntBuffer(64) : null;
    this.normByte = text ? new IntBuffer(64) : null;
    this.dvDoc = text ? null : new IntBuffer(64);
    this.dvTerm = text ? null : new IntBuffer(64);
  }

  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termList.length;
      this.termIds.set(term, id);
      this.termList.push(term);
    }
    return id;
  }

  /** Docs must arrive in non-decreasing order per term (true for refresh and for merge). */
  addToken(termId: number, doc: number, position: number): void {
    this.tokTerm.push(termId);
    this.tokDoc.push(doc);
    this.tokPos?.push(position);
  }

  /** Doc values (keyword, ip, boolean); docs in non-decreasing order. */
  addDocValue(termId: number, doc: number): void {
    this.dvDoc?.push(doc);
    this.dvTerm?.push(termId);
  }

  addNorm(doc: number, normByte: number): void {
    this.normDoc?.push(doc);
    this.normByte?.push(normByte);
  }

  markDoc(doc: number): void {
    const d = this.docsWithField;
    if (d.length === 0 || d.get(d.length - 1) !== doc) d.push(doc);
  }

  build(maxDoc: number): { postings: Postings; sortedSet?: SortedSetValues; docsWithField: Int32Array } {
    const nTerms = this.termList.length;
    const sortedIds = new Int32Array(nTerms);
    for (let i = 0; i < nTerms; i++) sortedIds[i] = i;
    const list = this.termList;
    sortedIds.sort((a, b) => compareTerms(list[a]!, list[b]!));
    const terms: string[] = new Array(nTerms);
    const ordOf = new Int32Array(nTerms);
    for (let o = 0; o < nTerms; o++) {
      const id = sortedIds[o]!;
      terms[o] = list[id]!;
      ordOf[id] = o;
    }
    const postings = this.buildPostings(terms, ordOf, maxDoc);
    const sortedSet = this.dvDoc ? this.buildSortedSet(terms, ordOf, maxDoc) : undefined;
    return { postings, sortedSet, docsWithField: this.docsWithField.toArray() };
  }

  private buildPostings(terms: string[], ordOf: Int32Array, maxDoc: number): Postings {
    const nTok = this.tokTerm.length;
    const nTerms = terms.length;
    const tokTerm = this.tokTerm.view();
    const tokDoc = this.tokDoc.view();
    const tokPos = this.tokPos?.view() ?? null;
    // Stable counting sort of the token stream by term ordinal.
    const bucket = new Uint32Array(nTerms + 1);
    for (let i = 0; i < nTok; i++) bucket[ordOf[tokTerm[i]!]! + 1]!++;
    for (let o = 0; o < nTerms; o++) bucket[o + 1]! += bucket[o]!;
    const order = new Int32Array(nTok);
    const fill = bucket.slice(0, nTerms);
    for (let i = 0; i < nTok; i++) order[fill[ordOf[tokTerm[i]!]!]!++] = i;

    const starts = new Uint32Array(nTerms + 1);
    const docs = new IntBuffer(nTok);
    const freqs = tokPos ? new IntBuffer(nTok) : null;
    const posStarts = tokPos ? new IntBuffer(nTok + 1) : null;
    const positions = tokPos ? new Int32Array(nTok) : null;
    let p = 0;
    for (let o = 0; o < nTerms; o++) {
      starts[o] = docs.length;
      const end = bucket[o + 1]!;
      for (let k = bucket[o]!; k < end; ) {
        const doc = tokDoc[order[k]!]!;
        docs.push(doc);
        posStarts?.push(p);
        let f = 0;
        while (k < end && tokDoc[order[k]!]! === doc) {
          if (positions && tokPos) positions[p++] = tokPos[order[k]!]!;
          f++;
          k++;
        }
        freqs?.push(f);
      }
    }
    starts[nTerms] = docs.length;
    posStarts?.push(p);

    let norms: Uint8Array | null = null;
    if (this.normDoc && this.normByte) {
      norms = new Uint8Array(maxDoc);
      for (let i = 0; i < this.normDoc.length; i++) norms[this.normDoc.get(i)] = this.normByte.get(i);
    }
    const sumDocFreq = docs.length;
    return {
      terms,
      starts,
      docs: docs.toArray(),
      freqs: freqs ? freqs.toArray() : null,
      positionStarts: posStarts ? new Uint32Array(posStarts.view()) : null,
      positions,
      norms,
      // Lucene reports sumTotalTermFreq = sumDocFreq for fields indexed without freqs.
      sumTotalTermFreq: tokPos ? nTok : sumDocFreq,
      sumDocFreq,
    };
  }

  private buildSortedSet(terms: string[], ordOf: Int32Array, maxDoc: number): SortedSetValues {
    const dvDoc = this.dvDoc!;
    const dvTerm = this.dvTerm!;
    const starts = new Uint32Array(maxDoc + 1);
    const ords = new IntBuffer(dvDoc.length);
    let singleValued = true;
    let i = 0;
    const n = dvDoc.length;
    for (let doc = 0; doc < maxDoc; doc++) {
      starts[doc] = ords.length;
      const from = ords.length;
      while (i < n && dvDoc.get(i) === doc) ords.push(ordOf[dvTerm.get(i++)]!);
      const count = ords.length - from;
      if (count > 1) {
        const slice = ords.view().subarray(from);
        slice.sort();
        let w = from + 1;
        for (let r = from + 1; r < from + count; r++) {
          if (ords.get(r) !== ords.get(w - 1)) ords.set(w++, ords.get(r));
        }
        ords.length = w;
        if (w - from > 1) singleValued = false;
      }
    }
    starts[maxDoc] = ords.length;
    return { terms, starts, ords: ords.toArray(), singleValued };
  }
}

export class NumericFieldWriter {
  private readonly docs = new IntBuffer(64);
  private readonly doubles: FloatBuffer | null;
  private readonly longs: BigBuffer | null;

  constructor(readonly type: LeafType) {
    const long = type === 'long' || type === 'date_nanos';
    this.doubles = long ? null : new FloatBuffer(64);
    this.longs = long ? new BigBuffer(64) : null;
  }

  /** Docs in non-decreasing order. */
  add(doc: number, value: number | bigint): void {
    this.docs.push(doc);
    if (this.longs) {
      this.longs.push(typeof value === 'bigint' ? BigInt.asIntN(64, value) : BigInt(Math.trunc(value)));
    } else {
      const v = Number(value);
      this.doubles!.push(storedFloating(this.type, v));
    }
  }

  build(maxDoc: number): { numeric: NumericValues; docsWithField: Int32Array } {
    const n = this.docs.length;
    const starts = new Uint32Array(maxDoc + 1);
    const withField = new IntBuffer(Math.min(n, maxDoc) + 1);
    let singleValued = true;
    for (let i = 0; i < n; i++) starts[this.docs.get(i) + 1]!++;
    for (let d = 0; d < maxDoc; d++) {
      const c = starts[d + 1]!;
      if (c > 0) withField.push(d);
      if (c > 1) singleValued = false;
      starts[d + 1] = starts[d]! + c;
    }
    const docsWithField = withField.toArray();
    if (this.longs) {
      const values = this.longs.toArray();
      if (!singleValued) sortWithinDocs(values, starts, maxDoc);
      return { numeric: { kind: 'long', starts, values, singleValued }, docsWithField };
    }
    const values = this.doubles!.toArray();
    if (!singleValued) sortWithinDocs(values, starts, maxDoc);
    return { numeric: { kind: 'double', starts, values, singleValued }, docsWithField };
  }
}

function sortWithinDocs(values: Float64Array | BigInt64Array, starts: Uint32Array, maxDoc: number): void {
  for (let d = 0; d < maxDoc; d++) {
    const a = starts[d]!;
    const b = starts[d + 1]!;
    if (b - a > 1) values.subarray(a, b).sort();
  }
}

export class GeoFieldWriter {
  private readonly docs = new IntBuffer(64);
  private readonly lat = new FloatBuffer(64);
  private readonly lon = new FloatBuffer(64);

  add(doc: number, lat: number, lon: number): void {
    this.docs.push(doc);
    this.lat.push(lat);
    this.lon.push(lon);
  }

  build(maxDoc: number): { geo: GeoValues; docsWithField: Int32Array } {
    const starts = new Uint32Array(maxDoc + 1);
    const withField = new IntBuffer(64);
    for (let i = 0; i < this.docs.length; i++) starts[this.docs.get(i) + 1]!++;
    for (let d = 0; d < maxDoc; d++) {
      if (starts[d + 1]! > 0) withField.push(d);
      starts[d + 1] = starts[d]! + starts[d + 1]!;
    }
    return {
      geo: { starts, lat: this.lat.toArray(), lon: this.lon.toArray() },
      docsWithField: withField.toArray(),
    };
  }
}
