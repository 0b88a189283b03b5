import { describe, expect, it } from 'vitest';
import { Section, SectionCache } from './section-cache.ts';

function loader(value: string, bytes: number, calls: string[]) {
  return () => {
    calls.push(value);
    return { value, bytes };
  };
}

describe('SectionCache', () => {
  it('loads a section once and serves it from memory afterwards', () => {
    const cache = new SectionCache(1000);
    const calls: string[] = [];
    expect(cache.get(1, 'ids', loader('a', 10, calls))).toBe('a');
    expect(cache.get(1, 'ids', loader('b', 10, calls))).toBe('a');
    expect(calls).toEqual(['a']);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(1);
    expect(cache.sizeInBytes).toBe(10);
  });

  it('keeps owners apart', () => {
    const cache = new SectionCache(1000);
    const calls: string[] = [];
    cache.get(1, 'ids', loader('one', 10, calls));
    expect(cache.get(2, 'ids', loader('two', 10, calls))).toBe('two');
    expect(cache.get(1, 'ids', loader('x', 10, calls))).toBe('one');
    expect(calls).toEqual(['one', 'two']);
  });

  it('evicts sections unused since its last pass first, past its budget, never the one just loaded', () => {
    const cache = new SectionCache(30);
    const calls: string[] = [];
    cache.get(1, 'a', loader('a', 10, calls));
    cache.get(1, 'b', loader('b', 10, calls));
    cache.get(1, 'c', loader('c', 10, calls));
    // `a` is used again: `b` is now the least recently used.
    for (let i = 0; i < 5; i++) cache.get(1, 'a', loader('a2', 10, calls));
    cache.get(1, 'd', loader('d', 10, calls));
    expect(cache.sizeInBytes).toBe(30);
    expect(cache.evictions).toBe(1);
    cache.get(1, 'a', loader('a3', 10, calls));
    cache.get(1, 'c', loader('c2', 10, calls));
    cache.get(1, 'd', loader('d2', 10, calls));
    expect(calls).toEqual(['a', 'b', 'c', 'd']);
    // A section larger than the whole budget stays while it is in use.
    expect(cache.get(2, 'big', loader('big', 100, calls))).toBe('big');
    expect(cache.sizeInBytes).toBe(100);
  });

  it('drops every section of a closed segment and can shrink its budget', () => {
    const cache = new SectionCache(1000);
    const calls: string[] = [];
    cache.get(1, 'a', loader('a', 10, calls));
    cache.get(1, 'b', loader('b', 20, calls));
    cache.get(2, 'a', loader('c', 40, calls));
    cache.dropOwner(1);
    expect(cache.sizeInBytes).toBe(40);
    expect(cache.get(1, 'a', loader('a2', 10, calls))).toBe('a2');
    cache.setBudget(15);
    expect(cache.sizeInBytes).toBe(10);
    cache.clear();
    expect(cache.sizeInBytes).toBe(0);
  });

  it('serves a named section without a lookup while it stays cached, and reloads it once evicted', () => {
    const cache = new SectionCache(30);
    const calls: string[] = [];
    const ids = new Section(1, 'ids', loader('ids', 10, calls), cache);
    expect(ids.value).toBe('ids');
    expect(ids.value).toBe('ids');
    expect(calls).toEqual(['ids']);
    expect(cache.hits).toBe(1);
    // The same section reached by its key is the same entry.
    expect(cache.get(1, 'ids', loader('other', 10, calls))).toBe('ids');
    // Pushed out by other sections (its use gave it one more pass of the eviction, not two):
    // the next use loads it again, and it counts again.
    for (const k of ['a', 'b', 'c', 'd']) cache.get(2, k, loader(k, 20, calls));
    expect(cache.evictions).toBeGreaterThan(0);
    expect(ids.value).toBe('ids');
    expect(calls).toEqual(['ids', 'a', 'b', 'c', 'd', 'ids']);
    expect(cache.sizeInBytes).toBeLessThanOrEqual(30);
    // A closed segment's sections are reloaded too (never served from a dropped entry).
    cache.dropOwner(1);
    expect(ids.value).toBe('ids');
    expect(calls).toEqual(['ids', 'a', 'b', 'c', 'd', 'ids', 'ids']);
    cache.clear();
    expect(ids.value).toBe('ids');
    expect(calls.length).toBe(8);
  });

  it('keeps a section used through its name from going cold', () => {
    const cache = new SectionCache(30);
    const calls: string[] = [];
    const hot = new Section(1, 'hot', loader('hot', 10, calls), cache);
    expect(hot.value).toBe('hot');
    for (let i = 0; i < 20; i++) {
      cache.get(2, `cold${i}`, loader(`cold${i}`, 10, calls));
      expect(hot.value).toBe('hot');
    }
    expect(calls.filter((c) => c === 'hot')).toEqual(['hot']);
  });
});
