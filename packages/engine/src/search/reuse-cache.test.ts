import { describe, expect, it } from 'vitest';
import { Segment } from '../index/segment.ts';
import { reusedResult } from './reuse-cache.ts';

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

describe('results kept per segment', () => {
  it('computes a result until its key recurs, then keeps it within the byte budget', () => {
    const seg = segment(100);
    let computed = 0;
    const ask = (key: string, bytes = 8) =>
      reusedResult(
        seg,
        'test',
        key,
        () => {
          computed++;
          return { key };
        },
        () => bytes,
      );
    ask('a');
    expect(computed).toBe(1);
    const second = ask('a');
    expect(computed).toBe(2);
    expect(ask('a')).toBe(second);
    expect(computed).toBe(2);
    // Larger than the budget (16 bytes per doc): never kept.
    ask('big', 100 * 16 + 1);
    ask('big', 100 * 16 + 1);
    ask('big', 100 * 16 + 1);
    expect(computed).toBe(5);
  });

  it('drops the least recently used results past the entry limit', () => {
    const seg = segment(1000);
    let computed = 0;
    const ask = (key: string) =>
      reusedResult(
        seg,
        'test',
        key,
        () => {
          computed++;
          return key;
        },
        () => 1,
      );
    for (let i = 0; i < 40; i++) {
      ask(`k${i}`);
      ask(`k${i}`);
    }
    const before = computed;
    ask('k39');
    expect(computed).toBe(before);
    ask('k0');
    expect(computed).toBe(before + 1);
  });
});
