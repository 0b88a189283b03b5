import { describe, expect, it } from 'vitest';
import { significanceScore } from './significant-terms.ts';

/** A term held by all 3 subset docs and by 4 of the 7 background docs. */
const F = { subsetFreq: 3, subsetSize: 3, supersetFreq: 4, supersetSize: 7 };

describe('significance heuristics', () => {
  it('score as Elasticsearch defines them', () => {
    expect(significanceScore({ kind: 'jlh' }, F)).toBeCloseTo((1 - 4 / 7) * (7 / 4), 12);
    expect(significanceScore({ kind: 'percentage' }, F)).toBe(0.75);
    const nxy = { includeNegatives: false, backgroundIsSuperset: true };
    expect(significanceScore({ kind: 'chi_square', ...nxy }, F)).toBeCloseTo((7 * 81) / 144, 12);
    const mi = ((2 * (3 / 7) * Math.log(1.75) + (1 / 7) * Math.log(7 / 16)) / Math.log(2)) as number;
    expect(significanceScore({ kind: 'mutual_information', ...nxy }, F)).toBeCloseTo(mi, 12);
    const gnd = Math.exp(-(Math.log(4) - Math.log(3)) / (Math.log(7) - Math.log(3)));
    expect(significanceScore({ kind: 'gnd', backgroundIsSuperset: true }, F)).toBeCloseTo(gnd, 12);
  });

  it('give nothing to terms no more frequent in the subset than in the background', () => {
    const rarer = { subsetFreq: 1, subsetSize: 4, supersetFreq: 4, supersetSize: 7 };
    expect(significanceScore({ kind: 'jlh' }, rarer)).toBe(0);
    const nxy = { includeNegatives: false, backgroundIsSuperset: true };
    expect(significanceScore({ kind: 'chi_square', ...nxy }, rarer)).toBe(Number.NEGATIVE_INFINITY);
    expect(significanceScore({ kind: 'chi_square', ...nxy, includeNegatives: true }, rarer)).toBeGreaterThan(
      0,
    );
    expect(significanceScore({ kind: 'jlh' }, { ...F, subsetSize: 0 })).toBe(0);
  });
});
