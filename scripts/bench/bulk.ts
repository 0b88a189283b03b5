/**
 * `npm run bench -- bulk`: indexing throughput of one node with small documents.
 *
 * flights-200k is cut into 5,000-document `_bulk` bodies once, up front. The same bytes are
 * POSTed, with `--connections` requests in flight:
 *   baseline: to the bare endpoint (servers/hello.ts `POST /_bulk`, reads the body and drops it),
 *             the median of up to 5 passes over the data;
 *   Shoal:    to a node (2 shard workers) into `flights` with 2 shards, then refreshed and
 *             counted (`_count` must equal the acknowledged documents); once with
 *             `index.translog.durability: request` (the default: the translog is fsynced before
 *             each acknowledgement, one fsync per shard per write batch) and once with `async`.
 * Then the restart (recovery) time of a node holding flights-200k: from the translog only, and
 * from a commit (see recovery.ts).
 * Each side first warms up for `--warmup` seconds (the node into a throw-away index), and each
 * load stops sending new requests after `--duration` seconds. Target: ≥ 50,000 docs/s.
 */

import { withAuth } from '../credentials.ts';
import { bulkLoad, countDocs, deleteIndex, recreateIndex, refreshIndex } from '../load-sample.ts';
import { type BulkBatch, bulkBatches, flights } from '../sample-data/index.ts';
import type { LoadOptions } from './measure.ts';
import { machineBusyUs, processCpuUs } from './measure.ts';
import { type BenchChild, startCeilingServer, startShoalNode } from './processes.ts';
import { measureRecovery, type RecoveryRun } from './recovery.ts';
import { environment, errorMessage, fixed, int, printTable, writeResults } from './report.ts';

const WORKERS = 2;
const SHARDS = 2;
const BATCH = 5000;
const TARGET_DOCS_PER_SEC = 50_000;
const WARMUP_INDEX = 'bench-warmup';
const BASELINE_PASSES = 5;

interface BulkRun {
  docs: number;
  bytes: number;
  requests: number;
  seconds: number;
  docsPerSec: number;
  mibPerSec: number;
  serverCpuUsPerDoc: number;
  serverCores: number;
  /** This process (sending the batches). */
  clientCores: number;
  /** The rest of the machine (other programs). */
  otherCores: number;
  complete: boolean;
}

interface Side {
  label: string;
  run?: BulkRun;
  /** Baseline: how many passes over the data the median was taken from. */
  passes?: number;
  error?: string;
}

/** The batches `times` times over (a bounded warm-up source). */
function* repeat(batches: BulkBatch[], times: number): Generator<BulkBatch> {
  for (let i = 0; i < times; i++) yield* batches;
}

async function timed(
  pid: number,
  load: () => Promise<{ docs: number; bytes: number; batches: number; ms: number; complete: boolean }>,
): Promise<BulkRun> {
  const cpu0 = processCpuUs(pid);
  const machine0 = machineBusyUs();
  const self0 = process.cpuUsage();
  const r = await load();
  const cpuUs = processCpuUs(pid) - cpu0;
  const self = process.cpuUsage(self0);
  const otherUs = machineBusyUs() - machine0 - cpuUs - (self.user + self.system);
  const seconds = r.ms / 1000;
  return {
    docs: r.docs,
    bytes: r.bytes,
    requests: r.batches,
    seconds,
    docsPerSec: r.docs / seconds,
    mibPerSec: r.bytes / 1048576 / seconds,
    serverCpuUsPerDoc: cpuUs / r.docs,
    serverCores: cpuUs / 1e6 / seconds,
    clientCores: (self.user + self.system) / 1e6 / seconds,
    otherCores: Math.max(0, otherUs) / 1e6 / seconds,
    complete: r.complete,
  };
}

/**
 * The Shoal side: a node with a warm-up into a throw-away index, then `batches` into `flights`
 * with `index.translog.durability` as given (`request`: fsync before every acknowledgement,
 * grouped per write batch; `async`: every `index.translog.sync_interval`). Returns `_count`.
 */
