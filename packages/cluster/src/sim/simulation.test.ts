import { describe, expect, it } from 'vitest';
import { simulate } from './simulation.ts';

/** `SHOAL_SIM_SEEDS` / `SHOAL_SIM_FIRST_SEED` widen or move the range; a failure names its seed. */
const SEEDS = Number(process.env.SHOAL_SIM_SEEDS ?? 4000);
const FIRST = Number(process.env.SHOAL_SIM_FIRST_SEED ?? 1);

describe('coordination under a simulated network', () => {
  it(`keeps safety and recovers liveness for seeds ${FIRST}..${FIRST + SEEDS - 1}`, () => {
    const failures: string[] = [];
    let leaders = 0;
    let committed = 0;
    let acked = 0;
    for (let seed = FIRST; seed < FIRST + SEEDS; seed++) {
      const r = simulate({ seed });
      leaders += r.leaders;
      committed += r.committed;
      acked += r.acked;
      if (!r.ok) failures.push(`seed ${seed}: ${r.failure} (replay: npm run sim -- --seed ${seed} --trace)`);
    }
    expect(failures).toEqual([]);
    // The runs did elect, commit and acknowledge (a simulation that never got going proves nothing).
    expect(leaders).toBeGreaterThan(SEEDS);
    expect(committed).toBeGreaterThan(SEEDS * 10);
    expect(acked).toBeGreaterThan(SEEDS * 5);
  }, 240_000);

  it('replays a seed exactly', () => {
    const a = simulate({ seed: 42, trace: true });
    const b = simulate({ seed: 42, trace: true });
    expect(a.trace.length).toBeGreaterThan(10);
    expect(b.trace).toEqual(a.trace);
    expect(b.events).toBe(a.events);
  });
});
