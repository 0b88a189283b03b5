/**
 * `npm run bench -- paging`: every way to page flights-200k (2 shards, 2 shard workers).
 *
 * - PIT + search_after, size 100, page time at depths 0, 10k, 100k and 190k (the median of 40
 *   samples, the depths taken in turn), as a ratio to the first page (target: flat, ≤ 1.3):
 *   sorted on `_shard_doc` with track_total_hits false (the export fast path), and on
 *   `distance` with the implicit `_shard_doc` tiebreaker;
 * - `from` paging, size 100, from 0 up to the result window (its cost grows with `from`);
 * - scroll export, size 1000, `_doc` sort: docs/s alone, and with 2 and 4 slices in parallel,
 *   each as a ratio to the "read every stored _source once" baseline measured in the same run
 *   (servers/source-pages.ts: every stored `_source` held in memory and served in the same
 *   pages over the same HTTP stack, with no search at all; target ≥ 0.5). For comparison, the
 *   other way to read every document once through a node: `_mget`, 1000 ids a request.
 *   The baseline and the exports run in 3 interleaved rounds (the baseline server stays up
 *   beside the node); each figure is the median of its rounds, so a drift in this machine's
 *   speed hits both sides of a ratio alike.
 *
 * - a PIT walk over a data stream of three backing indices, as a ratio to the same walk over
 *   the same documents in one index (paging-streams.ts; target ≥ 0.8).
 *
 * Every walk is checked: each export returns all 200,000 documents exactly once.
 * Results are printed and written to `.bench/paging-<timestamp>.json`.
 */
import { join } from 'node:path';
import { withAuth } from '../credentials.ts';
import { flights } from '../sample-data/index.ts';
import { loadFlights } from './flights-load.ts';
import { measureStreamWalk, STREAM_TARGET } from './paging-streams.ts';
import { type BenchChild, repoRoot, startChild, startShoalNode } from './processes.ts';
import { environment, fixed, int, medianRun, printTable, writeResults } from './report.ts';

