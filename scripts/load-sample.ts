/**
 * Loads vega-datasets' sample data into a Shoal (or Elasticsearch) node:
 *
 *   npm run load-sample -- [--url http://127.0.0.1:9200] [--dataset flights|movies|all]
 *                          [--shards N] [--batch 5000] [--concurrency 2]
 *
 * (Re)creates each index (`flights`, `movies`) with explicit mappings, bulk-loads it with a
 * progress bar, stops at the first failed bulk item (printing it), refreshes, and prints the
 * totals. `loadDataset` is exported for the benchmarks.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { withAuth } from './credentials.ts';
import {
  allDatasets,
  type BulkBatch,
  bulkBatches,
  createIndexBody,
  datasets,
  isDatasetName,
  type SampleDataset,
} from './sample-data/index.ts';

/** A failed HTTP call or a failed bulk item. */
export class LoadError extends Error {}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; text: string }> {
  const init: RequestInit = { method, headers: withAuth() };
  if (body !== undefined) {
    init.headers = withAuth({ 'content-type': 'application/json' });
    init.body = JSON.stringify(body);
  }
  const res = await fetch(new URL(path, url), init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** Deletes the index if it exists. */
export async function deleteIndex(url: string, index: string): Promise<void> {
  const del = await call(url, 'DELETE', `/${encodeURIComponent(index)}`);
  if (del.status !== 200 && del.status !== 404) {
    throw new LoadError(`DELETE /${index} answered ${del.status}: ${del.text}`);
  }
}

/** Deletes the index if it exists and creates it with the data set's mappings. */
export async function recreateIndex(
  url: string,
  dataset: SampleDataset,
  shards: number,
  index = dataset.index,
) {
  await deleteIndex(url, index);
  const put = await call(url, 'PUT', `/${encodeURIComponent(index)}`, createIndexBody(dataset, shards));
  if (put.status !== 200) throw new LoadError(`PUT /${index} answered ${put.status}: ${put.text}`);
}

export async function refreshIndex(url: string, index: string): Promise<void> {
  const r = await call(url, 'POST', `/${encodeURIComponent(index)}/_refresh`);
  if (r.status !== 200) throw new LoadError(`POST /${index}/_refresh answered ${r.status}: ${r.text}`);
}

/** The index's document count (`_count`). */
export async function countDocs(url: string, index: string): Promise<number> {
  const r = await call(url, 'POST', `/${encodeURIComponent(index)}/_count`, { query: { match_all: {} } });
  const count = (r.json as { count?: unknown } | undefined)?.count;
  if (r.status !== 200 || typeof count !== 'number') {
    throw new LoadError(`POST /${index}/_count answered ${r.status}: ${r.text}`);
  }
  return count;
}

interface BulkItemResult {
  _index?: string;
  _id?: string;
  status?: number;
  error?: unknown;
}

/** Sends one `_bulk` body; throws a LoadError naming the first failed item. */
export async function sendBulk(url: string, batch: BulkBatch, path = '/_bulk'): Promise<void> {
  const res = await fetch(new URL(path, url), {
    method: 'POST',
    headers: withAuth({ 'content-type': 'application/x-ndjson' }),
    body: batch.body,
  });
  const text = await res.text();
  if (res.status !== 200) {
    throw new LoadError(`POST ${path} (batch from _id ${batch.firstId}) answered ${res.status}: ${text}`);
  }
  let reply: { errors?: boolean; items?: Record<string, BulkItemResult>[] };
  try {
    reply = JSON.parse(text);
  } catch {
    throw new LoadError(`POST ${path} answered 200 with a body that is not JSON: ${text.slice(0, 500)}`);
  }
  if (!Array.isArray(reply.items) || reply.items.length !== batch.docs) {
    throw new LoadError(
      `POST ${path} (batch from _id ${batch.firstId}) answered ${reply.items?.length ?? 'no'} items for ${batch.docs} documents`,
    );
  }
  if (reply.errors !== false) {
    const failed = reply.items.findIndex((it) => {
      const r = Object.values(it)[0];
      return r === undefined || r.error !== undefined || (r.status ?? 0) >= 300;
    });
    const item = reply.items[failed === -1 ? 0 : failed];
    throw new LoadError(
      `bulk item ${failed} of the batch from _id ${batch.firstId} failed: ${JSON.stringify(item, null, 2)}`,
    );
  }
}

export interface BulkLoadOptions {
  /** Concurrent `_bulk` requests. */
  concurrency?: number;
  /** Stop sending new batches after this many ms (in-flight ones complete). */
  timeLimitMs?: number;
  /** Called after each acknowledged batch. */
  onBatch?: (docs: number, bytes: number) => void;
  /** Sends one batch (default: `POST /_bulk` with the checks of `sendBulk`). */
  send?: (batch: BulkBatch) => Promise<void>;
}

export interface BulkLoadResult {
  docs: number;
  bytes: number;
  batches: number;
  ms: number;
  /** False when the time limit cut the load short. */
  complete: boolean;
}

/**
 * POSTs the batches with `concurrency` requests in flight and stops at the first error (the
 * requests already in flight are awaited, then the error is thrown).
 */
export async function bulkLoad(
  url: string,
  batches: Iterable<BulkBatch>,
  opts: BulkLoadOptions = {},
): Promise<BulkLoadResult> {
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const it = batches[Symbol.iterator]();
  const start = process.hrtime.bigint();
  const elapsedMs = () => Number(process.hrtime.bigint() - start) / 1e6;
  let docs = 0;
  let bytes = 0;
  let count = 0;
  let failure: unknown;
  let exhausted = false;
  let timedOut = false;
  const lane = async () => {
    while (failure === undefined) {
      if (opts.timeLimitMs !== undefined && elapsedMs() >= opts.timeLimitMs) {
        timedOut = true;
        return;
      }
      const next = it.next();
      if (next.done) {
        exhausted = true;
        return;
      }
      try {
        await (opts.send ? opts.send(next.value) : sendBulk(url, next.value));
      } catch (e) {
        failure ??= e;
        return;
      }
      docs += next.value.docs;
      bytes += next.value.body.length;
      count++;
      opts.onBatch?.(next.value.docs, next.value.body.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  if (failure !== undefined) throw failure;
  return { docs, bytes, batches: count, ms: elapsedMs(), complete: exhausted && !timedOut };
}

export interface LoadDatasetOptions {
  url: string;
  dataset: SampleDataset;
  shards?: number;
  batch?: number;
  concurrency?: number;
  /** Show a cli-progress bar (on a terminal). */
  progress?: boolean;
  /** Load into this index instead of the data set's own. */
  index?: string;
}

export interface LoadDatasetResult extends BulkLoadResult {
  index: string;
  /** `_count` after the refresh. */
  count: number;
}

/** (Re)creates the data set's index, bulk-loads it, refreshes it and counts it. */
export async function loadDataset(opts: LoadDatasetOptions): Promise<LoadDatasetResult> {
  const { url, dataset } = opts;
  const index = opts.index ?? dataset.index;
  await recreateIndex(url, dataset, opts.shards ?? 1, index);
  const total = dataset.count();
  let bar: cliProgress.SingleBar | undefined;
  if (opts.progress) {
    bar = new cliProgress.SingleBar(
      {
        format: `${index.padEnd(8)} {bar} {percentage}% | {value}/{total} docs | {rate} docs/s | {duration_formatted}`,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { rate: '0' });
  }
  const start = process.hrtime.bigint();
  let done = 0;
  let result: BulkLoadResult;
  try {
    result = await bulkLoad(url, bulkBatches(dataset, opts.batch ?? 5000, index), {
      concurrency: opts.concurrency,
      onBatch: (docs) => {
        done += docs;
        const s = Number(process.hrtime.bigint() - start) / 1e9;
        bar?.update(done, { rate: Math.round(done / s).toLocaleString('en-US') });
      },
    });
  } finally {
    bar?.stop();
  }
  await refreshIndex(url, index);
  const count = await countDocs(url, index);
  return { ...result, index, count };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

const USAGE =
  'usage: npm run load-sample -- [--url http://127.0.0.1:9200] [--dataset flights|movies|all] ' +
  '[--shards 1] [--batch 5000] [--concurrency 2]';

function args() {
  try {
    return parseArgs({
      options: {
        url: { type: 'string', default: 'http://127.0.0.1:9200' },
        dataset: { type: 'string', default: 'all' },
        shards: { type: 'string', default: '1' },
        batch: { type: 'string', default: '5000' },
        concurrency: { type: 'string', default: '2' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    throw new LoadError(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const values = args();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const name = values.dataset!;
  if (name !== 'all' && !isDatasetName(name)) throw new LoadError(`--dataset must be flights, movies or all`);
  const selected = name === 'all' ? allDatasets() : [datasets[name]];
  const shards = Number(values.shards);
  const batch = Number(values.batch);
  const concurrency = Number(values.concurrency);
  for (const [flag, v] of [
    ['--shards', shards],
    ['--batch', batch],
    ['--concurrency', concurrency],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new LoadError(`${flag} must be a positive integer`);
  }
  const url = values.url!;
  for (const dataset of selected) {
    const r = await loadDataset({ url, dataset, shards, batch, concurrency, progress: true });
    console.log(
      `${r.index}: ${fmt(r.docs)} docs (${(r.bytes / 1048576).toFixed(1)} MiB, ${r.batches} bulk requests) ` +
        `in ${(r.ms / 1000).toFixed(2)} s = ${fmt((r.docs / r.ms) * 1000)} docs/s; ` +
        `after refresh _count = ${fmt(r.count)}${r.count === r.docs ? '' : ` (expected ${fmt(r.docs)}!)`}`,
    );
    if (r.count !== r.docs) process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e instanceof LoadError ? `load-sample: ${e.message}` : e);
    process.exit(1);
  });
}
