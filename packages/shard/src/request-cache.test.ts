import { describe, expect, it } from 'vitest';
import { RequestCache } from './request-cache.ts';

const size = (v: string) => v.length;

describe('the shard request cache', () => {
  it('answers a request on the same reader, counting hits and misses per shard', () => {
    const c = new RequestCache<string>(1000, size);
    expect(c.get('a/0', 1, 'q')).toBeUndefined();
    c.put('a/0', 1, 'q', 'result');
    expect(c.get('a/0', 1, 'q')).toBe('result');
    expect(c.get('a/1', 1, 'q')).toBeUndefined();
    expect(c.statsOf('a/0')).toEqual({ memorySizeInBytes: 6 + 2, evictions: 0, hitCount: 1, missCount: 1 });
    expect(c.statsOf('a/1').missCount).toBe(1);
  });

  it('drops a shard’s entries once it is seen on a newer reader, and never keeps an older reader’s result', () => {
    const c = new RequestCache<string>(1000, size);
    c.put('a/0', 1, 'q', 'old');
    c.put('b/0', 1, 'q', 'other');
    expect(c.get('a/0', 2, 'q')).toBeUndefined();
    expect(c.statsOf('a/0').memorySizeInBytes).toBe(0);
    // A search that started on reader 1 and ends after the refresh.
    c.put('a/0', 1, 'q', 'stale');
    expect(c.get('a/0', 2, 'q')).toBeUndefined();
    expect(c.get('b/0', 1, 'q')).toBe('other');
    expect(c.sizeInBytes).toBe(5 + 2);
  });

  it('evicts the least recently used entries past its bound, and skips a value larger than the bound', () => {
    const c = new RequestCache<string>(30, size);
    c.put('a/0', 1, 'q1', 'aaaaaa');
    c.put('a/0', 1, 'q2', 'bbbbbb');
    c.put('a/0', 1, 'q3', 'cccccc');
    expect(c.get('a/0', 1, 'q1')).toBe('aaaaaa');
    c.put('a/0', 1, 'q4', 'dddddd');
    expect(c.get('a/0', 1, 'q2')).toBeUndefined();
    expect(c.get('a/0', 1, 'q1')).toBe('aaaaaa');
    expect(c.statsOf('a/0').evictions).toBe(1);
    expect(c.sizeInBytes).toBeLessThanOrEqual(30);
    c.put('a/0', 1, 'big', 'x'.repeat(40));
    expect(c.get('a/0', 1, 'big')).toBeUndefined();
  });

  it('clears one shard, and forgets a shard with its counters', () => {
    const c = new RequestCache<string>(1000, size);
    c.put('a/0', 1, 'q', 'x');
    c.put('a/1', 1, 'q', 'y');
    c.clear('a/0');
    expect(c.get('a/0', 1, 'q')).toBeUndefined();
    expect(c.get('a/1', 1, 'q')).toBe('y');
    c.forget('a/1');
    expect(c.statsOf('a/1')).toEqual({ memorySizeInBytes: 0, evictions: 0, hitCount: 0, missCount: 0 });
    expect(c.sizeInBytes).toBe(0);
  });
});
