/** The simulation's timeline: events ordered by time, then by the order they were scheduled. */
export interface Scheduled<E> {
  at: number;
  seq: number;
  event: E;
}

export class EventQueue<E> {
  private readonly heap: Scheduled<E>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, event: E): void {
    const h = this.heap;
    h.push({ at, seq: this.seq++, event });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  pop(): Scheduled<E> | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!)) m = l;
        if (r < h.length && before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

const before = <E>(a: Scheduled<E>, b: Scheduled<E>) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
