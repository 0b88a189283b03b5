import { CancelSlots } from '@shoal/shard';
import { describe, expect, it } from 'vitest';
import { withCancel } from './search-action.ts';

/** A request whose connection the test closes. */
function request() {
  let listener: (() => void) | undefined;
  return {
    onDisconnect: (l: () => void) => {
      listener = l;
    },
    disconnect: () => listener?.(),
  };
}

describe('withCancel', () => {
  it('cancels the shards’ token when the client goes away and frees it when the search ends', async () => {
    const s = { cancelSlots: new CancelSlots() };
    const req = request();
    let token = -1;
    const seen: boolean[] = [];
    await withCancel(req, s, async (cancel) => {
      token = cancel;
      seen.push(s.cancelSlots.isCancelled(cancel));
      req.disconnect();
      seen.push(s.cancelSlots.isCancelled(cancel));
    });
    expect(seen).toEqual([false, true]);
    expect(s.cancelSlots.inUse).toBe(0);
    // A disconnect after the end touches nothing, not even a search now holding the slot.
    const next = s.cancelSlots.acquire();
    req.disconnect();
    expect(s.cancelSlots.isCancelled(next)).toBe(false);
    expect(next).not.toBe(token);
  });

  it('frees the token when the search fails', async () => {
    const s = { cancelSlots: new CancelSlots() };
    await expect(
      withCancel(request(), s, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(s.cancelSlots.inUse).toBe(0);
  });

  it('frees the token when the search throws before it returns a promise', async () => {
    const s = { cancelSlots: new CancelSlots() };
    await expect(
      withCancel(request(), s, () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(s.cancelSlots.inUse).toBe(0);
  });
});
