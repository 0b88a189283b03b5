/**
 * Merging segments into one: live docs are copied in segment order (deleted ones dropped),
 * and postings, norms, doc values and geo points are re-fed to a SegmentBuilder with their doc
 * ids remapped. Nothing is re-parsed or re-analysed, and stored `_source` bytes are copied
 * as they are. The inputs stay untouched, so readers holding them keep working.
 *
 * Inputs are read one at a time, each segment file in a single read (readSegmentData) into
 * one scratch buffer the merge reuses: a merge holds one input besides what it builds.
 */
import { readSegmentData, type SegmentData } from '../store/segment-codec.ts';
import type { LiveDocs } from './live-docs.ts';
import { type InMemoryStored, Segment, type SegmentField } from './segment.ts';
import { SegmentBuilder } from './segment-builder.ts';

export interface MergeInput {
  segment: Segment;
  liveDocs: LiveDocs;
}

export function mergeSegments(inputs: readonly MergeInput[], name?: string): Segment {
  const data = mergeSegmentData(inputs, name ?? '');
  return new Segment(data.stored, new Map(data.fields), name);
}

/**
 * glibc serves a request this large with a mapping of its own whatever MALLOC_* or its dynamic
 * mmap threshold say (the threshold never rises past 32 MiB), so the scratch buffer goes back
 * to the OS when the merge is done instead of staying in an arena. Pages never read into are
 * never resident.
 */
const ALWAYS_MAPPED_BYTES = 32 * 1024 * 1024 + 4096;
/** Below this, inputs are read into buffers of their own (small merges, small allocations). */
const SCRATCH_FROM_BYTES = 64 * 1024;

/** One buffer that holds the largest file-backed input, or none when they are all small. */
function mergeScratch(inputs: readonly MergeInput[]): Uint8Array | undefined {
  let largest = 0;
  for (const { segment } of inputs) largest = Math.max(largest, segment.file?.length ?? 0);
  if (largest < SCRATCH_FROM_BYTES) return undefined;
  return new Uint8Array(Math.max(largest, ALWAYS_MAPPED_BYTES));
}

/** An input's arrays: read from its file, or the segment's own when it lives in memory. */
function inputData(
  segment: Segment,
  scratch: Uint8Array | undefined,
): { stored: InMemoryStored; fields: ReadonlyMap<string, SegmentField> } {
  if (segment.file) return readSegmentData(segment.file, scratch);
  const src = segment.sourceBlock();
  return {
    stored: {
      ...segment.stored,
      sourceBytes: src.bytes,
      sourceOffsets: src.offsets instanceof Uint32Array ? src.offsets : Uint32Array.from(src.offsets),
    },
    fields: segment.fields,
  };
}

/** The merged segment's arrays (written to a file by a shard with a data path). */
export function mergeSegmentData(inputs: readonly MergeInput[], name: string): SegmentData {
  const b = new SegmentBuilder();
  const scratch = mergeScratch(inputs);
  // New doc ids are consecutive in input order, so each input's postings arrive after the
  // previous input's, as the writers require (docs non-decreasing per term).
  for (const { segment, liveDocs } of inputs) {
    const { stored, fields } = inputData(segment, scratch);
    const map = new Int32Array(segment.maxDoc).fill(-1);
    const { ids, routing, seqNos, versions, primaryTerms, sourceBytes, sourceOffsets } = stored;
    for (let d = 0; d < segment.maxDoc; d++) {
      if (!liveDocs.isLive(d)) continue;
      map[d] = b.addStored(
        ids[d]!,
        routing[d] ?? null,
        sourceBytes.subarray(sourceOffsets[d]!, sourceOffsets[d + 1]!),
        {
          seqNo: seqNos[d]!,
          version: versions[d]!,
          primaryTerm: primaryTerms[d]!,
        },
      );
    }
    for (const f of fields.values()) copyField(b, f, map);
  }
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
