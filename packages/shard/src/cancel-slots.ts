/**
 * Cancellation of shard tasks whose client went away, through one shared memory block per
 * node instead of a SharedArrayBuffer per search: every shard worker thread gets the block
 * when it starts, and a task carries only a number (its `CancelToken`).
 *
 * A token names a slot and a generation: the slot holds the generation while the search is
 * running and 0 once it is cancelled or finished, so a slot reused by a later search never
 * cancels (or un-cancels) an earlier one's straggling tasks.
 *
 * Each slot counts its own generations, from 1 to MAX_GENERATION and round again: a stale
 * token could only meet a holder of the same generation after that slot had been taken
 * MAX_GENERATION times since. The bound keeps every token below 2^30, a small integer to V8
 * on every build: a token past it would be a heap number, and the code that reads tokens on
 * both threads, optimized for small integers through the first tens of thousands of searches,
 * would be thrown away and compiled again as the counter crossed the line.
 */

/** A search's cancellation handle: `generation * SLOTS + slot`; NOT_CANCELLABLE when none. */
export type CancelToken = number;

/** A token whose task can only finish (the pool had no free slot). */
export const NOT_CANCELLABLE: CancelToken = -1;

const SLOT_BITS = 16;
const SLOTS = 1 << SLOT_BITS;
/** A slot's generations run 1..MAX_GENERATION: tokens stay below 2^30. */
export const MAX_GENERATION = (1 << (30 - SLOT_BITS)) - 1;

function slotOf(token: CancelToken): number {
  return token & (SLOTS - 1);
}

function generationOf(token: CancelToken): number {
  return token >>> SLOT_BITS;
}

/** The worker side: reads the shared block. */
export class CancelFlags {
  protected readonly slots: Int32Array;

  constructor(readonly sab: SharedArrayBuffer) {
    this.slots = new Int32Array(sab);
  }

  isCancelled(token: CancelToken): boolean {
    if (token < 0) return false;
    return Atomics.load(this.slots, slotOf(token)) !== generationOf(token);
  }
}

/** The coordinator side: hands out slots, cancels and frees them. */
export class CancelSlots extends CancelFlags {
  private readonly free: number[] = [];
  /** Per slot, the generation of the search holding it (0: free); never shared. */
  private readonly holder = new Int32Array(SLOTS);
  /** Per slot, the generation it last handed out. */
  private readonly lastGeneration = new Int32Array(SLOTS);
  private nextSlot = 0;

  constructor() {
    super(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  }

  /** A running search's token (NOT_CANCELLABLE when every slot is taken). */
  acquire(): CancelToken {
    const slot = this.free.pop() ?? (this.nextSlot < SLOTS ? this.nextSlot++ : -1);
    if (slot < 0) return NOT_CANCELLABLE;
    const last = this.lastGeneration[slot]!;
    const generation = last >= MAX_GENERATION ? 1 : last + 1;
    this.lastGeneration[slot] = generation;
    this.holder[slot] = generation;
    Atomics.store(this.slots, slot, generation);
    return generation * SLOTS + slot;
  }

  /** The client went away: the search's tasks stop at their next check. */
  cancel(token: CancelToken): void {
    if (token < 0) return;
    Atomics.compareExchange(this.slots, slotOf(token), generationOf(token), 0);
  }

  /** The search is over: its slot is free again (tasks still running count as cancelled). */
  release(token: CancelToken): void {
    if (token < 0) return;
    const slot = slotOf(token);
    if (this.holder[slot] !== generationOf(token)) return;
    this.holder[slot] = 0;
    Atomics.store(this.slots, slot, 0);
    this.free.push(slot);
  }

  /** How many slots are held by running searches. */
  get inUse(): number {
    return this.nextSlot - this.free.length;
  }
}
