/**
 * `npm run sim -- --seeds N [--seed S] [--trace]`: runs the coordination simulation for seeds
 * S .. S+N-1 (S defaults to a random one) and prints each failing seed; `--seed S --trace`
 * replays one seed and prints its timeline.
 */
import { parseArgs } from 'node:util';
import { simulate } from '../packages/cluster/src/sim/simulation.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1' },
    seed: { type: 'string' },
    trace: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const count = Number(values.seeds);
const first = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(first)) {
  console.error('usage: npm run sim -- [--seeds N] [--seed S] [--trace]');
  process.exit(2);
}
const started = Date.now();
let failed = 0;
let events = 0;
for (let i = 0; i < count; i++) {
  const seed = first + i;
  const r = simulate({ seed, trace: values.trace || values.verbose, verbose: values.verbose });
  events += r.events;
  if (values.trace || values.verbose) console.log(r.trace.join('\n'));
  if (!r.ok) {
    failed++;
    console.log(`seed ${seed} FAILED (${r.nodes} nodes): ${r.failure}`);
    console.log(`  replay: npm run sim -- --seed ${seed} --trace`);
  } else if (count === 1) {
    console.log(
      `seed ${seed} ok: ${r.nodes} nodes, ${r.events} events, ${r.virtualMs} virtual ms, ${r.leaders} masters, ${r.committed} committed states, ${r.acked} acknowledged changes`,
    );
  }
}
const secs = (Date.now() - started) / 1000;
console.log(
  `${count - failed}/${count} seeds passed from ${first} (${events} events in ${secs.toFixed(1)} s)`,
);
process.exit(failed > 0 ? 1 : 0);
