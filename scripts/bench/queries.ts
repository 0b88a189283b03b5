/**
 * `npm run bench -- queries [--rounds 1] [--shape-seconds 3] [--logs] [--logs-docs 2000000]`:
 * throughput and latency of ≥ 20 query shapes (queries-shapes.ts) on one Shoal node holding
 * flights-200k with derived fields (queries-data.ts) in 4 shards, every request drawing its
 * values from a seeded generator.
 *
 * For each shape: req/s at 10 connections, p50/p99 at one connection, and the ratio of its
 * req/s to `match_all` size 10 measured in the same run (match_all is measured before the
 * first shape and after every few shapes; a shape's ratio is to the mean of the match_all runs
 * on either side of it, seconds apart). With `--rounds N` everything is measured N times and
 * each figure is the median over the rounds. Targets: filters and sorts ≥ 0.5 of match_all,
 * aggregations over the whole set ≥ 0.1. The node's resident memory (`ps` RSS) is printed
 * when idle, right after the load, a minute later (with --rss-wait), after the measurements
 * and after a force merge, beside the raw size of the data.
 *
 * `--logs` also loads a generated set of web-server logs (`--logs-docs`, 2 million by
 * default) and measures its shapes, p50 at one connection compared with the same shape kind on
 * flights.
 */
import { execFileSync } from 'node:child_process';
import { loadDataset } from '../load-sample.ts';
import type { SampleDataset } from '../sample-data/index.ts';
import { type LoadTarget, type Measurement, measure } from './measure.ts';
import { type BenchChild, startShoalNode } from './processes.ts';
import { flightsQuery, flightValues, logsDataset, seededRandom } from './queries-data.ts';
import { flightShapes, logsShapes, type Shape } from './queries-shapes.ts';
import { environment, errorMessage, fixed, int, printTable, writeResults } from './report.ts';

const WORKERS = 2;
const SHARDS = 4;
const SEED = 20;
/** match_all is measured again after this many shapes. */
const BASELINE_EVERY = 5;
const TARGETS: Record<string, number> = { filter: 0.5, sort: 0.5, agg: 0.1 };

export interface QueriesOptions {
  rounds: number;
  /** Seconds of each shape's run at 10 connections (the one-connection run is 2/3 of it). */
  shapeSeconds: number;
  logs: boolean;
  logsDocs: number;
  /** Seconds to wait after loading before the second RSS reading (0: none). */
  rssWaitS: number;
}

interface ShapeResult {
  id: string;
  kind: string;
  index: string;
  reqPerSec: number[];
  p50Us: number[];
  p99Us: number[];
  ratio: number[];
  errors: number;
  sample?: string;
  error?: string;
}

function rssKb(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}

interface SearchReply {
  _shards?: { failed?: number };
  hits?: { total?: { value: number; relation: string } };
}

async function post(
  url: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: SearchReply | undefined; text: string }> {
  const res = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: SearchReply | undefined;
  try {
    json = JSON.parse(text) as SearchReply;
  } catch {}
  return { status: res.status, json, text };
}

/** Sends a few of the shape's bodies: each must answer 200 from every shard. */
async function verify(url: string, index: string, shape: Shape): Promise<string> {
  const rnd = seededRandom(SEED + 1000);
  let sample = '';
  for (let i = 0; i < 3; i++) {
    const body = shape.body(rnd);
    const r = await post(url, `/${index}/_search`, body);
    const shards = r.json?._shards;
    if (r.status !== 200 || shards?.failed !== 0)
      throw new Error(`${JSON.stringify(body)} answered ${r.status}: ${r.text.slice(0, 500)}`);
    const t = r.json?.hits?.total;
    sample = t ? `${t.relation === 'gte' ? '≥' : ''}${t.value}` : 'total off';
  }
  return sample;
}

