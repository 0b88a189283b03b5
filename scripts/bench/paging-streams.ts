/**
 * Part of `npm run bench -- paging`: a PIT walk over a data stream of three backing indices, as
 * a ratio to the same walk over the same documents in one index, on the same node (target ≥
 * 0.8).
 *
 * flights-200k, each document given an `@timestamp` (2026-01-01 plus its row number in
 * seconds), is loaded twice: into one index of 2 shards, and into a data stream whose template
 * gives its backing indices 2 shards, rolled over after each third of the documents. Each walk
 * opens a PIT and pages it with `search_after` (size 1000, `_shard_doc` order, no total), and
 * must return all 200,000 documents once. The two walks run in 5 interleaved rounds; each
 * figure is the median of its rounds.
 */
import { withAuth } from '../credentials.ts';
import { bulkLoad, refreshIndex } from '../load-sample.ts';
import { flightsMappings } from '../sample-data/flights.ts';
import { type BulkBatch, flightDoc, flightRows } from '../sample-data/index.ts';
import { int } from './report.ts';

const SHARDS = 2;
const PAGE = 1000;
const ROUNDS = 5;
const BATCH = 5000;
const START = Date.UTC(2026, 0, 1);
export const STREAM_TARGET = 0.8;

// biome-ignore lint/suspicious/noExplicitAny: the benchmark reads arbitrary response shapes
type Json = Record<string, any>;

async function call(url: string, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: withAuth(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Json;
}

/** flights-200k with `@timestamp`, as `create` bulk bodies into `target`, in thirds. */
function thirds(target: string): BulkBatch[][] {
  const rows = flightRows();
  const batches: BulkBatch[] = [];
  for (let start = 0; start < rows.length; start += BATCH) {
    const lines: string[] = [];
    const end = Math.min(rows.length, start + BATCH);
    for (let i = start; i < end; i++) {
      const doc = { ...flightDoc(rows[i]!, i), '@timestamp': new Date(START + i * 1000).toISOString() };
      lines.push(`{"create":{"_index":"${target}","_id":"${i}"}}`, JSON.stringify(doc));
    }
    batches.push({ body: Buffer.from(`${lines.join('\n')}\n`), docs: end - start, firstId: String(start) });
  }
  const third = Math.ceil(batches.length / 3);
  return [batches.slice(0, third), batches.slice(third, 2 * third), batches.slice(2 * third)];
}

/** Pages a PIT over `target` to its end; returns docs/s, checking every document came once. */
async function walk(url: string, target: string, expected: number): Promise<number> {
  const started = process.hrtime.bigint();
  const pit = await call(url, 'POST', `/${target}/_pit?keep_alive=1m`);
  const seen = new Set<string>();
  let after: unknown[] | undefined;
  for (;;) {
    const body: Json = {
      pit: { id: pit.id, keep_alive: '1m' },
      size: PAGE,
      sort: ['_shard_doc'],
      track_total_hits: false,
      _source: false,
    };
    if (after) body.search_after = after;
    const page = await call(url, 'POST', '/_search', body);
    const hits = page.hits.hits as { _id: string; sort: unknown[] }[];
    if (hits.length === 0) break;
    for (const h of hits) seen.add(h._id);
    after = hits[hits.length - 1]!.sort;
  }
  await call(url, 'DELETE', '/_pit', { id: pit.id });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (seen.size !== expected)
    throw new Error(`the PIT walk over ${target} returned ${seen.size} documents, not ${expected}`);
  return expected / seconds;
}

export interface StreamWalk {
  indexDocsPerSec: number;
  streamDocsPerSec: number;
  ratio: number;
  rounds: { index: number; stream: number }[];
}

export async function measureStreamWalk(url: string): Promise<StreamWalk> {
  const total = flightRows().length;
  const mappings = { properties: { ...flightsMappings.properties, '@timestamp': { type: 'date' } } };
  console.log(
    'loading flights-200k with @timestamp into one index and into a data stream of three backing indices …',
  );
  await call(url, 'PUT', '/flights-ts', {
    settings: { number_of_shards: SHARDS, number_of_replicas: 0 },
    mappings,
  });
  for (const part of thirds('flights-ts')) await bulkLoad(url, part, { concurrency: 2 });
  await refreshIndex(url, 'flights-ts');
  await call(url, 'PUT', '/_index_template/bench-flights-stream', {
    index_patterns: ['flights-stream*'],
    data_stream: {},
    priority: 1000,
    template: { settings: { number_of_shards: SHARDS, number_of_replicas: 0 }, mappings },
  });
  const parts = thirds('flights-stream');
  for (const [i, part] of parts.entries()) {
    await bulkLoad(url, part, { concurrency: 2 });
    if (i < parts.length - 1) await call(url, 'POST', '/flights-stream/_rollover');
  }
  await refreshIndex(url, 'flights-stream');
  const rounds: { index: number; stream: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const index = await walk(url, 'flights-ts', total);
    const stream = await walk(url, 'flights-stream', total);
    rounds.push({ index, stream });
    console.log(
      `round ${r + 1}: PIT walk, one index ${int(index)} docs/s, data stream ${int(stream)} docs/s`,
    );
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    indexDocsPerSec: med(rounds.map((x) => x.index)),
    streamDocsPerSec: med(rounds.map((x) => x.stream)),
    ratio: med(rounds.map((x) => x.stream / x.index)),
    rounds,
  };
}