async function measureShoal(
  side: Side,
  durability: 'request' | 'async',
  batches: BulkBatch[],
  load: LoadOptions,
): Promise<number | undefined> {
  let node: BenchChild | undefined;
  let count: number | undefined;
  const concurrency = load.connections;
  try {
    console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
    node = await startShoalNode({ workers: WORKERS });
    const { url, pid } = node;
    await recreateIndex(url, flights, SHARDS, WARMUP_INDEX);
    await bulkLoad(url, bulkBatches(flights, BATCH, WARMUP_INDEX), {
      concurrency,
      timeLimitMs: load.warmupS * 1000,
    });
    await deleteIndex(url, WARMUP_INDEX);
    await recreateIndex(url, flights, SHARDS);
    if (durability === 'async') {
      const r = await fetch(new URL(`/${flights.index}/_settings`, url), {
        method: 'PUT',
        headers: withAuth({ 'content-type': 'application/json' }),
        body: JSON.stringify({ 'index.translog.durability': 'async' }),
      });
      if (r.status !== 200) throw new Error(`PUT _settings answered ${r.status}`);
    }
    console.log(`measuring Shoal _bulk (translog durability ${durability}) …`);
    side.run = await timed(pid, () =>
      bulkLoad(url, batches, { concurrency, timeLimitMs: load.durationS * 1000 }),
    );
    await refreshIndex(url, flights.index);
    count = await countDocs(url, flights.index);
    if (count !== side.run.docs) {
      side.error = `_count after refresh is ${count}, but ${side.run.docs} docs were acknowledged`;
    }
  } catch (e) {
    side.error = errorMessage(e);
  } finally {
    await node?.stop();
  }
  return count;
}

function metLabel(s: Side): string {
  if (!s.run || s.error) return 'not measured';
  return s.run.docsPerSec >= TARGET_DOCS_PER_SEC ? 'met' : 'NOT MET';
}

