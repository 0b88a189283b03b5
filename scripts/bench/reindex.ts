/**
 * `npm run bench -- reindex`: how fast `_reindex` copies flights-200k into an index with another
 * mapping, as a ratio to the `_bulk` rate of the same documents measured in the same round on
 * the same node (this machine's speed swings; a round's two figures are seconds apart).
 *
 * Each round: `_bulk` flights-200k into a fresh source index (`--connections` requests in
 * flight, 5,000 documents each) → the baseline docs/s; then `_reindex` it (batches of 1,000)
 * into a new index whose mapping differs (text fields as keywords, no date detection), once
 * with `slices: 1` and once with `slices: auto` (one slice per source shard), each checked by
 * `_count`. The ratio of a round is reindex docs/s ÷ bulk docs/s; the figure is the median over
 * rounds. Target: ≥ 0.6.
 */
import { withAuth } from '../credentials.ts';
import { bulkLoad, countDocs, deleteIndex, recreateIndex, refreshIndex } from '../load-sample.ts';
import { bulkBatches, flights } from '../sample-data/index.ts';
import type { LoadOptions } from './measure.ts';
import { type BenchChild, startShoalNode } from './processes.ts';
import { environment, errorMessage, fixed, int, printTable, writeResults } from './report.ts';

const WORKERS = 2;
const SHARDS = 2;
const BATCH = 5000;
const ROUNDS = 3;
const TARGET = 0.6;

interface ReindexAnswer {
  created?: number;
  failures?: unknown[];
}

interface Round {
  bulkDocsPerSec: number;
  sliced1DocsPerSec: number;
  slicedAutoDocsPerSec: number;
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: ReindexAnswer }> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: withAuth(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as ReindexAnswer) : {} };
}

/** The destination: the same fields, every text field a keyword, two shards. */
function destMapping(): Record<string, unknown> {
  const props = (flights.mappings as { properties: Record<string, { type: string }> }).properties;
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(props))
    out[name] = def.type === 'text' ? { type: 'keyword' } : def;
  return { dynamic: false, date_detection: false, properties: out };
}

async function reindexRate(url: string, dest: string, slices: string, expected: number): Promise<number> {
  await deleteIndex(url, dest);
  const put = await call(url, 'PUT', `/${dest}`, {
    settings: { number_of_shards: SHARDS },
    mappings: destMapping(),
  });
  if (put.status !== 200) throw new Error(`PUT /${dest} answered ${put.status}`);
  const started = process.hrtime.bigint();
  const r = await call(url, 'POST', `/_reindex?slices=${slices}`, {
    source: { index: flights.index, size: 1000 },
    dest: { index: dest },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 200 || r.json.created !== expected) {
    throw new Error(
      `_reindex (slices ${slices}) answered ${r.status}: created ${r.json?.created}, failures ${JSON.stringify(r.json?.failures?.slice(0, 1))}`,
    );
  }
  await refreshIndex(url, dest);
  const count = await countDocs(url, dest);
  if (count !== expected) throw new Error(`${dest} holds ${count} documents after _reindex, not ${expected}`);
  await deleteIndex(url, dest);
  return expected / seconds;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function runReindex(load: LoadOptions): Promise<void> {
  const batches = [...bulkBatches(flights, BATCH)];
  const total = batches.reduce((n, b) => n + b.docs, 0);
  let node: BenchChild | undefined;
  const rounds: Round[] = [];
  let error: string | undefined;
  try {
    console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
    node = await startShoalNode({ workers: WORKERS });
    const { url } = node;
    for (let round = 1; round <= ROUNDS; round++) {
      await recreateIndex(url, flights, SHARDS);
      const bulk = await bulkLoad(url, batches, { concurrency: load.connections });
      await refreshIndex(url, flights.index);
      const count = await countDocs(url, flights.index);
      if (count !== total) throw new Error(`the source holds ${count} documents, not ${total}`);
      const r: Round = {
        bulkDocsPerSec: bulk.docs / (bulk.ms / 1000),
        sliced1DocsPerSec: await reindexRate(url, 'flights-copy', '1', total),
        slicedAutoDocsPerSec: await reindexRate(url, 'flights-copy', 'auto', total),
      };
      rounds.push(r);
      console.log(
        `round ${round}: bulk ${int(r.bulkDocsPerSec)} docs/s, reindex slices=1 ${int(r.sliced1DocsPerSec)}, slices=auto ${int(r.slicedAutoDocsPerSec)}`,
      );
    }
  } catch (e) {
    error = errorMessage(e);
  } finally {
    await node?.stop();
  }
  const ratio1 = rounds.length
    ? median(rounds.map((r) => r.sliced1DocsPerSec / r.bulkDocsPerSec))
    : undefined;
  const ratioAuto = rounds.length
    ? median(rounds.map((r) => r.slicedAutoDocsPerSec / r.bulkDocsPerSec))
    : undefined;
  const met = (x: number | undefined) => (x === undefined ? 'not measured' : x >= TARGET ? 'met' : 'NOT MET');
  console.log('');
  printTable(
    ['', 'docs/s (median)', 'x bulk (median of rounds)', `target ≥ ${TARGET}`],
    [
      ['_bulk flights-200k (baseline)', int(median(rounds.map((r) => r.bulkDocsPerSec))), '1.00', ''],
      ['_reindex slices=1', int(median(rounds.map((r) => r.sliced1DocsPerSec))), fixed(ratio1), met(ratio1)],
      [
        '_reindex slices=auto',
        int(median(rounds.map((r) => r.slicedAutoDocsPerSec))),
        fixed(ratioAuto),
        met(ratioAuto),
      ],
    ],
  );
  if (error) console.log(`error: ${error}`);
  const file = writeResults('reindex', { environment: environment(), rounds, ratio1, ratioAuto, error });
  console.log(`results written to ${file}`);
  if (error) process.exitCode = 1;
}
