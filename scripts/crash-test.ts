/**
 * The crash test: a real node bulk-loads documents of random sizes from several concurrent
 * writers, is killed with SIGKILL at a random moment, and restarts on the same data path. After
 * every restart:
 *
 *   - every acknowledged document is there, with at least its last acknowledged version and
 *     the `_source` of that write or of a later one that was sent (a write may be applied and
 *     lost its answer);
 *   - every document present is one that was sent, byte for byte (never half-written);
 *   - `_count` is at least the number of documents whose last acknowledged write is an index.
 *
 *   npm run crash-test -- [--cycles 20] [--seed N] [--load-ms 3000] [--writers 3]
 *
 * Each writer owns its ids and sends its bulks one after another, so every id's writes have
 * one order. The index flushes often (a small `index.translog.flush_threshold_size`) and
 * refreshes often, so kills land in the middle of flushes, merges and translog rolls too.
 * `runCrashCycles` is also run, for a few cycles, by test/durability/crash.test.ts.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { basicAuth, TEST_AUTH } from '../test/support/http.ts';
import { startTestNode, type TestNode } from '../test/support/node-process.ts';

export interface CrashOptions {
  cycles: number;
  seed: number;
  /** The kill comes at a random moment in [100 ms, loadMs] after the load starts. */
  loadMs: number;
  writers: number;
  log?: (line: string) => void;
}

export interface CrashReport {
  seed: number;
  cycles: { acknowledged: number; sent: number; present: number; count: number; killedAtMs: number }[];
  problems: string[];
}

interface Ledger {
  /** Every source sent for the id, in send order (`null` = a delete). */
  sent: (string | null)[];
  /** Position in `sent` of the last acknowledged write, -1 if none. */
  acked: number;
  ackedVersion: number;
}

