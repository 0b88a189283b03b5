/**
 * `npm run bench -- queries [--rounds 1] [--shape-seconds 3] [--logs] [--logs-docs 2000000]
 *  [--rss-wait 0] [--compare <checkout>] [--shapes 'id,id']`:
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
 * default) and measures its shapes.
 *
 * `--compare <checkout>` starts a second node from another checkout of Shoal (an older commit
 * unpacked with its own `node_modules/@shoal` links) and measures every shape on both nodes back
 * to back, printing each figure before and after side by side.
 *
 * `--shapes` measures only the named shapes (their ids, comma-separated) beside match_all.
 */
import { execFileSync } from 'node:child_process';
import { withAuth } from '../credentials.ts';
import { loadDataset } from '../load-sample.ts';
import type { SampleDataset } from '../sample-data/index.ts';
import { type LoadTarget, measure } from './measure.ts';
import { type BenchChild, startShoalNode } from './processes.ts';
import { flightsQuery, flightValues, logsDataset, logsIndex, seededRandom } from './queries-data.ts';
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
  /** Another checkout of Shoal to measure beside this one, shape by shape ("before"). */
  compare?: string;
  /** Only these shapes (by id) besides the match_all baseline. */
  only?: string[];
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
    headers: withAuth({ 'content-type': 'application/json' }),
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
    // The engine's time, not the shard request cache's: the shapes draw their values from small
    // sets, and an aggregation shape would soon be answered from the cache every time.
    path: `/${index}/_search?request_cache=false`,
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

/** A node measured, and its results (one row per shape). */
interface Subject {
  label: string;
  node: BenchChild;
  results: ShapeResult[];
}

/**
 * Measures the shapes of one index on each node, match_all interleaved, over `rounds` rounds.
 * With two nodes (a baseline checkout beside this one), each shape runs on both back to back,
 * in alternating order, so both see the same minute of this machine.
 */