export async function runBulk(load: LoadOptions): Promise<void> {
  const started = Date.now();
  const batches = [...bulkBatches(flights, BATCH)];
  const totalDocs = batches.reduce((n, b) => n + b.docs, 0);
  const totalBytes = batches.reduce((n, b) => n + b.body.length, 0);
  console.log(
    `flights-200k: ${int(totalDocs)} docs in ${batches.length} bulk bodies of ${int(BATCH)} docs ` +
      `(${fixed(totalBytes / 1048576, 1)} MiB, ${int(totalBytes / totalDocs)} bytes/doc)`,
  );
  const concurrency = load.connections;
  const baseline: Side = { label: 'baseline: same bytes to bare endpoint' };
  const shoal: Side = { label: `Shoal node: _bulk into ${SHARDS} shards, translog request` };

  let hello: BenchChild | undefined;
  try {
    hello = await startCeilingServer('hello', { workers: WORKERS, shards: SHARDS });
    const url = new URL('/_bulk', hello.url);
    const send = async (batch: BulkBatch) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: withAuth({ 'content-type': 'application/x-ndjson' }),
        body: batch.body,
      });
      const reply = (await res.json()) as { bytes?: number };
      if (res.status !== 200 || reply.bytes !== batch.body.length) {
        throw new Error(
          `bare endpoint answered ${res.status} ${JSON.stringify(reply)} for ${batch.body.length} bytes`,
        );
      }
    };
    await bulkLoad(hello.url, repeat(batches, 5), { concurrency, timeLimitMs: load.warmupS * 1000, send });
    console.log('measuring the baseline (bare endpoint) …');
    // One pass is short (well under a second), so take the median of a few passes.
    const passes: BulkRun[] = [];
    const deadline = Date.now() + load.durationS * 1000;
    while (passes.length < BASELINE_PASSES && Date.now() < deadline) {
      const left = Math.max(0, deadline - Date.now());
      passes.push(
        await timed(hello.pid, () => bulkLoad(hello!.url, batches, { concurrency, timeLimitMs: left, send })),
      );
    }
    const full = passes.filter((p) => p.complete).sort((x, y) => x.seconds - y.seconds);
    baseline.run = full[Math.floor((full.length - 1) / 2)] ?? passes[0];
    baseline.passes = passes.length;
  } catch (e) {
    baseline.error = errorMessage(e);
  } finally {
    await hello?.stop();
  }

  const shoalAsync: Side = { label: `Shoal node: _bulk into ${SHARDS} shards, translog async` };
  let count: number | undefined;
  try {
    count = await measureShoal(shoal, 'request', batches, load);
    await measureShoal(shoalAsync, 'async', batches, load);
  } catch (e) {
    shoal.error ??= errorMessage(e);
  }
  let recovery: RecoveryRun[] | undefined;
  let recoveryError: string | undefined;
  try {
    console.log('measuring restart (recovery) times …');
    recovery = await measureRecovery(batches, SHARDS);
  } catch (e) {
    recoveryError = errorMessage(e);
  }

  const ratio = shoal.run && baseline.run ? shoal.run.docsPerSec / baseline.run.docsPerSec : undefined;
  const met = shoal.run && !shoal.error ? shoal.run.docsPerSec >= TARGET_DOCS_PER_SEC : undefined;
  console.log(
    `\nbulk: ${concurrency} concurrent _bulk requests of ${int(BATCH)} docs, ${load.warmupS} s warm-up, ` +
      `at most ${load.durationS} s; ${WORKERS} shard workers\n`,
  );
  printTable(
    [
      '',
      'docs',
      'seconds',
      'docs/s',
      'MiB/s',
      'srv CPU µs/doc',
      'srv cores',
      'client cores',
      'other cores',
      'x baseline',
      'target',
      '',
    ],
    [baseline, shoal, shoalAsync].map((s) => {
      const r = s.run;
      const isShoal = s !== baseline;
      return [
        s.label,
        r ? `${int(r.docs)}${r.complete ? '' : ' (cut)'}` : '-',
        fixed(r?.seconds),
        int(r?.docsPerSec),
        fixed(r?.mibPerSec, 1),
        fixed(r?.serverCpuUsPerDoc),
        fixed(r?.serverCores),
        fixed(r?.clientCores),
        fixed(r?.otherCores),
        isShoal ? fixed(r && baseline.run ? r.docsPerSec / baseline.run.docsPerSec : undefined, 3) : '',
        isShoal ? `>= ${int(TARGET_DOCS_PER_SEC)} docs/s` : '',
        isShoal ? metLabel(s) : '',
      ];
    }),
  );
  if (recovery) {
    console.log(`\nrestart (recovery) of flights-200k, ${SHARDS} shards, ${WORKERS} shard workers\n`);
    printTable(
      ['', 'restart ms', 'slowest shard ms', 'replayed ops', 'docs from commit', '_count'],
      recovery.map((r) => [
        r.label,
        int(r.restartMs),
        int(r.slowestShardMs),
        int(r.replayedOps),
        int(r.docsFromCommit),
        int(r.count),
      ]),
    );
  }
  const problems = [baseline, shoal, shoalAsync].filter((s) => s.error);
  if (recoveryError) problems.push({ label: 'recovery', error: recoveryError });
  if (problems.length > 0) {
    console.log('\nproblems:');
    for (const s of problems) console.log(`  ${s.label}: ${s.error}`);
  }
  const file = writeResults('bulk', {
    scenario: 'bulk',
    date: new Date(started).toISOString(),
    environment: environment(),
    options: { ...load, workers: WORKERS, shards: SHARDS, batch: BATCH, concurrency },
    data: { docs: totalDocs, bytes: totalBytes, requests: batches.length },
    baseline,
    shoal: { ...shoal, countAfterRefresh: count },
    shoalAsync,
    recovery,
    ratio,
    target: TARGET_DOCS_PER_SEC,
    met,
  });
  console.log(`\nresults: ${file}`);
  if (problems.length > 0) process.exitCode = 1;
}
