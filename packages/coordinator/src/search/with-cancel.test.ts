import { CancelSlots } from '@shoal/shard';
import { describe, expect, it } from 'vitest';
import { TaskRegistry } from '../tasks/task-registry.ts';
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

  it('runs the search as a task: listed while it runs, cancelled through it, gone afterwards', async () => {
    const s = { cancelSlots: new CancelSlots(), tasks: new TaskRegistry('n1') };
    const seen: unknown[] = [];
    await withCancel(
      request(),
      s,
      async (cancel) => {
        const [task] = s.tasks.list({ actions: ['*search*'] });
        seen.push(task?.spec.action, task?.description);
        task!.cancel('by user request');
        seen.push(s.cancelSlots.isCancelled(cancel));
      },
      { action: 'indices:data/read/search', cancellable: true, description: () => 'indices[x]' },
    );
    expect(seen).toEqual(['indices:data/read/search', 'indices[x]', true]);
    expect(s.tasks.list()).toEqual([]);
    await expect(
      withCancel(
        request(),
        s,
        async () => {
          throw new Error('boom');
        },
        { action: 'indices:data/read/search', cancellable: true },
      ),
    ).rejects.toThrow('boom');
    expect(s.tasks.list()).toEqual([]);
  });
});
