/**
 * The top k of several segments each walked in sort order (a doc-values sort's cached sorted
 * permutation): a k-way merge of their streams. Only the head of each segment and the k winners
 * become candidate objects, where collecting k from every segment and sorting made up to k per
 * segment and sorted them all.
 */
import type { SortValue } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { passes } from './doc-filter.ts';
import type { SortedPermutation } from './sorted-permutation.ts';
import type { Candidate } from './top-k.ts';
import type { DocCheck } from './weights.ts';

/** What every segment stream of one search shares. */
export interface StreamShape {
  missingFirst: boolean;
  /** The field's substitute value for docs without one. */
  missing: SortValue;
  score: number;
  /** The sort has a `_doc` / `_shard_doc` tiebreak key: candidates carry the doc as a value. */
  tiebreak: boolean;
  /** Polled once per position walked (cancellation). */
  cancel: { step(): void };
}

/** The doc at position p of a segment's sort order (missing docs first or last). */
export function docAt(perm: SortedPermutation, p: number, missingFirst: boolean): number {
  const m = perm.missing.length;
  if (missingFirst) return p < m ? perm.missing[p]! : perm.order[p - m]!;
  const n = perm.order.length;
  return p < n ? perm.order[p]! : perm.missing[p - n]!;
}

/** The sort value at position p (the field's `missing` substitute for docs without one). */
export function valueAt(
  perm: SortedPermutation,
  p: number,
  missingFirst: boolean,
  missing: SortValue,
): SortValue {
  if (missingFirst) {
    const m = perm.missing.length;
    return p < m ? missing : perm.value(p - m);
  }
  return p < perm.order.length ? perm.value(p) : missing;
}

/** One segment's passing docs in sort order, from a start position. */
export class SegmentStream {
  /** The stream's next candidate; undefined once it is exhausted. */
  head: Candidate | undefined;
  private readonly n: number;

  constructor(
    private readonly rs: ReaderSegment,
    private readonly perm: SortedPermutation,
    private p: number,
    /** Docs the query matched (1), when it did not match them all. */
    private readonly accept: Uint8Array | null,
    private readonly excluded: Uint32Array | null,
    private readonly shape: StreamShape,
    /** Or the query's check per doc, when its docs were not collected. */
    private readonly check: DocCheck | null = null,
  ) {
    this.n = perm.order.length + perm.missing.length;
    this.advance();
  }

  /** Moves `head` to the next passing doc; false when there is none. */
  advance(): boolean {
    const { perm, accept, excluded, shape, check } = this;
    for (; this.p < this.n; this.p++) {
      shape.cancel.step();
      const d = docAt(perm, this.p, shape.missingFirst);
      if (accept ? accept[d] !== 1 : !passes(excluded, d)) continue;
      if (check !== null && !check(d)) continue;
      const doc = this.rs.docBase + d;
      const value = valueAt(perm, this.p, shape.missingFirst, shape.missing);
      this.head = { doc, score: shape.score, values: shape.tiebreak ? [value, doc] : [value] };
      this.p++;
      return true;
    }
    this.head = undefined;
    return false;
  }
}

type Cmp = (a: Candidate, b: Candidate) => number;

function siftDown(heap: SegmentStream[], cmp: Cmp, i: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && cmp(heap[l]!.head!, heap[m]!.head!) < 0) m = l;
    if (r < heap.length && cmp(heap[r]!.head!, heap[m]!.head!) < 0) m = r;
    if (m === i) return;
    const t = heap[i]!;
    heap[i] = heap[m]!;
    heap[m] = t;
    i = m;
  }
}

/** The first k candidates of the merged streams, in `cmp` order. */
export function mergeStreams(streams: SegmentStream[], cmp: Cmp, k: number): Candidate[] {
  const heap = streams.filter((s) => s.head !== undefined);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, cmp, i);
  const out: Candidate[] = [];
  while (out.length < k && heap.length > 0) {
    const top = heap[0]!;
    out.push(top.head!);
    if (!top.advance()) {
      const last = heap.pop()!;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, cmp, 0);
  }
  return out;
}