const WORKERS = 2;
const SHARDS = 2;
const PAGE = 100;
const EXPORT_PAGE = 1000;
const DEPTHS = [0, 10_000, 100_000, 190_000];
const FROMS = [0, 1_000, 5_000, 9_900];
const SAMPLES = 40;
/** Rounds of the baseline and the scroll exports, interleaved. */
const EXPORT_ROUNDS = 3;

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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timeIt(f: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await f();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/**
 * The median time of each of `fs` over SAMPLES runs, after a few warm-up runs. The runs are
 * interleaved (one of each in turn), so a drift in this machine's speed hits them all alike.
 */
async function medianMsEach(fs: (() => Promise<unknown>)[]): Promise<number[]> {
  for (let i = 0; i < 5; i++) for (const f of fs) await f();
  const times: number[][] = fs.map(() => []);
  for (let i = 0; i < SAMPLES; i++) for (let j = 0; j < fs.length; j++) times[j]!.push(await timeIt(fs[j]!));
  return times.map(median);
}

interface DepthRow {
  sort: string;
  depth: number;
  ms: number;
  ratio: number;
}

/** search_after values that start pages at each depth, found by walking the PIT in big pages. */
async function afterValues(url: string, pit: string, sort: unknown[]): Promise<Map<number, unknown[]>> {
  const out = new Map<number, unknown[]>();
  let after: unknown[] | undefined;
  let seen = 0;
  const wanted = DEPTHS.filter((d) => d > 0);
  while (wanted.some((d) => !out.has(d))) {
    const next = Math.min(...wanted.filter((d) => !out.has(d)));
    const size = Math.min(10_000, next - seen);
    const r = await call(url, 'POST', '/_search', {
      size,
      pit: { id: pit },
      sort,
      track_total_hits: false,
      _source: false,
      ...(after ? { search_after: after } : {}),
    });
    const hits = r.hits.hits as Json[];
    if (hits.length === 0) throw new Error(`the PIT ended at ${seen} hits`);
    seen += hits.length;
    after = hits[hits.length - 1]!.sort;
    if (seen === next) out.set(next, after!);
  }
  return out;
}

async function pitDepths(url: string, label: string, sort: unknown[], extra: Json): Promise<DepthRow[]> {
  const pit = (await call(url, 'POST', `/${flights.index}/_pit?keep_alive=10m`)).id as string;
  try {
    const afters = await afterValues(url, pit, sort);
    const bodies = [];
    for (const depth of DEPTHS) {
      const after = afters.get(depth);
      const body = {
        size: PAGE,
        pit: { id: pit },
        sort,
        ...extra,
        ...(after ? { search_after: after } : {}),
      };
      const check = await call(url, 'POST', '/_search', body);
      if (check.hits.hits.length !== PAGE)
        throw new Error(`${label}: page at ${depth} has ${check.hits.hits.length} hits`);
      bodies.push(body);
    }
    const ms = await medianMsEach(bodies.map((body) => () => call(url, 'POST', '/_search', body)));
    const rows: DepthRow[] = DEPTHS.map((depth, i) => ({ sort: label, depth, ms: ms[i]!, ratio: 0 }));
    for (const r of rows) r.ratio = r.ms / rows[0]!.ms;
    return rows;
  } finally {
    await call(url, 'DELETE', '/_pit', { id: pit });
  }
}

/** Exports the whole index through `slices` parallel scrolls; docs/s, after checking every id once. */
async function scrollExport(url: string, slices: number): Promise<{ docsPerSec: number; ms: number }> {
  const seen = new Uint8Array(flights.count());
  let total = 0;
  const one = async (slice?: Json) => {
    let r = await call(url, 'POST', `/${flights.index}/_search?scroll=1m`, {
      size: EXPORT_PAGE,
      sort: ['_doc'],
      ...(slice ? { slice } : {}),
    });
    for (;;) {
      const hits = r.hits.hits as Json[];
      if (hits.length === 0) break;
      for (const h of hits) {
        const i = Number(h._id);
        if (seen[i]) throw new Error(`document ${h._id} exported twice`);
        seen[i] = 1;
        if (h._source?.id !== i) throw new Error(`document ${h._id} has the wrong _source`);
      }
      total += hits.length;
      r = await call(url, 'POST', '/_search/scroll', { scroll_id: r._scroll_id, scroll: '1m' });
    }
    await call(url, 'DELETE', '/_search/scroll', { scroll_id: r._scroll_id });
  };
  const ms = await timeIt(() =>
    slices === 1 ? one() : Promise.all(Array.from({ length: slices }, (_, id) => one({ id, max: slices }))),
  );
  if (total !== seen.length) throw new Error(`exported ${total} documents of ${seen.length}`);
  return { docsPerSec: (total / ms) * 1000, ms };
}

/** Every document read once through the node's get path: `_mget` of 1000 ids a request. */
async function mgetAll(url: string): Promise<{ docsPerSec: number; ms: number }> {
  const total = flights.count();
  const ms = await timeIt(async () => {
    for (let from = 0; from < total; from += EXPORT_PAGE) {
      const ids = Array.from({ length: Math.min(EXPORT_PAGE, total - from) }, (_, i) => String(from + i));
      const r = await call(url, 'POST', `/${flights.index}/_mget`, { ids });
      if ((r.docs as Json[]).some((d) => d.found !== true)) throw new Error('_mget missed a document');
    }
  });
  return { docsPerSec: (total / ms) * 1000, ms };
}

/** The baseline server: every stored `_source` held in memory, served in pages (no search). */
async function startBaseline(): Promise<BenchChild> {
  return startChild('source-pages server', join(repoRoot, 'scripts/bench/servers/source-pages.ts'), [
    '--workers',
    String(WORKERS),
  ]);
}

/** The baseline: every stored `_source` read once, in pages of the same size, no search. */
async function baselineRun(url: string): Promise<{ docsPerSec: number; ms: number }> {
  const pages = Math.ceil(flights.count() / EXPORT_PAGE);
  let n = 0;
  const ms = await timeIt(async () => {
    for (let p = 0; p < pages; p++)
      n += (await call(url, 'GET', `/page/${p}?size=${EXPORT_PAGE}`)).hits.hits.length;
  });
  if (n !== flights.count()) throw new Error(`baseline read ${n} documents`);
  return { docsPerSec: (flights.count() / ms) * 1000, ms };
}

export async function runPaging(): Promise<void> {
  const started = Date.now();
  console.log('starting the baseline server (every stored _source in memory) …');
  const baseServer = await startBaseline();
  console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
  const node = await startShoalNode({ workers: WORKERS }).catch(async (e: unknown) => {
    await baseServer.stop();
    throw e;
  });
  try {
    const loaded = await loadFlights(node.url, SHARDS);
    if (loaded.count !== flights.count()) throw new Error(`_count is ${loaded.count}`);
    const url = node.url;

    console.log('PIT + search_after page times …');
    const depthRows = [
      ...(await pitDepths(url, '_shard_doc, track_total_hits false', ['_shard_doc'], {
        track_total_hits: false,
      })),
      ...(await pitDepths(url, 'distance asc (+ _shard_doc)', [{ distance: 'asc' }], {})),
    ];
    console.log('from/size page times …');
    const fromMs = await medianMsEach(
      FROMS.map(
        (from) => () =>
          call(url, 'POST', `/${flights.index}/_search`, { from, size: PAGE, sort: [{ distance: 'asc' }] }),
      ),
    );
    const fromRows = FROMS.map((from, i) => ({ from, ms: fromMs[i]!, ratio: 0 }));
    for (const r of fromRows) r.ratio = r.ms / fromRows[0]!.ms;

    console.log(`scroll exports, ${EXPORT_ROUNDS} rounds interleaved with the baseline …`);
    // This machine's speed drifts: each round measures the baseline and every export back to
    // back, and each figure is the median of its rounds.
    const SLICES = [1, 2, 4];
    await baselineRun(baseServer.url);
    for (const slices of SLICES) await scrollExport(url, slices);
    const baseRuns: { docsPerSec: number; ms: number }[] = [];
    const exportRuns = new Map<number, { docsPerSec: number; ms: number }[]>(SLICES.map((n) => [n, []]));
    for (let round = 0; round < EXPORT_ROUNDS; round++) {
      baseRuns.push(await baselineRun(baseServer.url));
      for (const slices of SLICES) exportRuns.get(slices)!.push(await scrollExport(url, slices));
    }
    const base = medianRun(baseRuns, (x) => x.ms);
    const exports = SLICES.map((slices) => {
      const r = medianRun(exportRuns.get(slices)!, (x) => x.ms);
      const ratio = r.docsPerSec / base.docsPerSec;
      return {
        label: slices === 1 ? 'scroll, _doc, size 1000' : `${slices} slices in parallel`,
        ...r,
        ratio,
        met: ratio >= 0.5,
        rounds: exportRuns.get(slices)!.map((x) => Math.round(x.docsPerSec)),
      };
    });

    console.log('_mget of every id …');
    const mget = await mgetAll(url);

    const stream = await measureStreamWalk(url);

    console.log(
      `\npaging: flights-200k (${int(flights.count())} docs) in ${SHARDS} shards, ${WORKERS} shard workers\n`,
    );
    printTable(
      ['PIT + search_after, size 100', 'depth', 'median ms', 'x depth 0', 'target'],
      depthRows.map((r) => [
        r.sort,
        int(r.depth),
        fixed(r.ms, 2),
        fixed(r.ratio, 2),
        r.depth === 0 ? '' : r.ratio <= 1.3 ? '<= 1.3 met' : '<= 1.3 NOT MET',
      ]),
    );
    console.log('');
    printTable(
      ['from/size, sort distance, size 100', 'median ms', 'x from 0'],
      fromRows.map((r) => [`from ${int(r.from)}`, fixed(r.ms, 2), fixed(r.ratio, 2)]),
    );
    console.log('');
    printTable(
      ['export (median of rounds)', 'docs/s', 'seconds', 'x baseline', 'target', 'rounds docs/s'],
      [
        [
          'baseline: every stored _source read once',
          int(base.docsPerSec),
          fixed(base.ms / 1000),
          '1.00',
          '',
          baseRuns.map((x) => int(x.docsPerSec)).join(' '),
        ],
        [
          '(for comparison) _mget of every id once',
          int(mget.docsPerSec),
          fixed(mget.ms / 1000),
          fixed(mget.docsPerSec / base.docsPerSec),
          '',
          '',
        ],
        ...exports.map((e) => [
          e.label,
          int(e.docsPerSec),
          fixed(e.ms / 1000),
          fixed(e.ratio, 2),
          e.met ? '>= 0.5 met' : '>= 0.5 NOT MET',
          e.rounds.map((x) => int(x)).join(' '),
        ]),
      ],
    );
    console.log('');
    printTable(
      ['PIT walk, size 1000, _shard_doc (median of rounds)', 'docs/s', 'x one index', 'target'],
      [
        ['one index of 2 shards', int(stream.indexDocsPerSec), '1.00', ''],
        [
          'a data stream of 3 backing indices',
          int(stream.streamDocsPerSec),
          fixed(stream.ratio, 2),
          stream.ratio >= STREAM_TARGET ? `>= ${STREAM_TARGET} met` : `>= ${STREAM_TARGET} NOT MET`,
        ],
      ],
    );
    const file = writeResults('paging', {
      scenario: 'paging',
      date: new Date(started).toISOString(),
      environment: environment(),
      options: {
        workers: WORKERS,
        shards: SHARDS,
        page: PAGE,
        exportPage: EXPORT_PAGE,
        samples: SAMPLES,
        exportRounds: EXPORT_ROUNDS,
      },
      load: { docs: loaded.docs, ms: loaded.ms },
      depthRows,
      fromRows,
      baseline: base,
      baselineRounds: baseRuns,
      mget,
      exports,
      stream,
    });
    console.log(`\nresults: ${file}`);
    if (depthRows.some((r) => r.ratio > 1.3) || exports.some((e) => !e.met) || stream.ratio < STREAM_TARGET) {
      process.exitCode = 1;
    }
  } finally {
    await node.stop();
    await baseServer.stop();
  }
}
