/**
 * `npm run bench -- memory`: what flights-200k costs in memory on one node (2 shard workers,
 * 2 shards), after a full collection in every thread:
 *
 *   empty      the index created, nothing loaded (the baseline subtracted below);
 *   loaded     all 200,000 documents bulk-loaded and refreshed;
 *   merged     after `_forcemerge?max_num_segments=1`;
 *   hot        after searches that load the summary postings and the sort columns;
 *
 * each measured at once and again "settled", after 10 s idle (V8's memory reducer hands unused
 * heap pages back then). The load's transient buffers (bulk bodies, parsed documents) are
 * freed at once but glibc keeps the memory in its arenas, so the whole run is done twice: with
 * glibc's defaults and with the MALLOC_* settings that return it to the OS.
 *
 * Heap (V8, coordinator + workers) and RSS per document above the baseline are printed, and as
 * a ratio to the raw JSON of the data set (vega-datasets' flights-200k.json, and the indexed
 * `_source` bytes, which add the derived `id` and `summary`). Target: ≤ 1.5 after load and after
 * the merge. Segments keep only their `_id` lookup resident; postings, doc values and `_source`
 * stay in the segment files (the OS page cache) until a search makes them hot (see
 * packages/engine/src/store/section-cache.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestNode, type TestNode } from '../../test/support/node-process.ts';
import { bulkLoad, recreateIndex, refreshIndex } from '../load-sample.ts';
import { vegaDataDir } from '../sample-data/dataset.ts';
import { bulkBatches, flightDoc, flightRows, flights } from '../sample-data/index.ts';
import { environment, errorMessage, fixed, int, printTable, writeResults } from './report.ts';

const TARGET_RATIO = 1.5;
/** How long the node idles before a "settled" measurement (V8's memory reducer gives pages back). */
const SETTLE_MS = 10_000;
/** glibc settings that return freed ArrayBuffer memory to the OS instead of keeping it in arenas. */
const TUNED = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '65536' };

interface Stage {
  stage: string;
  m: Memory;
  store: number;
  judged?: boolean;
}

interface Memory {
  rss: number;
  heap_used: number;
  array_buffers: number;
  segment_resident_bytes: number;
  section_cache_bytes: number;
}

// biome-ignore lint/suspicious/noExplicitAny: reads arbitrary response shapes
async function json(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function memory(url: string): Promise<Memory> {
  // Twice: the first collection frees what finalizers release for the second.
  await json(url, 'GET', '/_internal/memory');
  return json(url, 'GET', '/_internal/memory');
}

async function measurePass(env: Record<string, string>): Promise<Stage[]> {
  let node: TestNode | undefined;
  const stages: Stage[] = [];
  const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
  try {
    node = await startTestNode({ workers: 2, env: { SHOAL_MEMORY_REPORT: '1', ...env } });
    const url = node.url;
    const store = async () =>
      (await json(url, 'GET', '/flights/_stats/store')).indices.flights.primaries.store
        .size_in_bytes as number;
    await recreateIndex(url, flights, 2);
    await settle();
    stages.push({ stage: 'empty', m: await memory(url), store: await store() });
    console.log('loading flights-200k …');
    await bulkLoad(url, bulkBatches(flights, 5000), { concurrency: 4 });
    await refreshIndex(url, flights.index);
    stages.push({ stage: 'loaded', m: await memory(url), store: await store() });
    await settle();
    stages.push({ stage: 'loaded, settled', m: await memory(url), store: await store(), judged: true });
    console.log('force merging …');
    await json(url, 'POST', '/flights/_forcemerge?max_num_segments=1');
    stages.push({ stage: 'merged', m: await memory(url), store: await store() });
    await settle();
    stages.push({ stage: 'merged, settled', m: await memory(url), store: await store(), judged: true });
    const searches = [
      { query: { match: { summary: 'late evening' } } },
      { query: { range: { delay: { gte: 60 } } }, sort: [{ distance: 'desc' }] },
      { query: { match_all: {} }, sort: [{ time: 'asc' }], size: 20 },
    ];
    try {
      for (const s of searches) await json(url, 'POST', '/flights/_search', s);
      await settle();
      stages.push({ stage: 'hot (searched), settled', m: await memory(url), store: await store() });
    } catch (e) {
      console.log(
        `the searches of the "hot" stage failed, so it is left out: ${errorMessage(e).slice(0, 200)}`,
      );
    }
  } finally {
    await node?.stop();
  }
  return stages;
}

function printStages(stages: Stage[], docs: number, fileBytes: number, sourceBytes: number): void {
  const base = stages[0]!.m;
  const per = (v: number, b: number) => (v - b) / docs;
  console.log(
    `memory above the empty node, per document (${int(docs)} docs), after a full GC in every thread`,
  );
  printTable(
    [
      'stage',
      'RSS MiB',
      'heap MiB',
      'RSS B/doc',
      'heap B/doc',
      'RSS/raw file',
      'heap/raw file',
      'RSS/_source',
      'resident segs MiB',
      'section cache MiB',
      'store MiB',
      'target',
    ],
    stages.map(({ stage, m, store, judged }) => {
      const rss = per(m.rss, base.rss);
      const heap = per(m.heap_used, base.heap_used);
      const met = Math.max(rss, heap) / (fileBytes / docs) <= TARGET_RATIO;
      const first = stage === 'empty';
      return [
        stage,
        fixed(m.rss / 1048576, 1),
        fixed(m.heap_used / 1048576, 1),
        first ? '' : fixed(rss, 1),
        first ? '' : fixed(heap, 1),
        first ? '' : fixed(rss / (fileBytes / docs), 2),
        first ? '' : fixed(heap / (fileBytes / docs), 2),
        first ? '' : fixed(rss / (sourceBytes / docs), 2),
        fixed(m.segment_resident_bytes / 1048576, 2),
        fixed(m.section_cache_bytes / 1048576, 2),
        fixed(store / 1048576, 1),
        judged ? `<= ${TARGET_RATIO} ${met ? 'met' : 'NOT MET'}` : '',
      ];
    }),
  );
}

export async function runMemory(): Promise<void> {
  const started = Date.now();
  const rows = flightRows();
  const docs = rows.length;
  const fileBytes = statSync(join(vegaDataDir(), 'flights-200k.json')).size;
  let sourceBytes = 0;
  rows.forEach((r, i) => {
    sourceBytes += Buffer.byteLength(JSON.stringify(flightDoc(r, i)));
  });
  console.log(
    `flights-200k: ${int(docs)} docs; raw JSON file ${fixed(fileBytes / 1048576, 1)} MiB ` +
      `(${fixed(fileBytes / docs, 1)} B/doc), indexed _source ${fixed(sourceBytes / 1048576, 1)} MiB ` +
      `(${fixed(sourceBytes / docs, 1)} B/doc)`,
  );
  const passes: { label: string; env: Record<string, string>; stages: Stage[] }[] = [
    { label: 'glibc malloc defaults', env: {}, stages: [] },
    {
      label: 'MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=65536',
      env: TUNED,
      stages: [],
    },
  ];
  for (const pass of passes) {
    console.log(`\npass: ${pass.label}`);
    pass.stages = await measurePass(pass.env);
    printStages(pass.stages, docs, fileBytes, sourceBytes);
  }
  const file = writeResults('memory', {
    scenario: 'memory',
    date: new Date(started).toISOString(),
    environment: environment(),
    data: { docs, fileBytes, sourceBytes },
    passes,
    target: TARGET_RATIO,
  });
  console.log(`\nresults: ${file}`);
}
