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
