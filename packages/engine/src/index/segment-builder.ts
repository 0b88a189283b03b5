/**
 * Builds one immutable Segment, either from parsed documents (refresh) or from older segments'
 * data (merge, see segment-merge.ts). Docs get consecutive ids in the order they are added.
 */
import type { ParsedDocument } from '../contract.ts';
import type { SegmentData } from '../store/segment-codec.ts';
import { FieldWriters } from './field-writer-set.ts';
import { ByteBuffer, FloatBuffer } from './growable.ts';
import { encodeNorm } from './norms.ts';
import { Segment, type SegmentField } from './segment.ts';

export interface DocMeta {
  seqNo: number;
  version: number;
  primaryTerm: number;
}

/** Lucene's default position_increment_gap between values of a multi-valued text field. */
const POSITION_GAP = 100;

export class SegmentBuilder {
  readonly writers = new FieldWriters();
  private readonly ids: string[] = [];
  private readonly routing: (string | null)[] = [];
  private readonly source = new ByteBuffer(4096);
  private readonly offsets: number[] = [0];
  private readonly seqNos = new FloatBuffer(64);
  private readonly versions = new FloatBuffer(64);
  private readonly terms = new FloatBuffer(64);

  get maxDoc(): number {
    return this.ids.length;
  }

  /** Stored fields only; the caller feeds the field writers (merge). */
  addStored(id: string, routing: string | null, source: Uint8Array, meta: DocMeta): number {
    const doc = this.ids.length;
    this.ids.push(id);
    this.routing.push(routing);
    this.source.append(source);
    this.offsets.push(this.source.length);
    this.seqNos.push(meta.seqNo);
    this.versions.push(meta.version);
    this.terms.push(meta.primaryTerm);
    return doc;
  }

  addDocument(parsed: ParsedDocument, meta: DocMeta): number {
    const doc = this.addStored(parsed.id, parsed.routing ?? null, parsed.storedSource ?? parsed.source, meta);
    // Per text field of this doc: tokens seen, overlaps (position increment 0), last position.
    let textState: Map<string, { length: number; overlaps: number; last: number }> | undefined;
    for (const f of parsed.fields) {
      switch (f.type) {
        case 'text': {
          const tokens = f.tokens;
          if (!tokens || tokens.length === 0) break;
          const w = this.writers.terms(f.path, f.type);
          textState ??= new Map();
          let st = textState.get(f.path);
          let shift = 0;
          if (!st) {
            st = { length: 0, overlaps: 0, last: -1 };
            textState.set(f.path, st);
          } else if (tokens[0]!.position <= st.last) {
            // A further value that restarts at position 0: continue after the gap, as Lucene does.
            shift = st.last + POSITION_GAP + 1 - tokens[0]!.position;
          }
          let prev = st.last;
          for (const t of tokens) {
            const pos = t.position + shift;
            if (pos === prev) st.overlaps++;
            w.addToken(w.termId(t.term), doc, pos);
            prev = pos;
          }
          st.length += tokens.length;
          st.last = prev;
          w.markDoc(doc);
          break;
        }
        case 'keyword':
        case 'ip':
        case 'boolean': {
          const terms = f.terms;
          if (!terms || terms.length === 0) break;
          const w = this.writers.terms(f.path, f.type);
          for (const t of terms) {
            const id = w.termId(t);
            w.addToken(id, doc, 0);
            w.addDocValue(id, doc);
          }
          w.markDoc(doc);
          break;
        }
        case 'geo_point': {
          if (!f.geo || f.geo.length === 0) break;
          const w = this.writers.geo(f.path);
          for (const g of f.geo) w.add(doc, g.lat, g.lon);
          break;
        }
        default: {
          if (!f.numbers || f.numbers.length === 0) break;
          const w = this.writers.numeric(f.path, f.type);
          for (const v of f.numbers) w.add(doc, v);
        }
      }
    }
    if (textState) {
      for (const [path, st] of textState) {
        // BM25Similarity.computeNorm with discountOverlaps: tokens minus stacked tokens.
        this.writers.terms(path, 'text').addNorm(doc, encodeNorm(st.length - st.overlaps));
      }
    }
    return doc;
  }

  build(name?: string): Segment {
    const data = this.buildData(name ?? '');
    return new Segment(data.stored, new Map(data.fields), name);
  }

  /** The segment's arrays, to be written to a file (or wrapped in an in-memory Segment). */
  buildData(name: string): SegmentData {
    const maxDoc = this.ids.length;
    const fields = new Map<string, SegmentField>();
    for (const [path, w] of this.writers.termWriters) {
      const built = w.build(maxDoc);
      const field: SegmentField = { path, type: w.type, docsWithField: built.docsWithField };
      field.postings = built.postings;
      if (built.sortedSet) field.sortedSet = built.sortedSet;
      fields.set(path, field);
    }
    for (const [path, w] of this.writers.numericWriters) {
      const built = w.build(maxDoc);
      fields.set(path, { path, type: w.type, docsWithField: built.docsWithField, numeric: built.numeric });
    }
    for (const [path, w] of this.writers.geoWriters) {
      const built = w.build(maxDoc);
      fields.set(path, { path, type: 'geo_point', docsWithField: built.docsWithField, geo: built.geo });
    }
    return {
      name,
      stored: {
        ids: this.ids,
        routing: this.routing,
        sourceBytes: this.source.toArray(),
        sourceOffsets: Uint32Array.from(this.offsets),
        seqNos: this.seqNos.toArray(),
        versions: this.versions.toArray(),
        primaryTerms: this.terms.toArray(),
      },
      fields,
    };
  }
}
