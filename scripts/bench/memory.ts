/**
 * `npm run bench -- memory`: what flights-200k costs in memory on one node (2 shard workers,
 * 2 shards), after a full collection in every thread:
 *
 *   empty, cold   the `flights` index created, nothing loaded, on a node that has not indexed,
 *                 merged or searched anything yet;
 *   empty, warm   the same node after a warm-up: a scratch index of WARMUP_DOCS flights
 *                 documents (2 shards) bulk-loaded, refreshed, force-merged to one segment,
 *                 searched with the searches of the "hot" stage, then deleted;
 *   loaded        all 200,000 documents bulk-loaded and refreshed;
 *   merged        after `_forcemerge?max_num_segments=1`;
 *   hot           after searches that load the summary postings and the sort columns;
 *
 * each measured at once and again "settled", after 20 s idle (V8's memory reducer hands unused
 * heap pages back then). The baselines are settled measurements too: a baseline taken while a
 * worker still holds the young generation it grew during the warm-up would hide that much of
 * what the load costs. The "V8 committed" column shows each stage's committed heap, so an
 * unsettled one is visible. The load's transient buffers (bulk bodies, parsed documents) are
 * freed at once but glibc keeps the memory in its arenas, so the whole run is done twice: with
 * glibc's defaults and with the MALLOC_* settings that return it to the OS (those `npm run
 * cluster` sets).
 *
 * What is subtracted: the per-document figures (and the target verdict) are above the WARM
 * baseline. The cold node has never compiled the indexing, merge and search code: the first
 * documents it indexes pay for V8's JIT code and compiler metadata, the allocator arenas the
 * compiler's zones and the first GCs grow, the worker pools and caches warmed once. Those are
 * fixed costs of a node that has indexed anything at all, not costs of 200,000 documents; the
 * warm-up pays them on a scratch index that is deleted before the baseline is taken, so the
 * warm baseline holds no data (the scratch index's files, segments and cache entries are gone
 * with it). Both baselines are measured in the same process and printed, and every row also
 * shows RSS per document above the cold baseline, so what the warm-up moved is visible.
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
import { basicAuth, TEST_AUTH } from '../../test/support/http.ts';
import { startTestNode, type TestNode } from '../../test/support/node-process.ts';
import { bulkLoad, deleteIndex, recreateIndex, refreshIndex } from '../load-sample.ts';
import { vegaDataDir } from '../sample-data/dataset.ts';
import { bulkBatches, flightDoc, flightRows, flights } from '../sample-data/index.ts';
import { environment, errorMessage, fixed, int, printTable, writeResults } from './report.ts';

const TARGET_RATIO = 1.5;
/**
 * How long the node idles before a "settled" measurement. V8's memory reducer runs its first
 * memory-reducing GC 8 s after the last full GC once the thread is idle, and may take more than
 * one round to shrink the young generation; a measurement's own forced GCs (which never shrink
 * it) restart that clock, so nothing polls in between.
 */
const SETTLE_MS = 20_000;
/** glibc settings that return freed ArrayBuffer memory to the OS instead of keeping it in arenas. */
const TUNED = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '65536' };
/** Documents of the scratch index that warms the node up before the baseline. */
const WARMUP_DOCS = 10_000;
const WARMUP_INDEX = 'memory-warmup';
/** Searches that load the summary postings and the sort columns (the warm-up runs them too). */
const SEARCHES = [
  { query: { match: { summary: 'late evening' } } },
  { query: { range: { delay: { gte: 60 } } }, sort: [{ distance: 'desc' }] },
  { query: { match_all: {} }, sort: [{ time: 'asc' }], size: 20 },
];

interface Stage {
  stage: string;
  m: Memory;
  store: number;
  judged?: boolean;
  /** A baseline: the cold one, or the warm one the figures are taken above. */
  baseline?: 'cold' | 'warm';
}

interface Memory {
  rss: number;
  rss_anon?: number;
  heap_total: number;
  heap_used: number;
  array_buffers: number;
  segment_resident_bytes: number;
  section_cache_bytes: number;
}