function target(url: string, pid: number, index: string, shape: Shape, seed: number): LoadTarget {
  const rnd = seededRandom(seed);
  return {
    url,
    pid,
    method: 'POST',
    path: `/${index}/_search`,
    makeBody: () => JSON.stringify(shape.body(rnd)),
  };
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function loadSet(
  url: string,
  dataset: SampleDataset,
): Promise<{ docs: number; ms: number; rawBytes: number }> {
  let rawBytes = 0;
  for (const d of dataset.docs()) rawBytes += Buffer.byteLength(JSON.stringify(d.source));
  console.log(`loading ${int(dataset.count())} docs into ${dataset.index} (${SHARDS} shards) …`);
  const r = await loadDataset({ url, dataset, shards: SHARDS, batch: 5000, concurrency: 2 });
  if (r.count !== r.docs) throw new Error(`${dataset.index}: _count ${r.count} after loading ${r.docs}`);
  console.log(`  ${int(r.docs)} docs in ${fixed(r.ms / 1000, 1)} s`);
  return { docs: r.docs, ms: r.ms, rawBytes };
}

/** Measures the shapes of one index, match_all interleaved, over `rounds` rounds. */
async function measureShapes(
  node: BenchChild,
  index: string,
  shapes: Shape[],
  opts: QueriesOptions,
): Promise<ShapeResult[]> {
  const results: ShapeResult[] = shapes.map((s) => ({
    id: s.id,
    kind: s.kind,
    index,
    reqPerSec: [],
    p50Us: [],
    p99Us: [],
    ratio: [],
    errors: 0,
  }));
  for (const [i, s] of shapes.entries()) {
    try {
      results[i]!.sample = await verify(node.url, index, s);
    } catch (e) {
      results[i]!.error = errorMessage(e);
    }
  }
  const base = shapes[0]!;
  const runAt = async (
    shape: Shape,
    connections: number,
    seconds: number,
    seed: number,
  ): Promise<Measurement> =>
    measure(target(node.url, node.pid, index, shape, seed), {
      connections,
      durationS: seconds,
      warmupS: 0.5,
    });
  for (let round = 0; round < opts.rounds; round++) {
    const baseline: number[] = [];
    const pending: { i: number; rps: number }[] = [];
    const settle = () => {
      const before = baseline.at(-2) ?? baseline.at(-1)!;
      const after = baseline.at(-1)!;
      for (const p of pending) results[p.i]!.ratio.push(p.rps / ((before + after) / 2));
      pending.length = 0;
    };
    const measureBase = async () => {
      const m = await runAt(base, 10, opts.shapeSeconds, SEED + round);
      baseline.push(m.reqPerSec);
      results[0]!.reqPerSec.push(m.reqPerSec);
    };
    await measureBase();
    let since = 0;
    for (let i = 1; i < shapes.length; i++) {
      const r = results[i]!;
      if (r.error) continue;
      console.log(`round ${round + 1}/${opts.rounds}: ${index} ${r.id} …`);
      const seed = SEED + round * 1000 + i;
      const m10 = await runAt(shapes[i]!, 10, opts.shapeSeconds, seed);
      const m1 = await runAt(shapes[i]!, 1, (opts.shapeSeconds * 2) / 3, seed + 500);
      r.errors += m10.non2xx + m10.errors + m1.non2xx + m1.errors;
      r.reqPerSec.push(m10.reqPerSec);
      r.p50Us.push(m1.p50Us);
      r.p99Us.push(m1.p99Us);
      pending.push({ i, rps: m10.reqPerSec });
      if (++since === BASELINE_EVERY) {
        await measureBase();
        settle();
        since = 0;
      }
    }
    if (pending.length > 0) {
      await measureBase();
      settle();
    }
    const m1 = await runAt(base, 1, (opts.shapeSeconds * 2) / 3, SEED + 77 + round);
    results[0]!.p50Us.push(m1.p50Us);
    results[0]!.p99Us.push(m1.p99Us);
    results[0]!.ratio.push(1);
  }
  return results;
}

function printResults(results: ShapeResult[]): void {
  const rows = results.map((r) => {
    if (r.error) return [r.id, r.kind, '-', '-', '-', '-', '-', '-', `error: ${r.error.slice(0, 120)}`];
    const ratio = median(r.ratio);
    const t = TARGETS[r.kind];
    const met = t === undefined ? '' : ratio >= t ? 'yes' : 'NO';
    return [
      r.id,
      r.kind,
      int(median(r.reqPerSec)),
      fixed(median(r.p50Us) / 1000),
      fixed(median(r.p99Us) / 1000),
      fixed(ratio),
      t === undefined ? '' : `≥ ${t}`,
      met,
      `${r.sample ?? ''}${r.errors ? ` (${r.errors} failed requests)` : ''}`,
    ];
  });
  printTable(
    [
      'shape',
      'kind',
      'req/s @10',
      'p50 ms @1',
      'p99 ms @1',
      'vs match_all',
      'target',
      'met',
      'hits (sample)',
    ],
    rows,
  );
}

export async function runQueries(opts: QueriesOptions): Promise<void> {
  const started = Date.now();
  const memory: Record<string, number> = {};
  let node: BenchChild | undefined;
  const all: ShapeResult[] = [];
  const loads: Record<string, unknown> = {};
  try {
    console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
    node = await startShoalNode({ workers: WORKERS });
    memory.idleKb = rssKb(node.pid);
    const flights = await loadSet(node.url, flightsQuery);
    loads.flights = flights;
    memory.afterFlightsLoadKb = rssKb(node.pid);
    let logsLoad: Awaited<ReturnType<typeof loadSet>> | undefined;
    if (opts.logs) {
      logsLoad = await loadSet(node.url, logsDataset(opts.logsDocs));
      loads.logs = logsLoad;
      memory.afterLogsLoadKb = rssKb(node.pid);
    }
    if (opts.rssWaitS > 0) {
      console.log(`waiting ${opts.rssWaitS} s before the second RSS reading …`);
      await new Promise((r) => setTimeout(r, opts.rssWaitS * 1000));
      memory.afterWaitKb = rssKb(node.pid);
    }
    all.push(...(await measureShapes(node, flightsQuery.index, flightShapes(flightValues()), opts)));
    if (opts.logs) all.push(...(await measureShapes(node, 'logs-q', logsShapes(), opts)));
    memory.afterQueriesKb = rssKb(node.pid);
    for (const index of [flightsQuery.index, ...(opts.logs ? ['logs-q'] : [])]) {
      const r = await post(node.url, `/${index}/_forcemerge?max_num_segments=1`, {});
      if (r.status !== 200)
        console.log(`force merge of ${index} answered ${r.status}: ${r.text.slice(0, 200)}`);
    }
    await new Promise((r) => setTimeout(r, 2000));
    memory.afterForceMergeKb = rssKb(node.pid);
    memory.flightsRawKb = Math.round(flights.rawBytes / 1024);
    if (logsLoad) memory.logsRawKb = Math.round(logsLoad.rawBytes / 1024);
  } finally {
    await node?.stop();
  }

  console.log(
    `\nqueries: ${WORKERS} shard workers, ${SHARDS} shards; ${opts.rounds} round(s) of ${opts.shapeSeconds} s per shape at 10 connections ` +
      `and ${fixed((opts.shapeSeconds * 2) / 3, 1)} s at 1; figures are medians over the rounds\n`,
  );
  printResults(all.filter((r) => r.index === flightsQuery.index));
  if (opts.logs) {
    console.log('');
    printResults(all.filter((r) => r.index !== flightsQuery.index));
  }
  console.log('\nnode resident memory (ps RSS):');
  for (const [k, v] of Object.entries(memory))
    console.log(`  ${k.replace(/Kb$/, '').padEnd(18)} ${int(v / 1024)} MiB`);
  const file = writeResults('queries', {
    scenario: 'queries',
    date: new Date(started).toISOString(),
    environment: environment(),
    options: { ...opts, workers: WORKERS, shards: SHARDS, seed: SEED },
    loads,
    memory,
    shapes: all,
  });
  console.log(`\nresults: ${file}`);
  if (all.some((r) => r.error || r.errors > 0)) process.exitCode = 1;
}
