/**
 * `npm run bench -- transforms`: how fast a batch pivot transform turns flights-200k into its
 * destination, as a ratio to a walk of the same composite aggregation (the same sources and
 * aggregations, pages of 500) that only reads the buckets, measured in the same round on the
 * same node. The transform does the walk and writes every bucket as a document; the ratio is
 * the share of the walk's speed it keeps. Each round checks the destination holds one document
 * per bucket; the figure is the median over rounds. Target: ≥ 0.5.
 */
import { withAuth } from '../credentials.ts';
import { bulkLoad, countDocs, deleteIndex, recreateIndex, refreshIndex } from '../load-sample.ts';
import { bulkBatches, flights } from '../sample-data/index.ts';
import type { LoadOptions } from './measure.ts';
import { type BenchChild, startShoalNode } from './processes.ts';
import { environment, errorMessage, fixed, int, printTable, writeResults } from './report.ts';

const WORKERS = 2;
const SHARDS = 2;
const ROUNDS = 3;
const PAGE = 500;
const TARGET = 0.5;

const GROUP_BY = {
  distance: { histogram: { field: 'distance', interval: 25 } },
  delay: { histogram: { field: 'delay', interval: 15 } },
};
const AGGS = { avg_time: { avg: { field: 'time' } }, flights: { value_count: { field: 'id' } } };

interface Round {
  buckets: number;
  walkBucketsPerSec: number;
  transformBucketsPerSec: number;
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: the node's own answers, read by known shape
): Promise<{ status: number; json: any }> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: withAuth(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : {} };
}

/** Reads every page of the composite aggregation; returns the bucket count and the seconds. */
async function walk(url: string): Promise<{ buckets: number; seconds: number }> {
  const started = process.hrtime.bigint();
  let after: unknown;
  let buckets = 0;
  for (;;) {
    const composite: Record<string, unknown> = {
      size: PAGE,
      sources: Object.entries(GROUP_BY).map(([k, v]) => ({ [k]: v })),
    };
    if (after !== undefined) composite.after = after;
    const r = await call(url, 'POST', `/${flights.index}/_search`, {
      size: 0,
      aggregations: { walk: { composite, aggregations: AGGS } },
    });
    if (r.status !== 200)
      throw new Error(`composite page answered ${r.status}: ${JSON.stringify(r.json).slice(0, 200)}`);
    const page = r.json.aggregations.walk;
    if (page.buckets.length === 0) break;
    buckets += page.buckets.length;
    after = page.after_key;
  }
  return { buckets, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function transform(url: string, expected: number): Promise<number> {
  const id = 'bench-pivot';
  const dest = 'flights-pivot';
  await call(url, 'DELETE', `/_transform/${id}?force=true`);
  await deleteIndex(url, dest);
  const put = await call(url, 'PUT', `/_transform/${id}`, {
    source: { index: flights.index },
    dest: { index: dest },
    pivot: { group_by: GROUP_BY, aggregations: AGGS },
    settings: { max_page_search_size: PAGE },
  });
  if (put.status !== 200)
    throw new Error(`PUT /_transform answered ${put.status}: ${JSON.stringify(put.json)}`);
  const started = process.hrtime.bigint();
  const start = await call(url, 'POST', `/_transform/${id}/_start`);
  if (start.status !== 200) throw new Error(`_start answered ${start.status}: ${JSON.stringify(start.json)}`);
  for (;;) {
    const s = await call(url, 'GET', `/_transform/${id}/_stats`);
    const t = s.json.transforms[0];
    if (t.state === 'failed') throw new Error(`the transform failed: ${t.reason}`);
    if (t.state === 'stopped' && t.checkpointing.last.checkpoint === 1) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await refreshIndex(url, dest);
  const count = await countDocs(url, dest);
  if (count !== expected)
    throw new Error(`${dest} holds ${count} documents, not one per bucket (${expected})`);
  await call(url, 'DELETE', `/_transform/${id}?delete_dest_index=true`);
  return expected / seconds;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function runTransforms(load: LoadOptions): Promise<void> {
  const batches = [...bulkBatches(flights, 5000)];
  let node: BenchChild | undefined;
  const rounds: Round[] = [];
  let error: string | undefined;
  try {
    console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
    node = await startShoalNode({ workers: WORKERS });
    const { url } = node;
    await recreateIndex(url, flights, SHARDS);
    await bulkLoad(url, batches, { concurrency: load.connections });
    await refreshIndex(url, flights.index);
    for (let round = 1; round <= ROUNDS; round++) {
      const w = await walk(url);
      const r: Round = {
        buckets: w.buckets,
        walkBucketsPerSec: w.buckets / w.seconds,
        transformBucketsPerSec: await transform(url, w.buckets),
      };
      rounds.push(r);
      console.log(
        `round ${round}: ${r.buckets} buckets; composite walk ${int(r.walkBucketsPerSec)} buckets/s, transform ${int(r.transformBucketsPerSec)} buckets/s`,
      );
    }
  } catch (e) {
    error = errorMessage(e);
  } finally {
    await node?.stop();
  }
  const ratio = rounds.length
    ? median(rounds.map((r) => r.transformBucketsPerSec / r.walkBucketsPerSec))
    : undefined;
  console.log('');
  printTable(
    ['', 'buckets/s (median)', 'x walk (median of rounds)', `target ≥ ${TARGET}`],
    [
      ['composite walk (baseline)', int(median(rounds.map((r) => r.walkBucketsPerSec))), '1.00', ''],
      [
        'batch pivot transform',
        int(median(rounds.map((r) => r.transformBucketsPerSec))),
        fixed(ratio),
        ratio === undefined ? 'not measured' : ratio >= TARGET ? 'met' : 'NOT MET',
      ],
    ],
  );
  if (error) console.log(`error: ${error}`);
  const file = writeResults('transforms', { environment: environment(), rounds, ratio, error });
  console.log(`results written to ${file}`);
  if (error) process.exitCode = 1;
}
