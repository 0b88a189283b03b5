/**
 * Merging segments into one: live docs are copied in segment order (deleted ones dropped),
 * and postings, norms, doc values and geo points are re-fed to a SegmentBuilder with their doc
 * ids remapped. Nothing is re-parsed or re-analysed, and stored `_source` bytes are copied
 * as they are. The inputs stay untouched, so readers holding them keep working.
 */
import type { SegmentData } from '../store/segment-codec.ts';
import type { LiveDocs } from './live-docs.ts';
import { Segment, type SegmentField } from './segment.ts';
import { SegmentBuilder } from './segment-builder.ts';

export interface MergeInput {
  segment: Segment;
  liveDocs: LiveDocs;
}

export function mergeSegments(inputs: readonly MergeInput[], name?: string): Segment {
  const data = mergeSegmentData(inputs, name ?? '');
  return new Segment(data.stored, new Map(data.fields), name);
}

/** The merged segment's arrays (written to a file by a shard with a data path). */
export function mergeSegmentData(inputs: readonly MergeInput[], name: string): SegmentData {
  const b = new SegmentBuilder();
  const docMaps: Int32Array[] = [];
  for (const { segment, liveDocs } of inputs) {
    const map = new Int32Array(segment.maxDoc).fill(-1);
    const st = segment.stored;
    // The whole source block in one read, rather than one positioned read per document.
    const src = segment.sourceBlock();
    const { seqNos, versions, primaryTerms, routing } = st;
    for (let d = 0; d < segment.maxDoc; d++) {
      if (!liveDocs.isLive(d)) continue;
      map[d] = b.addStored(
        segment.id(d),
        routing[d] ?? null,
        src.bytes.subarray(src.offsets[d]!, src.offsets[d + 1]!),
        {
          seqNo: seqNos[d]!,
          version: versions[d]!,
          primaryTerm: primaryTerms[d]!,
        },
      );
    }
    docMaps.push(map);
  }
  inputs.forEach(({ segment }, i) => {
    const map = docMaps[i]!;
    for (const f of segment.fields.values()) copyField(b, f, map);
  });
  return b.buildData(name);
}

function copyField(b: SegmentBuilder, f: SegmentField, map: Int32Array): void {
  const withField = f.docsWithField;
  if (f.postings) {
    const p = f.postings;
    const w = b.writers.terms(f.path, f.type);
    const termIds = p.terms.map((t) => w.termId(t));
    for (let t = 0; t < p.terms.length; t++) {
      const tid = termIds[t]!;
      for (let k = p.starts[t]!; k < p.starts[t + 1]!; k++) {
        const nd = map[p.docs[k]!]!;
        if (nd < 0) continue;
        if (p.positions && p.positionStarts) {
          for (let q = p.positionStarts[k]!; q < p.positionStarts[k + 1]!; q++)
            w.addToken(tid, nd, p.positions[q]!);
        } else {
          w.addToken(tid, nd, 0);
        }
      }
    }
    for (let i = 0; i < withField.length; i++) {
      const d = withField[i]!;
      const nd = map[d]!;
      if (nd < 0) continue;
      w.markDoc(nd);
      if (p.norms) w.addNorm(nd, p.norms[d]!);
      const ss = f.sortedSet;
      if (ss)
        for (let k = ss.starts[d]!; k < ss.starts[d + 1]!; k++) w.addDocValue(termIds[ss.ords[k]!]!, nd);
    }
  }
  if (f.numeric) {
    const n = f.numeric;
    const w = b.writers.numeric(f.path, f.type);
    for (let i = 0; i < withField.length; i++) {
      const d = withField[i]!;
      const nd = map[d]!;
      if (nd < 0) continue;
      for (let k = n.starts[d]!; k < n.starts[d + 1]!; k++) w.add(nd, n.values[k]!);
    }
  }
  if (f.geo) {
    const g = f.geo;
    const w = b.writers.geo(f.path);
    for (let i = 0; i < withField.length; i++) {
      const d = withField[i]!;
      const nd = map[d]!;
      if (nd < 0) continue;
      for (let k = g.starts[d]!; k < g.starts[d + 1]!; k++) w.add(nd, g.lat[k]!, g.lon[k]!);
    }
  }
}
