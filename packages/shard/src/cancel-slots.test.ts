import { describe, expect, it } from 'vitest';
import { CancelFlags, CancelSlots, MAX_GENERATION, NOT_CANCELLABLE } from './cancel-slots.ts';

describe('cancel slots', () => {
  it('cancels one search without touching the others, as another thread sees it', () => {
    const slots = new CancelSlots();
    const worker = new CancelFlags(slots.sab);
    const a = slots.acquire();
    const b = slots.acquire();
    expect(worker.isCancelled(a)).toBe(false);
    slots.cancel(a);
    expect(worker.isCancelled(a)).toBe(true);
    expect(worker.isCancelled(b)).toBe(false);
    expect(worker.isCancelled(NOT_CANCELLABLE)).toBe(false);
  });

  it('reuses a freed slot with a new generation: old tokens stay cancelled, new ones run', () => {
    const slots = new CancelSlots();
    const worker = new CancelFlags(slots.sab);
    const a = slots.acquire();
    slots.release(a);
    expect(worker.isCancelled(a)).toBe(true);
    const c = slots.acquire();
    expect(c % 65536).toBe(a % 65536);
    expect(worker.isCancelled(c)).toBe(false);
    // A late cancel or a second release of the old token does nothing to the new search.
    slots.cancel(a);
    slots.release(a);
    expect(worker.isCancelled(c)).toBe(false);
    expect(slots.inUse).toBe(1);
    slots.release(c);
    expect(slots.inUse).toBe(0);
  });

  it('releases a cancelled search and hands out NOT_CANCELLABLE when full', () => {
    const slots = new CancelSlots();
    const a = slots.acquire();
    slots.cancel(a);
    slots.release(a);
    expect(slots.inUse).toBe(0);
    const held: number[] = [];
    for (let i = 0; i < 65536; i++) held.push(slots.acquire());
    expect(held.every((t) => t >= 0)).toBe(true);
    expect(slots.acquire()).toBe(NOT_CANCELLABLE);
    slots.release(held[7]!);
    expect(slots.acquire()).toBeGreaterThanOrEqual(0);
  });

  it('keeps every token below 2^30 through the generations of a slot coming round again', () => {
    const slots = new CancelSlots();
    const worker = new CancelFlags(slots.sab);
    const seen = new Set<number>();
    let previous = slots.acquire();
    slots.release(previous);
    // One slot reused past its last generation: the tokens repeat only after a full round.
    for (let i = 0; i < MAX_GENERATION + 5; i++) {
      const t = slots.acquire();
      expect(t % 65536).toBe(previous % 65536);
      expect(t).toBeGreaterThan(0);
      expect(t).toBeLessThan(2 ** 30);
      expect(t).not.toBe(previous);
      expect(worker.isCancelled(t)).toBe(false);
      // The search before it in the same slot stays cancelled, and cannot touch this one.
      expect(worker.isCancelled(previous)).toBe(true);
      slots.cancel(previous);
      slots.release(previous);
      expect(worker.isCancelled(t)).toBe(false);
      if (i < MAX_GENERATION - 1) {
        expect(seen.has(t)).toBe(false);
        seen.add(t);
      }
      slots.release(t);
      previous = t;
    }
    expect(slots.inUse).toBe(0);
  });
});
