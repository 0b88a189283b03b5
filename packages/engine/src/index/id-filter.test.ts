import { describe, expect, it } from 'vitest';
import { IdFilter } from './id-filter.ts';

describe('id filter', () => {
  it('never misses an id it holds, and rules out most others', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? `doc-${i}` : String(i)));
    const f = IdFilter.build(ids.length, (i) => ids[i]!);
    for (const id of ids) expect(f.mayContain(id)).toBe(true);
    let falsePositives = 0;
    for (let i = 20_000; i < 40_000; i++) if (f.mayContain(String(i))) falsePositives++;
    expect(falsePositives / 20_000).toBeLessThan(0.03);
  });

  it('handles an empty segment and non-ASCII ids', () => {
    expect(IdFilter.build(0, () => '').mayContain('a')).toBe(false);
    const f = IdFilter.build(2, (i) => ['é', '\u{1F600}'][i]!);
    expect(f.mayContain('é')).toBe(true);
    expect(f.mayContain('\u{1F600}')).toBe(true);
  });
});
