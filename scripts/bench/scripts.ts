/**
 * `npm run bench -- scripts`: what a script costs against the same search without one, on a
 * node holding flights-200k in 2 shards (2 shard worker threads).
 *
 *   (p1) function_score, field_value_factor: distance × 2 over match "late evening"
 *   (s1) the same with a script_score: doc['distance'].value * 2
 *   (p2) sum of distance (size 0)
 *   (s2) the same with a script: doc['distance'].value
 *
 * Each pair is checked to give the same answer before it is measured. The four are measured in
 * interleaved rounds; a ratio is the median over the rounds of script / plain within a round.
 * Target: each ratio ≥ 0.3.
 */
import { flights } from '../sample-data/index.ts';
import { loadFlights } from './flights-load.ts';
import { clean, type LoadOptions, type Measurement, measure } from './measure.ts';
import { type BenchChild, startShoalNode } from './processes.ts';
import {
  environment,
  errorMessage,
  fixed,
  int,
  medianRatio,
  medianRun,
  printTable,
  writeResults,
} from './report.ts';

const WORKERS = 2;
const SHARDS = 2;
const ROUNDS = 5;
const LATER_WARMUP_S = 0.5;
const TARGET = 0.3;

const match = { match: { summary: 'late evening' } };
const bodies = {
  p1: {
    query: {
      function_score: {
        query: match,
        field_value_factor: { field: 'distance', factor: 2 },
        boost_mode: 'replace',
      },
    },
    size: 10,
  },
  s1: {
    query: {
      function_score: {
        query: match,
        script_score: { script: { source: "doc['distance'].value * params.f", params: { f: 2 } } },
        boost_mode: 'replace',
      },
    },
    size: 10,
  },
  p2: { size: 0, aggs: { total: { sum: { field: 'distance' } } } },
  s2: { size: 0, aggs: { total: { sum: { script: "doc['distance'].value" } } } },
} as const;
type Id = keyof typeof bodies;

const LABELS: Record<Id, string> = {
  p1: 'function_score field_value_factor',
  s1: 'function_score script_score',
  p2: 'sum aggregation on a field',
  s2: 'sum aggregation with a script',
};

// biome-ignore lint/suspicious/noExplicitAny: the checks read arbitrary response shapes
type Json = any;

async function post(url: string, body: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(new URL(`/${flights.index}/_search`, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** Each script search must answer what its plain twin answers. */
async function verify(url: string): Promise<void> {
  const p1 = await post(url, bodies.p1);
  const s1 = await post(url, bodies.s1);
  const p2 = await post(url, bodies.p2);
  const s2 = await post(url, bodies.s2);
  for (const [id, r] of [
    ['p1', p1],
    ['s1', s1],
    ['p2', p2],
    ['s2', s2],
  ] as const) {
    if (r.status !== 200)
      throw new Error(`(${id}) answered ${r.status}: ${JSON.stringify(r.json).slice(0, 500)}`);
  }
  const hits = (r: { json: Json }) =>
    r.json.hits.hits.map((h: { _id: string; _score: number }) => `${h._id}:${h._score}`);
  if (JSON.stringify(hits(p1)) !== JSON.stringify(hits(s1))) {
    throw new Error(`(s1) hits differ from (p1): ${hits(s1).join(' ')} vs ${hits(p1).join(' ')}`);
  }
  if (p2.json.aggregations.total.value !== s2.json.aggregations.total.value) {
    throw new Error(
      `(s2) sum ${s2.json.aggregations.total.value} differs from (p2) ${p2.json.aggregations.total.value}`,
    );
  }
}

export async function runScripts(load: LoadOptions): Promise<void> {
  const started = Date.now();
  let node: BenchChild | undefined;
  const runs = new Map<Id, Measurement[]>();
  const ids = Object.keys(bodies) as Id[];
  try {
    console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
    node = await startShoalNode({ workers: WORKERS });
    await loadFlights(node.url, SHARDS, process.stdout.isTTY);
    await verify(node.url);
    const roundS = load.durationS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      for (const id of ids) {
        console.log(`round ${round + 1}/${ROUNDS}: measuring (${id}) ${LABELS[id]} …`);
        const m = await measure(
          {
            url: node.url,
            method: 'POST',
            path: `/${flights.index}/_search`,
            body: JSON.stringify(bodies[id]),
            pid: node.pid,
          },
          {
            connections: load.connections,
            durationS: roundS,
            warmupS: round === 0 ? load.warmupS : Math.min(load.warmupS, LATER_WARMUP_S),
          },
        );
        runs.set(id, [...(runs.get(id) ?? []), m]);
      }
    }
  } catch (e) {
    console.log(`\nscripts: ${errorMessage(e)}`);
    process.exitCode = 1;
  } finally {
    await node?.stop();
  }
  const rps = (id: Id) => (runs.get(id) ?? []).map((m) => m.reqPerSec);
  const ratios = {
    script_score: medianRatio(rps('s1'), rps('p1')),
    script_sum: medianRatio(rps('s2'), rps('p2')),
  };
  const table = ids.map((id) => {
    const rs = runs.get(id) ?? [];
    const m = rs.length > 0 ? medianRun(rs, (x) => x.reqPerSec) : undefined;
    const ratio = id === 's1' ? ratios.script_score : id === 's2' ? ratios.script_sum : undefined;
    return [
      `(${id})`,
      LABELS[id],
      int(m?.reqPerSec),
      int(m ? m.p50Us : undefined),
      int(m ? m.p99Us : undefined),
      ratio === undefined ? '' : `${fixed(ratio)} ${ratio >= TARGET ? 'ok' : `< ${TARGET}`}`,
      rs.every(clean) ? '' : 'errors',
    ];
  });
  console.log(
    `\nscripts: ${load.connections} connections; ${ROUNDS} interleaved rounds of ${fixed(load.durationS / ROUNDS, 1)} s; ` +
      `flights-200k in ${SHARDS} shards, ${WORKERS} shard workers; ratio = script / plain (median of rounds), target ≥ ${TARGET}\n`,
  );
  printTable(['', 'search', 'req/s', 'p50 µs', 'p99 µs', 'ratio', ''], table);
  const file = writeResults('scripts', {
    scenario: 'scripts',
    date: new Date(started).toISOString(),
    environment: environment(),
    options: { ...load, rounds: ROUNDS, workers: WORKERS, shards: SHARDS },
    bodies,
    runs: Object.fromEntries(runs),
    ratios,
  });
  console.log(`\nresults: ${file}`);
  if (Object.values(ratios).some((r) => r === undefined || r < TARGET)) process.exitCode = 1;
}
