/**
 * Reply slots: a shard worker thread writes the packed hits of a query reply (hit-codec.ts)
 * into memory it shares with the coordinator, and the message carries only the slot's number.
 * Without them every reply allocates an ArrayBuffer on the worker, transfers it, and leaves it
 * to the coordinator's garbage collector to free from another thread, which makes both
 * threads' allocators slow (their heaps swap large chunks on every search).
 *
 * The shared buffer holds SLOTS state words, then SLOTS slots of SLOT_BYTES each. A slot's word
 * is 0 when free; the worker claims a free slot by writing a token into it, fills the slot,
 * and names the slot and the token in its reply. The coordinator checks the token, copies the
 * bytes out into its own memory at once, and frees the slot — or, for a reply it copies into a
 * response soon (a rendered first page), reads them in place and frees the slot after; the
 * worker never touches a slot that is not free, so no read can race a write. A reply larger than a slot, or one made
 * while every slot is taken, is packed into a buffer of its own, as before.
 *
 * Tokens name the thread that claimed the slot (its thread id) and a count: a reply that
 * arrives after its thread died, for a slot a new thread has reused, fails the check instead
 * of being read. Slots held by a thread that died stay taken.
 */
import { blockBytes } from '@shoal/protocol';

/** How many replies may wait in one thread's slots. */
export const SLOTS = 64;
/** A slot's size: room for a page of 50 hits with their documents of a few hundred bytes. */
export const SLOT_BYTES = 16 * 1024;

const STATE_BYTES = SLOTS * 4;

/** A claimed slot, as a reply names it. */
export interface SlotRef {
  slot: number;
  token: number;
  length: number;
}

/** The shared memory of one thread's reply slots (the coordinator makes it, once per thread). */
export function replySlotsBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(STATE_BYTES + SLOTS * SLOT_BYTES);
}

/** The worker's side: claims free slots. */
export class SlotWriter {
  private readonly states: Int32Array;
  /** The next slot to try. */
  private next = 0;
  private count = 0;
  private readonly owner: number;

  constructor(
    readonly buffer: SharedArrayBuffer,
    threadId: number,
  ) {
    this.states = new Int32Array(buffer, 0, SLOTS);
    // The thread id in the high bits, the count in the low 20: never 0.
    this.owner = (threadId & 0x7ff) << 20;
  }

  /** A free slot for `length` bytes, claimed; undefined when none is free or it would not fit. */
  claim(length: number): { ref: SlotRef; base: number } | undefined {
    if (length > SLOT_BYTES) return undefined;
    for (let i = 0; i < SLOTS; i++) {
      const slot = (this.next + i) % SLOTS;
      if (Atomics.load(this.states, slot) !== 0) continue;
      this.count = (this.count + 1) & 0xfffff;
      if (this.count === 0) this.count = 1;
      const token = this.owner | this.count;
      // Only this thread claims slots, and the coordinator only frees them: no race to claim.
      Atomics.store(this.states, slot, token);
      this.next = (slot + 1) % SLOTS;
      return { ref: { slot, token, length }, base: STATE_BYTES + slot * SLOT_BYTES };
    }
    return undefined;
  }
}

/** The coordinator's side: takes a reply's bytes out of its slot and frees the slot. */
export class SlotReader {
  private readonly states: Int32Array;
  private readonly bytes: Uint8Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.states = new Int32Array(buffer, 0, SLOTS);
    this.bytes = new Uint8Array(buffer);
  }

  /**
   * A copy of the slot's bytes in memory of this thread's own (8-byte aligned, as the packed
   * hits' typed views need), the slot freed; undefined when the token no longer holds the slot.
   */
  take(ref: SlotRef): Uint8Array | undefined {
    const base = this.baseOf(ref);
    if (base === undefined) return undefined;
    // 8-byte aligned, as the packed hits' typed views need.
    const copy = blockBytes(ref.length);
    copy.set(this.bytes.subarray(base, base + ref.length));
    Atomics.store(this.states, ref.slot, 0);
    return copy;
  }

  /**
   * The slot's bytes where they lie (8-byte aligned), the slot still held: for a reader that
   * copies what it needs soon (a rendered first page, into its response) and then frees the slot
   * with `free`. Undefined when the token no longer holds the slot.
   */
  hold(ref: SlotRef): Uint8Array | undefined {
    const base = this.baseOf(ref);
    return base === undefined ? undefined : this.bytes.subarray(base, base + ref.length);
  }

  /** Where the reply a ref names starts; undefined when the ref is invalid or its token no longer holds the slot. */
  private baseOf(ref: SlotRef): number | undefined {
    const { slot, token, length } = ref;
    if (!(slot >= 0 && slot < SLOTS) || length > SLOT_BYTES) return undefined;
    if (Atomics.load(this.states, slot) !== token) return undefined;
    return STATE_BYTES + slot * SLOT_BYTES;
  }

  /** How many slots are taken: replies not handed over yet, held, or left by a thread that died. */
  inUse(): number {
    let n = 0;
    for (let i = 0; i < SLOTS; i++) if (Atomics.load(this.states, i) !== 0) n++;
    return n;
  }

  /** Frees a slot held by `hold` (once: a second call, or one for a stale token, does nothing). */
  free(ref: SlotRef): void {
    if (!(ref.slot >= 0 && ref.slot < SLOTS)) return;
    Atomics.compareExchange(this.states, ref.slot, ref.token, 0);
  }
}