// biome-ignore lint/suspicious/noExplicitAny: reads arbitrary response shapes
async function json(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: {
      authorization: basicAuth(TEST_AUTH.username, TEST_AUTH.password),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
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

/**
 * Pays the node's fixed costs on a scratch index: WARMUP_DOCS documents loaded, refreshed,
 * force-merged, searched, and the index deleted.
 */
async function warmUp(url: string): Promise<void> {
  await recreateIndex(url, flights, 2, WARMUP_INDEX);
  const batches = function* () {
    let docs = 0;
    for (const b of bulkBatches(flights, 5000, WARMUP_INDEX)) {
      if (docs >= WARMUP_DOCS) return;
      docs += b.docs;
      yield b;
    }
  };
  await bulkLoad(url, batches(), { concurrency: 4 });
  await refreshIndex(url, WARMUP_INDEX);
  await json(url, 'POST', `/${WARMUP_INDEX}/_forcemerge?max_num_segments=1`);
  try {
    for (const s of SEARCHES) await json(url, 'POST', `/${WARMUP_INDEX}/_search`, s);
  } catch (e) {
    console.log(`the warm-up searches failed (the search code stays cold): ${errorMessage(e).slice(0, 200)}`);
  }
  await deleteIndex(url, WARMUP_INDEX);
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
    stages.push({ stage: 'empty, cold', m: await memory(url), store: await store(), baseline: 'cold' });
    await warmUp(url);
    await settle();
    stages.push({ stage: 'empty, warm', m: await memory(url), store: await store(), baseline: 'warm' });
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
    try {
      for (const s of SEARCHES) await json(url, 'POST', '/flights/_search', s);
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

interface Verdict {
  stage: string;
  rssRatio: number;
  heapRatio: number;
  coldRssRatio: number;
  met: boolean;
}

function printStages(stages: Stage[], docs: number, fileBytes: number, sourceBytes: number): Verdict[] {
  const cold = stages.find((s) => s.baseline === 'cold')!.m;
  const base = stages.find((s) => s.baseline === 'warm')!.m;
  const rawPerDoc = fileBytes / docs;
  const per = (v: number, b: number) => (v - b) / docs;
  console.log(
    `memory above the warm empty node, per document (${int(docs)} docs), after a full GC in every thread`,
  );
  const verdicts: Verdict[] = [];
  printTable(
    [
      'stage',
      'RSS MiB',
      'RSS anon MiB',
      'heap MiB',
      'V8 committed MiB',
      'RSS B/doc',
      'heap B/doc',
      'RSS/raw file',
      'heap/raw file',
      'RSS/_source',
      'RSS/raw above cold',
      'resident segs MiB',
      'section cache MiB',
      'store MiB',
      'target',
    ],
    stages.map(({ stage, m, store, judged, baseline }) => {
      const rss = per(m.rss, base.rss);
      const heap = per(m.heap_used, base.heap_used);
      const coldRss = per(m.rss, cold.rss);
      const met = Math.max(rss, heap) / rawPerDoc <= TARGET_RATIO;
      if (judged) {
        verdicts.push({
          stage,
          rssRatio: rss / rawPerDoc,
          heapRatio: heap / rawPerDoc,
          coldRssRatio: coldRss / rawPerDoc,
          met,
        });
      }
      const b = baseline !== undefined;
      return [
        b ? `${stage} (baseline)` : stage,
        fixed(m.rss / 1048576, 1),
        m.rss_anon === undefined ? '-' : fixed(m.rss_anon / 1048576, 1),
        fixed(m.heap_used / 1048576, 1),
        fixed(m.heap_total / 1048576, 1),
        baseline === 'warm' ? '' : fixed(rss, 1),
        baseline === 'warm' ? '' : fixed(heap, 1),
        baseline === 'warm' ? '' : fixed(rss / rawPerDoc, 2),
        baseline === 'warm' ? '' : fixed(heap / rawPerDoc, 2),
        baseline === 'warm' ? '' : fixed(rss / (sourceBytes / docs), 2),
        baseline === 'cold' ? '' : fixed(coldRss / rawPerDoc, 2),
        fixed(m.segment_resident_bytes / 1048576, 2),
        fixed(m.section_cache_bytes / 1048576, 2),
        fixed(store / 1048576, 1),
        judged ? `<= ${TARGET_RATIO} ${met ? 'met' : 'NOT MET'}` : '',
      ];
    }),
  );
  console.log(
    `warm-up moved the baseline by ${fixed((base.rss - cold.rss) / 1048576, 1)} MiB RSS, ` +
      `${fixed((base.heap_used - cold.heap_used) / 1048576, 1)} MiB heap`,
  );
  return verdicts;
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
  const passes: { label: string; env: Record<string, string>; stages: Stage[]; verdicts: Verdict[] }[] = [
    { label: 'glibc malloc defaults', env: {}, stages: [], verdicts: [] },
    {
      label: 'MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=65536',
      env: TUNED,
      stages: [],
      verdicts: [],
    },
  ];
  for (const pass of passes) {
    console.log(`\npass: ${pass.label}`);
    pass.stages = await measurePass(pass.env);
    pass.verdicts = printStages(pass.stages, docs, fileBytes, sourceBytes);
  }
  console.log(
    `\nper document, above the warm empty node (raw file ${fixed(fileBytes / docs, 1)} B/doc; target <= ${TARGET_RATIO}):`,
  );
  for (const pass of passes) {
    for (const v of pass.verdicts) {
      console.log(
        `  ${pass.label}, ${v.stage}: RSS ${fixed(v.rssRatio, 2)}x, heap ${fixed(v.heapRatio, 2)}x ` +
          `(RSS above the cold node ${fixed(v.coldRssRatio, 2)}x): ${v.met ? 'met' : 'NOT MET'}`,
      );
    }
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
