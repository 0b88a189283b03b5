import { describe, expect, it } from 'vitest';
import { CancelFlags, CancelSlots, NOT_CANCELLABLE } from './cancel-slots.ts';

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
});
