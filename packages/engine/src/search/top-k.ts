/**
 * A bounded heap of the best `k` candidates under a comparator (negative = better). The root
 * is the worst kept candidate, so a doc that cannot beat it is rejected in O(1).
 */
import type { SortValue } from '@shoal/protocol';

export interface Candidate {
  /** Reader doc id. */
  doc: number;
  score: number;
  values: SortValue[];
}

export class TopK {
  private readonly heap: Candidate[] = [];

  constructor(
    readonly k: number,
    private readonly compare: (a: Candidate, b: Candidate) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  get full(): boolean {
    return this.heap.length >= this.k;
  }

  /** The worst candidate kept (the one the next offer must beat). */
  worst(): Candidate | undefined {
    return this.heap[0];
  }

  offer(c: Candidate): boolean {
    const h = this.heap;
    if (this.k <= 0) return false;
    if (h.length < this.k) {
      h.push(c);
      this.up(h.length - 1);
      return true;
    }
    if (this.compare(c, h[0]!) >= 0) return false;
    h[0] = c;
    this.down(0);
    return true;
  }

  /** Best first. */
  sorted(): Candidate[] {
    return [...this.heap].sort(this.compare);
  }

  // The heap is ordered so that the parent is worse than (compares after) its children.
  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.compare(h[i]!, h[p]!) <= 0) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.compare(h[l]!, h[m]!) > 0) m = l;
      if (r < h.length && this.compare(h[r]!, h[m]!) > 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

/**
 * The relevance-order heap: the best `k` (score, reader doc) pairs, higher score first and, on
 * equal scores, lower doc first, in two typed arrays. The root is the worst kept pair.
 */
export class ScoreHeap {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  size = 0;

  constructor(readonly k: number) {
    this.docs = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  get full(): boolean {
    return this.size >= this.k;
  }

  /** The worst kept score (meaningful once full). */
  get floor(): number {
    return this.scores[0]!;
  }

  /** Adds a pair while the heap is not full. */
  push(doc: number, score: number): void {
    let i = this.size++;
    const docs = this.docs;
    const scores = this.scores;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(score, doc, scores[p]!, docs[p]!)) break;
      docs[i] = docs[p]!;
      scores[i] = scores[p]!;
      i = p;
    }
    docs[i] = doc;
    scores[i] = score;
  }

  /** Replaces the worst pair with a better one (the caller has checked it is better). */
  replaceTop(doc: number, score: number): void {
    const docs = this.docs;
    const scores = this.scores;
    const n = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let m = l;
      if (r < n && worse(scores[r]!, docs[r]!, scores[l]!, docs[l]!)) m = r;
      if (!worse(scores[m]!, docs[m]!, score, doc)) break;
      docs[i] = docs[m]!;
      scores[i] = scores[m]!;
      i = m;
    }
    docs[i] = doc;
    scores[i] = score;
  }

  /** Best first. */
  sorted(): Candidate[] {
    const out: Candidate[] = [];
    for (let i = 0; i < this.size; i++) {
      const score = this.scores[i]!;
      out.push({ doc: this.docs[i]!, score, values: [score] });
    }
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

/** Whether (s1, d1) ranks below (s2, d2): a lower score, or an equal one on a later doc. */
function worse(s1: number, d1: number, s2: number, d2: number): boolean {
  return s1 < s2 || (s1 === s2 && d1 > d2);
}
