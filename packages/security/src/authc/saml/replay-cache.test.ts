import { describe, expect, it } from 'vitest';
import { ReplayCache } from './replay-cache.ts';

describe('ReplayCache', () => {
  it('refuses an id seen before, until its time has passed', () => {
    let now = 1000;
    const cache = new ReplayCache(() => now);
    expect(cache.claim('a', 2000)).toBe(true);
    expect(cache.claim('a', 2000)).toBe(false);
    expect(cache.claim('b', undefined)).toBe(true);
    now = 2000;
    expect(cache.claim('a', 3000)).toBe(true);
    now = 1000 + 24 * 3600_000 - 1;
    expect(cache.claim('b', undefined)).toBe(false);
  });
});