async function measureShapes(
  nodes: { label: string; node: BenchChild }[],
  index: string,
  shapes: Shape[],
  opts: QueriesOptions,
): Promise<Subject[]> {
  const subjects: Subject[] = nodes.map(({ label, node }) => ({
    label,
    node,
    results: shapes.map((s) => ({
      id: s.id,
      kind: s.kind,
      index,
      reqPerSec: [],
      p50Us: [],
      p99Us: [],
      ratio: [],
      errors: 0,
    })),
  }));
  for (const sub of subjects) {
    for (const [i, s] of shapes.entries()) {
      try {
        sub.results[i]!.sample = await verify(sub.node.url, index, s);
      } catch (e) {
        sub.results[i]!.error = errorMessage(e);
      }
    }
  }
  const base = shapes[0]!;
  const runAt = (node: BenchChild, shape: Shape, connections: number, seconds: number, seed: number) =>
    measure(target(node.url, node.pid, index, shape, seed), {
      connections,
      durationS: seconds,
      warmupS: 0.5,
    });
  const inTurn = (i: number) => (i % 2 === 0 ? subjects : [...subjects].reverse());
  for (let round = 0; round < opts.rounds; round++) {
    const baseline = new Map<Subject, number[]>(subjects.map((x) => [x, []]));
    const pending: { sub: Subject; i: number; rps: number }[] = [];
    const measureBase = async () => {
      for (const sub of inTurn(baseline.get(subjects[0]!)!.length)) {
        const m = await runAt(sub.node, base, 10, opts.shapeSeconds, SEED + round);
        baseline.get(sub)!.push(m.reqPerSec);
        sub.results[0]!.reqPerSec.push(m.reqPerSec);
      }
      for (const p of pending) {
        const b = baseline.get(p.sub)!;
        const before = b.at(-2) ?? b.at(-1)!;
        p.sub.results[p.i]!.ratio.push(p.rps / ((before + b.at(-1)!) / 2));
      }
      pending.length = 0;
    };
    await measureBase();
    let since = 0;
    for (let i = 1; i < shapes.length; i++) {
      console.log(`round ${round + 1}/${opts.rounds}: ${index} ${shapes[i]!.id} …`);
      const seed = SEED + round * 1000 + i;
      for (const sub of inTurn(i)) {
        const r = sub.results[i]!;
        if (r.error) continue;
        const m10 = await runAt(sub.node, shapes[i]!, 10, opts.shapeSeconds, seed);
        const m1 = await runAt(sub.node, shapes[i]!, 1, (opts.shapeSeconds * 2) / 3, seed + 500);
        r.errors += m10.non2xx + m10.errors + m1.non2xx + m1.errors;
        r.reqPerSec.push(m10.reqPerSec);
        r.p50Us.push(m1.p50Us);
        r.p99Us.push(m1.p99Us);
        pending.push({ sub, i, rps: m10.reqPerSec });
      }
      if (++since === BASELINE_EVERY) {
        await measureBase();
        since = 0;
      }
    }
    if (pending.length > 0) await measureBase();
    for (const sub of subjects) {
      const m1 = await runAt(sub.node, base, 1, (opts.shapeSeconds * 2) / 3, SEED + 77 + round);
      sub.results[0]!.p50Us.push(m1.p50Us);
      sub.results[0]!.p99Us.push(m1.p99Us);
      sub.results[0]!.ratio.push(1);
    }
  }
  return subjects;
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

/** One table with each node's req/s, p50 and ratio side by side (a baseline's first). */
function printPaired(before: ShapeResult[], after: ShapeResult[], labels: [string, string]): void {
  const rows = after.map((a, i) => {
    const b = before[i]!;
    const t = TARGETS[a.kind];
    const ra = median(a.ratio);
    return [
      a.id,
      a.kind,
      int(median(b.reqPerSec)),
      int(median(a.reqPerSec)),
      fixed(median(b.p50Us) / 1000),
      fixed(median(a.p50Us) / 1000),
      fixed(median(b.ratio)),
      fixed(ra),
      t === undefined ? '' : ra >= t ? `yes (≥ ${t})` : `NO (≥ ${t})`,
      `${a.error ?? b.error ?? ''}`.slice(0, 80),
    ];
  });
  const [x, y] = labels;
  printTable(
    [
      'shape',
      'kind',
      `req/s ${x}`,
      `req/s ${y}`,
      `p50 ms ${x}`,
      `p50 ms ${y}`,
      `ratio ${x}`,
      `ratio ${y}`,
      'target met',
      '',
    ],
    rows,
  );
}

export async function runQueries(opts: QueriesOptions): Promise<void> {
  const started = Date.now();
  const memory: Record<string, Record<string, number>> = {};
  const nodes: { label: string; node: BenchChild }[] = [];
  const all: { label: string; index: string; results: ShapeResult[] }[] = [];
  const loads: Record<string, unknown> = {};
  const rss = (label: string, what: string, pid: number) => {
    memory[label] ??= {};
    memory[label]![what] = rssKb(pid);
  };
  try {
    const roots: [string, string | undefined][] = opts.compare
      ? [
          ['before', opts.compare],
          ['after', undefined],
        ]
      : [['node', undefined]];
    for (const [label, root] of roots) {
      console.log(
        `starting a Shoal node (${label}, ${WORKERS} shard workers)${root ? ` from ${root}` : ''} …`,
      );
      const node = await startShoalNode({ workers: WORKERS, ...(root ? { root } : {}) });
      nodes.push({ label, node });
      rss(label, 'idle', node.pid);
      loads[`${label}:flights`] = await loadSet(node.url, flightsQuery);
      rss(label, 'afterFlightsLoad', node.pid);
      if (opts.logs) {
        loads[`${label}:logs`] = await loadSet(node.url, logsDataset(opts.logsDocs));
        rss(label, 'afterLogsLoad', node.pid);
      }
    }
    if (opts.rssWaitS > 0) {
      console.log(`waiting ${opts.rssWaitS} s before the second RSS reading …`);
      await new Promise((r) => setTimeout(r, opts.rssWaitS * 1000));
      for (const { label, node } of nodes) rss(label, 'afterWait', node.pid);
    }
    const indices: [string, Shape[]][] = [[flightsQuery.index, flightShapes(flightValues())]];
    if (opts.logs) indices.push([logsIndex, logsShapes()]);
    for (const [index, every] of indices) {
      // match_all (the first shape) is every run's baseline.
      const shapes = opts.only ? every.filter((s, i) => i === 0 || opts.only!.includes(s.id)) : every;
      const unknown = opts.only?.filter((id) => !indices.some(([, all]) => all.some((s) => s.id === id)));
      if (unknown && unknown.length > 0) throw new Error(`no shape named ${unknown.join(', ')}`);
      for (const sub of await measureShapes(nodes, index, shapes, opts))
        all.push({ label: sub.label, index, results: sub.results });
    }
    for (const { label, node } of nodes) {
      rss(label, 'afterQueries', node.pid);
      for (const [index] of indices) {
        const r = await post(node.url, `/${index}/_forcemerge?max_num_segments=1`, {});
        if (r.status !== 200)
          console.log(`force merge of ${index} answered ${r.status}: ${r.text.slice(0, 200)}`);
      }
    }
    await new Promise((r) => setTimeout(r, 2000));
    for (const { label, node } of nodes) rss(label, 'afterForceMerge', node.pid);
  } finally {
    await Promise.all(nodes.map((n) => n.node.stop()));
  }

  console.log(
    `\nqueries: ${WORKERS} shard workers, ${SHARDS} shards; ${opts.rounds} round(s) of ${opts.shapeSeconds} s per shape at 10 connections ` +
      `and ${fixed((opts.shapeSeconds * 2) / 3, 1)} s at 1; figures are medians over the rounds; ratio = req/s / match_all req/s of the same node\n`,
  );
  const indexNames = [...new Set(all.map((x) => x.index))];
  for (const index of indexNames) {
    const of = (label: string) => all.find((x) => x.index === index && x.label === label)?.results ?? [];
    if (opts.compare) printPaired(of('before'), of('after'), ['before', 'after']);
    else printResults(of('node'));
    console.log('');
  }
  const raw = loads[`${nodes[0]?.label}:flights`] as { rawBytes: number } | undefined;
  console.log(
    `node resident memory (ps RSS; flights-q raw JSON ${int((raw?.rawBytes ?? 0) / 1048576)} MiB):`,
  );
  for (const [label, m] of Object.entries(memory))
    console.log(
      `  ${label.padEnd(7)} ${Object.entries(m)
        .map(([k, v]) => `${k} ${int(v / 1024)} MiB`)
        .join(', ')}`,
    );
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
  if (all.some((x) => x.results.some((r) => r.error || r.errors > 0))) process.exitCode = 1;
}
