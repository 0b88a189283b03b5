import { describe, expect, it } from 'vitest';
import { BoostingWeight } from './function-score.ts';
import { mix32 } from './score-functions.ts';
import { MatchAllWeight } from './weights.ts';

/** hppc BitMixer.mix32 in 64-bit arithmetic, truncated to Java ints step by step. */
function mix32Reference(k: number): number {
  const int = (v: bigint) => BigInt.asIntN(32, v);
  const shr = (v: bigint, n: bigint) => BigInt.asUintN(32, v) >> n;
  let x = int(BigInt(k));
  x = int((x ^ shr(x, 16n)) * 0x85ebca6bn);
  x = int((x ^ shr(x, 13n)) * 0xc2b2ae35n);
  return Number(int(x ^ shr(x, 16n)));
}

describe('random_score mixing', () => {
  it('mixes as BitMixer.mix32', () => {
    for (const k of [0, 1, -1, 42, 0x7fffffff, -0x80000000, 123456789, -987654321]) {
      expect(mix32(k)).toBe(mix32Reference(k));
    }
  });
});

describe('boosting scores', () => {
  it('multiplies in double and rounds once to float; a negative product scores 0', () => {
    const w = new BoostingWeight(
      new MatchAllWeight(1),
      new MatchAllWeight(0),
      Math.fround(0.3),
      Math.fround(1.7),
    );
    expect(w.scoreOf(Math.fround(2.2), true)).toBe(
      Math.fround(Math.fround(2.2) * Math.fround(0.3) * Math.fround(1.7)),
    );
    expect(w.scoreOf(Math.fround(2.2), false)).toBe(Math.fround(Math.fround(2.2) * Math.fround(1.7)));
    expect(w.scoreOf(-1, true)).toBe(0);
  });
});