const INDEX = 'crash';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function call(url: string, method: string, path: string, body?: string, signal?: AbortSignal) {
  const res = await fetch(new URL(path, url), {
    method,
    headers: {
      authorization: basicAuth(TEST_AUTH.username, TEST_AUTH.password),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
    signal,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** One writer: sequential bulks over its own ids until `stop` aborts. */
async function writer(
  url: string,
  prefix: string,
  random: () => number,
  ledger: Map<string, Ledger>,
  stop: AbortSignal,
): Promise<void> {
  let seq = 0;
  while (!stop.aborted) {
    const n = 1 + Math.floor(random() * 120);
    const lines: string[] = [];
    const batch: { id: string; pos: number }[] = [];
    for (let i = 0; i < n; i++) {
      const id = `${prefix}-${Math.floor(random() * 400)}`;
      let entry = ledger.get(id);
      if (!entry) {
        entry = { sent: [], acked: -1, ackedVersion: 0 };
        ledger.set(id, entry);
      }
      if (entry.sent.length > 0 && random() < 0.06) {
        lines.push(JSON.stringify({ delete: { _id: id } }));
        entry.sent.push(null);
      } else {
        // Mostly small documents, a few up to ~24 KB.
        const size = Math.floor(Math.exp(random() * Math.log(24_000)));
        const src = JSON.stringify({ id, seq: seq++, pad: 'x'.repeat(size), n: Math.floor(random() * 1e9) });
        lines.push(JSON.stringify({ index: { _id: id } }), src);
        entry.sent.push(src);
      }
      batch.push({ id, pos: entry.sent.length - 1 });
    }
    let res: Awaited<ReturnType<typeof call>>;
    try {
      res = await call(url, 'POST', `/${INDEX}/_bulk`, `${lines.join('\n')}\n`, stop);
    } catch {
      return; // the node is gone (or the load is over): nothing of this bulk was acknowledged
    }
    if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${JSON.stringify(res.json)}`);
    res.json.items.forEach((item: Record<string, { status: number; _version?: number }>, i: number) => {
      const r = Object.values(item)[0]!;
      const b = batch[i]!;
      const entry = ledger.get(b.id)!;
      if ((r.status === 200 || r.status === 201 || r.status === 404) && b.pos > entry.acked) {
        entry.acked = b.pos;
        entry.ackedVersion = r._version ?? 0;
      }
    });
  }
}

async function verify(url: string, ledger: Map<string, Ledger>, problems: string[]) {
  const ids = [...ledger.keys()];
  const found = new Map<string, { version: number; source: string }>();
  // Small _mget chunks: a node runs one get task per id, and a worker's task queue is bounded.
  for (let i = 0; i < ids.length; i += 12) {
    const chunk = ids.slice(i, i + 12);
    const r = await call(url, 'POST', `/${INDEX}/_mget`, JSON.stringify({ ids: chunk }));
    if (r.status !== 200) throw new Error(`_mget answered ${r.status}: ${JSON.stringify(r.json)}`);
    for (const d of r.json.docs) {
      if (d.error) throw new Error(`_mget failed for ${d._id}: ${JSON.stringify(d.error)}`);
      if (d.found) found.set(d._id, { version: d._version, source: JSON.stringify(d._source) });
    }
  }
  let mustExist = 0;
  for (const [id, e] of ledger) {
    const doc = found.get(id);
    const later = e.sent.slice(Math.max(0, e.acked));
    if (e.acked >= 0 && e.sent[e.acked] !== null && !e.sent.slice(e.acked + 1).includes(null)) mustExist++;
    if (doc) {
      if (!later.includes(doc.source)) {
        problems.push(
          `${id}: _source is not its last acknowledged write nor a later one (version ${doc.version})`,
        );
      }
      if (doc.version < e.ackedVersion)
        problems.push(`${id}: version ${doc.version} < acknowledged ${e.ackedVersion}`);
    } else if (e.acked >= 0 && !later.includes(null)) {
      problems.push(`${id}: acknowledged (version ${e.ackedVersion}) but missing`);
    }
  }
  await call(url, 'POST', `/${INDEX}/_refresh`);
  const count = (await call(url, 'POST', `/${INDEX}/_count`, '{"query":{"match_all":{}}}')).json
    .count as number;
  if (count < mustExist) problems.push(`_count ${count} < ${mustExist} acknowledged documents`);
  // Every document present was sent, whole.
  const all = await call(
    url,
    'POST',
    `/${INDEX}/_search`,
    JSON.stringify({ size: count + 10, query: { match_all: {} } }),
  );
  if (all.status !== 200)
    throw new Error(`_search answered ${all.status}: ${JSON.stringify(all.json).slice(0, 500)}`);
  for (const h of all.json.hits.hits) {
    const e = ledger.get(h._id);
    if (!e?.sent.includes(JSON.stringify(h._source)))
      problems.push(`${h._id}: present but never sent like this`);
  }
  return { acknowledged: mustExist, present: found.size, count };
}

export async function runCrashCycles(opts: CrashOptions): Promise<CrashReport> {
  const log = opts.log ?? (() => {});
  const random = rng(opts.seed);
  const ledger = new Map<string, Ledger>();
  const report: CrashReport = { seed: opts.seed, cycles: [], problems: [] };
  let node: TestNode = await startTestNode({ workers: 2 });
  try {
    const created = await call(
      node.url,
      'PUT',
      `/${INDEX}`,
      JSON.stringify({
        settings: {
          number_of_shards: 2,
          number_of_replicas: 0,
          refresh_interval: '100ms',
          max_result_window: 1_000_000,
          'translog.flush_threshold_size': '256kb',
        },
        mappings: { properties: { id: { type: 'keyword' }, pad: { type: 'text' }, n: { type: 'long' } } },
      }),
    );
    if (created.status !== 200) throw new Error(`create answered ${created.status}`);
    for (let cycle = 0; cycle < opts.cycles; cycle++) {
      const stop = new AbortController();
      const writers = Array.from({ length: opts.writers }, (_, w) =>
        writer(node.url, `c${cycle}w${w}`, rng(Math.floor(random() * 2 ** 32)), ledger, stop.signal),
      );
      const killAt = 100 + Math.floor(random() * Math.max(1, opts.loadMs - 100));
      await new Promise((r) => setTimeout(r, killAt));
      await node.kill();
      stop.abort();
      await Promise.all(writers);
      const sent = [...ledger.values()].reduce((n, e) => n + e.sent.length, 0);
      node = await node.restart();
      const before = report.problems.length;
      const v = await verify(node.url, ledger, report.problems);
      report.cycles.push({ ...v, sent, killedAtMs: killAt });
      log(
        `cycle ${cycle + 1}/${opts.cycles}: killed at ${killAt} ms; ${sent} writes sent, ` +
          `${v.acknowledged} acknowledged docs, ${v.present} present, _count ${v.count}` +
          (report.problems.length > before ? `; ${report.problems.length - before} PROBLEMS` : '; ok'),
      );
    }
  } finally {
    await node.stop();
  }
  return report;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cycles: { type: 'string', default: '20' },
      seed: { type: 'string' },
      'load-ms': { type: 'string', default: '3000' },
      writers: { type: 'string', default: '3' },
    },
  });
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  console.log(`crash test: seed ${seed}`);
  const report = await runCrashCycles({
    cycles: Number(values.cycles),
    seed,
    loadMs: Number(values['load-ms']),
    writers: Number(values.writers),
    log: (l) => console.log(l),
  });
  for (const p of report.problems.slice(0, 50)) console.log(`  problem: ${p}`);
  const failed = report.problems.length > 0 ? 1 : 0;
  console.log(`${report.cycles.length - failed} passed, ${failed} failed`);
  process.exitCode = failed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
