/**
 * The bounded crash test for CI: a few cycles of bulk load, SIGKILL at a random moment, restart,
 * and every acknowledged document checked (see scripts/crash-test.ts; `npm run crash-test --
 * --cycles N` runs the long version).
 */
import { describe, expect, it } from 'vitest';
import { runCrashCycles } from '../../scripts/crash-test.ts';

describe('kill -9 in the middle of a bulk load', () => {
  it('loses no acknowledged document and never shows a half-written one', async () => {
    const seed = Number(process.env.SHOAL_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const lines: string[] = [];
    const report = await runCrashCycles({
      cycles: 3,
      seed,
      loadMs: 2500,
      writers: 3,
      log: (l) => lines.push(l),
    });
    expect(report.problems, `seed ${seed}\n${lines.join('\n')}`).toEqual([]);
    expect(report.cycles).toHaveLength(3);
    expect(report.cycles.at(-1)!.acknowledged).toBeGreaterThan(0);
  }, 90_000);
});
