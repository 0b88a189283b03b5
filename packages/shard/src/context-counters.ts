/**
 * Node-wide search-context counters, in one SharedArrayBuffer that the coordinator and its
 * shard worker threads all see (`_nodes/stats` indices.search and the
 * `search.max_open_scroll_context` limit).
 *
 * Each worker thread writes only its own row, tagged with its session: a replacement thread
 * (the old one died with its contexts) takes the row back and returns what its predecessor
 * still counted. The node's open scroll contexts are also kept in one global slot that the
 * limit checks atomically across threads: increment, then compare, as SearchService does.
 */

/** Which row of which counters a worker thread writes. */
export interface CounterRef {
  sab: SharedArrayBuffer;
  row: number;
}

/** Slots of a worker's row. */
export const Slot = {
  Open: 0,
  ScrollCurrent: 1,
  ScrollTotal: 2,
  ScrollTimeMicros: 3,
  PitCurrent: 4,
  SliceBytes: 5,
  Session: 6,
} as const;
export type Slot = (typeof Slot)[keyof typeof Slot];

const ROW = 8;
const GLOBAL = 8;
const OPEN_SCROLLS = 0;
/** Gauges a dead thread's contexts took with them (totals stay: they happened). */
const GAUGES = [Slot.Open, Slot.ScrollCurrent, Slot.PitCurrent, Slot.SliceBytes];

export interface ContextTotals {
  openContexts: number;
  scrollCurrent: number;
  scrollTotal: number;
  scrollTimeMs: number;
  pitCurrent: number;
  sliceFilterBytes: number;
}

export class ContextCounters {
  private readonly a: BigInt64Array;

  constructor(
    readonly sab: SharedArrayBuffer,
    readonly rows: number,
  ) {
    this.a = new BigInt64Array(sab);
  }

  static create(rows: number): ContextCounters {
    return new ContextCounters(new SharedArrayBuffer((GLOBAL + rows * ROW) * 8), rows);
  }

  static of(ref: CounterRef): ContextCounters {
    return new ContextCounters(ref.sab, (ref.sab.byteLength / 8 - GLOBAL) / ROW);
  }

  ref(row: number): CounterRef {
    return { sab: this.sab, row };
  }

  private at(row: number, slot: Slot): number {
    return GLOBAL + row * ROW + slot;
  }

  /** Claims `row` for the thread with this session, dropping a dead predecessor's gauges. */
  adopt(row: number, session: bigint): void {
    const tag = this.at(row, Slot.Session);
    if (Atomics.load(this.a, tag) === session) return;
    Atomics.store(this.a, tag, session);
    const staleScrolls = Atomics.exchange(this.a, this.at(row, Slot.ScrollCurrent), 0n);
    Atomics.sub(this.a, OPEN_SCROLLS, staleScrolls);
    for (const g of GAUGES) Atomics.store(this.a, this.at(row, g), 0n);
  }

  add(row: number, slot: Slot, delta: number | bigint): void {
    Atomics.add(this.a, this.at(row, slot), BigInt(delta));
  }

  set(row: number, slot: Slot, value: number): void {
    Atomics.store(this.a, this.at(row, slot), BigInt(value));
  }

  /** One more scroll context, unless that makes more than `max` on the node. */
  tryOpenScroll(row: number, max: number): boolean {
    if (Atomics.add(this.a, OPEN_SCROLLS, 1n) + 1n > BigInt(max)) {
      Atomics.sub(this.a, OPEN_SCROLLS, 1n);
      return false;
    }
    this.add(row, Slot.ScrollCurrent, 1);
    return true;
  }

  closeScroll(row: number, lifetimeMicros: number): void {
    Atomics.sub(this.a, OPEN_SCROLLS, 1n);
    this.add(row, Slot.ScrollCurrent, -1);
    this.add(row, Slot.ScrollTotal, 1);
    this.add(row, Slot.ScrollTimeMicros, Math.max(0, Math.round(lifetimeMicros)));
  }

  totals(): ContextTotals {
    const sum = (slot: Slot) => {
      let t = 0n;
      for (let r = 0; r < this.rows; r++) t += Atomics.load(this.a, this.at(r, slot));
      return Number(t);
    };
    return {
      openContexts: sum(Slot.Open),
      scrollCurrent: sum(Slot.ScrollCurrent),
      scrollTotal: sum(Slot.ScrollTotal),
      scrollTimeMs: Math.floor(sum(Slot.ScrollTimeMicros) / 1000),
      pitCurrent: sum(Slot.PitCurrent),
      sliceFilterBytes: sum(Slot.SliceBytes),
    };
  }
}
