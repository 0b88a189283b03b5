import { describe, expect, it } from 'vitest';
import { ScrollCursor, type ScrollPoint } from './scroll-cursor.ts';

/** A page that reads `at` and leads one step on, with each shard consuming `by` more hits. */
const page =
  (by: number, seen: ScrollPoint[] = [], wait = 0) =>
  async (at: ScrollPoint) => {
    seen.push(at);
    if (wait) await new Promise((r) => setTimeout(r, wait));
    return { value: at.step, next: { step: at.step + 1, consumed: at.consumed.map(() => by) } };
  };

describe('ScrollCursor', () => {
  it('every turn goes on from where the last one left the cursor', async () => {
    const c = new ScrollCursor({ step: 1, consumed: [2, 3] });
    expect((await c.turn(page(1))).value).toBe(1);
    expect((await c.turn(page(4))).value).toBe(2);
    expect(c.at).toEqual({ step: 3, consumed: [4, 4] });
  });

  it('runs turns one at a time, in the order they came', async () => {
    const c = new ScrollCursor({ step: 1, consumed: [0] });
    const seen: ScrollPoint[] = [];
    const values = await Promise.all([
      c.turn(page(1, seen, 20)),
      c.turn(page(1, seen, 1)),
      c.turn(page(1, seen)),
    ]);
    expect(values.map((v) => v.value)).toEqual([1, 2, 3]);
    expect(seen.map((p) => p.step)).toEqual([1, 2, 3]);
  });

  it('a failed turn leaves the cursor where it was, and the next turn still runs', async () => {
    const c = new ScrollCursor({ step: 1, consumed: [0] });
    const failing = c.turn(async () => {
      throw new Error('shard failed');
    });
    const after = c.turn(page(2));
    await expect(failing).rejects.toThrow('shard failed');
    expect((await after).value).toBe(1);
  });

  it('undo gives back the latest page only, and only while nothing moved the cursor since', async () => {
    const c = new ScrollCursor({ step: 1, consumed: [0] });
    const first = await c.turn(page(1));
    first.undo();
    expect(c.at).toEqual({ step: 1, consumed: [0] });
    expect((await c.turn(page(1))).value).toBe(1);
    const second = await c.turn(page(1));
    const third = await c.turn(page(1));
    // The second page was followed by another: giving it back would repeat the third.
    second.undo();
    expect(c.at.step).toBe(4);
    third.undo();
    expect(c.at.step).toBe(3);
    third.undo();
    expect(c.at.step).toBe(3);
  });
});
