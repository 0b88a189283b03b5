import { afterEach, describe, expect, it } from 'vitest';
import { Segment } from '../index/segment.ts';
import { filterCacheTuning, keptFilters, useFilter } from './filter-cache.ts';

function segment(maxDoc: number): Segment {
  const ids = Array.from({ length: maxDoc }, (_, i) => String(i));
  const zeros = new Float64Array(maxDoc);
  return new Segment(
    {
      ids,
      routing: ids.map(() => null),
      seqNos: zeros,
      versions: zeros,
      primaryTerms: zeros,
      sourceBytes: new Uint8Array(0),
      sourceOffsets: new Uint32Array(maxDoc + 1),
    },
    new Map(),
  );
}

describe('the filter cache of a segment', () => {
  afterEach(() => {
    filterCacheTuning.minSegmentDocs = 10_000;
  });

  it('keeps a filter once it has been used often enough, and hands the kept docs back', () => {
    filterCacheTuning.minSegmentDocs = 0;
    const seg = segment(64);
    let computed = 0;
    const use = (key: string, minUses: number) =>
      useFilter(seg, key, minUses, () => {
        computed++;
        return Int32Array.of(1, 5, 9);
      });
    expect(use('range:a', 2)).toBeUndefined();
    expect(computed).toBe(0);
    const kept = use('range:a', 2);
    expect(kept).toEqual(Int32Array.of(1, 5, 9));
    expect(computed).toBe(1);
    expect(use('range:a', 2)).toBe(kept);
    expect(computed).toBe(1);
    for (let i = 0; i < 4; i++) expect(use('exists:b', 5)).toBeUndefined();
    expect(use('exists:b', 5)).toEqual(Int32Array.of(1, 5, 9));
    expect(keptFilters(seg)).toBe(2);
  });

  it('drops the least recently used sets past the byte budget', () => {
    filterCacheTuning.minSegmentDocs = 0;
    const seg = segment(8);
    // 16 bytes per doc: 128 bytes, four sets of eight docs.
    const all = () => Int32Array.from({ length: 8 }, (_, i) => i);
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      useFilter(seg, key, 1, all);
    }
    expect(keptFilters(seg)).toBe(4);
    let recomputed = false;
    useFilter(seg, 'a', 1, () => {
      recomputed = true;
      return all();
    });
    expect(recomputed).toBe(true);
  });

  it('leaves small segments out', () => {
    const seg = segment(100);
    expect(useFilter(seg, 'k', 1, () => Int32Array.of(1))).toBeUndefined();
    expect(keptFilters(seg)).toBe(0);
  });
});
