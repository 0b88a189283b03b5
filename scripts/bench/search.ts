/**
 * `npm run bench -- search`: search throughput and latency against two ceilings.
 *
 *   (a) bare Hono + @hono/node-server JSON endpoint              (servers/hello.ts)
 *   (b) (a) + a noop task fanned out to one ShardWorker per shard (servers/fanout.ts)
 *   (c) Shoal: match_all, size 10
 *   (d) Shoal: match_all sorted by distance desc, size 10
 *   (e) Shoal: match on `summary` "late evening", size 10
 *
 * Every server is a child process with the layout of a node (one process, 2 shard worker
 * threads); the Shoal node holds flights-200k in 2 shards. Each target is checked (status 200,
 * the expected hits and hit count) before it is measured. All servers stay up, and the
 * scenarios are measured in interleaved rounds (a b c d e, five times), so a slow minute of
 * this machine lands on every scenario alike; each row reports its median round. A ratio to a
 * ceiling is the median over the rounds of the ratio within each round (the two runs seconds
 * apart). Targets: (c), (d) ≥ 0.5 × (b); (e) ≥ 0.25 × (b).
 */

import { withAuth } from '../credentials.ts';
import { flightRows, flightSummary, flights } from '../sample-data/index.ts';
import { loadFlights } from './flights-load.ts';
import { clean, type LoadOptions, type LoadTarget, type Measurement, measure } from './measure.ts';
import { type BenchChild, startCeilingServer, startShoalNode } from './processes.ts';
import { environment, errorMessage, fixed, int, medianRun, writeResults } from './report.ts';
import { printRows, type Row, type RowId, scoreRows } from './search-rows.ts';

const WORKERS = 2;
const SHARDS = 2;
/** The shard worker threads' kernel policy (thread-scheduling.ts), set alike in every server. */
const SCHEDULING = process.env.SHOAL_SHARD_WORKER_SCHEDULING === 'normal' ? 'normal' : 'batch';
/** "other cores" above this marks a run as disturbed by other programs. */
const OTHER_LOAD_WARNING = 0.2;
/** Measurement rounds; each row's figures are those of its median round. */
const ROUNDS = 5;
/** Warm-up before each round after the first, in seconds. */
const LATER_WARMUP_S = 0.5;
/** Elasticsearch's default `track_total_hits`. */
const TOTAL_HITS_THRESHOLD = 10_000;

interface SearchCase {
  id: 'c' | 'd' | 'e';
  label: string;
  body: Record<string, unknown>;
  target: number;
}

const cases: SearchCase[] = [
  { id: 'c', label: 'match_all, size 10', body: { query: { match_all: {} }, size: 10 }, target: 0.5 },
  {
    id: 'd',
    label: 'sort distance desc, size 10',
    body: { sort: [{ distance: 'desc' }], size: 10 },
    target: 0.5,
  },
  {
    id: 'e',
    label: 'match summary "late evening"',
    body: { query: { match: { summary: 'late evening' } }, size: 10 },
    target: 0.25,
  },
];

/** What the data says the answers must be (computed here, from the rows and their summaries). */
function expectations() {
  const rows = flightRows();
  let lateOrEvening = 0;
  let maxDistance = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    if (r.distance > maxDistance) maxDistance = r.distance;
    const tokens = flightSummary(r).split(' ');
    if (tokens.includes('late') || tokens.includes('evening')) lateOrEvening++;
  }
  return { total: rows.length, lateOrEvening, maxDistance };
}

interface JsonReply {
  status: number;
  json: unknown;
  bytes: number;
  text: string;
}

async function request(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<JsonReply> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: withAuth(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, bytes: Buffer.byteLength(text), text };
}

class VerifyError extends Error {}

function check(cond: boolean, what: string, reply?: JsonReply): asserts cond {
  if (!cond)
    throw new VerifyError(`${what}${reply ? `; got ${reply.status}: ${reply.text.slice(0, 800)}` : ''}`);
}

interface Hit {
  _id?: string;
  _source?: { summary?: string; distance?: number };
  sort?: unknown[];
}
interface SearchReply {
  hits?: { total?: { value?: number; relation?: string }; hits?: Hit[] };
  _shards?: { total?: number; successful?: number; failed?: number };
}

/** Checks a search exactly as it is benchmarked, then its exact hit count. Returns the reply size. */
async function verifySearch(
  url: string,
  c: SearchCase,
  exp: ReturnType<typeof expectations>,
): Promise<number> {
  const path = `/${flights.index}/_search`;
  const r = await request(url, 'POST', path, c.body);
  check(r.status === 200, `(${c.id}) POST ${path} ${JSON.stringify(c.body)} must answer 200`, r);
  const reply = r.json as SearchReply;
  const hits = reply.hits?.hits;
  check(Array.isArray(hits) && hits.length === 10, `(${c.id}) must return 10 hits`, r);
  check(
    reply._shards?.successful === SHARDS && reply._shards.failed === 0,
    `(${c.id}) every shard must answer`,
    r,
  );
  const exact = c.id === 'e' ? exp.lateOrEvening : exp.total;
  const total = reply.hits?.total;
  const defaultTotalOk =
    (total?.relation === 'eq' && total.value === exact) ||
    (total?.relation === 'gte' && total.value === TOTAL_HITS_THRESHOLD && exact > TOTAL_HITS_THRESHOLD);
  check(
    defaultTotalOk,
    `(${c.id}) hits.total must be ${exact > TOTAL_HITS_THRESHOLD ? `{value:${TOTAL_HITS_THRESHOLD},relation:gte}` : `{value:${exact},relation:eq}`} (exact count ${exact})`,
    r,
  );
  if (c.id === 'd') {
    const values = hits.map((h) => h.sort?.[0]);
    check(
      values[0] === exp.maxDistance,
      `(d) the first hit must have the largest distance ${exp.maxDistance}`,
      r,
    );
    check(
      values.every((v, i) => typeof v === 'number' && (i === 0 || v <= (values[i - 1] as number))),
      '(d) sort values must be numbers in descending order',
      r,
    );
    check(
      hits.every((h) => h._source?.distance === h.sort?.[0]),
      '(d) each hit sort value must be its distance',
      r,
    );
  }
  if (c.id === 'e') {
    check(
      hits.every((h) => {
        const t = (h._source?.summary ?? '').split(' ');
        return t.includes('late') || t.includes('evening');
      }),
      '(e) every hit summary must contain "late" or "evening"',
      r,
    );
  }
  const counted = await request(url, 'POST', path, { ...c.body, size: 0, track_total_hits: true });
  const t = (counted.json as SearchReply | undefined)?.hits?.total;
  check(
    counted.status === 200 && t?.value === exact && t.relation === 'eq',
    `(${c.id}) with track_total_hits:true, hits.total must be {value:${exact},relation:eq}`,
    counted,
  );
  return r.bytes;
}

/** A server ready to be measured, with what its load run sends. */
interface Subject {
  row: Row;
  target: LoadTarget;
}

/** Starts a ceiling server and checks its answer; the subject to measure, or the row's error. */
async function ceilingSubject(
  row: Row,
  kind: 'hello' | 'fanout',
  servers: BenchChild[],
  verify: (reply: JsonReply) => void,
): Promise<Subject | undefined> {
  try {
    const server = await startCeilingServer(kind, { workers: WORKERS, shards: SHARDS });
    servers.push(server);
    const r = await request(server.url, 'GET', '/');
    verify(r);
    row.responseBytes = r.bytes;
    return { row, target: { url: server.url, method: 'GET', path: '/', pid: server.pid } };
  } catch (e) {
    row.error = errorMessage(e);
    return undefined;
  }
}

export async function runSearch(load: LoadOptions): Promise<void> {
  const started = Date.now();
  const rows: Row[] = [
    { id: 'a', label: 'ceiling: Hono JSON', request: 'GET /' },
    { id: 'b', label: `ceiling: Hono + noop fan-out x${SHARDS}`, request: 'GET /' },
    ...cases.map(
      (c): Row => ({ id: c.id, label: c.label, request: JSON.stringify(c.body), target: c.target }),
    ),
  ];
  const row = (id: RowId) => rows.find((r) => r.id === id)!;
  const servers: BenchChild[] = [];
  const subjects: Subject[] = [];
  let loadInfo: Record<string, unknown> | undefined;
  let nodeError: string | undefined;
  try {
    // Every server stays up for the whole run: the rounds below measure them in turn.
    const a = await ceilingSubject(row('a'), 'hello', servers, (r) =>
      check(
        r.status === 200 && JSON.stringify(r.json) === '{"hello":"world"}',
        '(a) GET / must answer {"hello":"world"}',
        r,
      ),
    );
    const b = await ceilingSubject(row('b'), 'fanout', servers, (r) =>
      check(
        r.status === 200 && (r.json as SearchReply)._shards?.successful === SHARDS,
        `(b) GET / must answer 200 with ${SHARDS} successful shards`,
        r,
      ),
    );
    if (a) subjects.push(a);
    if (b) subjects.push(b);
    try {
      console.log(`starting a Shoal node (${WORKERS} shard workers) …`);
      const node = await startShoalNode({ workers: WORKERS });
      servers.push(node);
      const loaded = await loadFlights(node.url, SHARDS, process.stdout.isTTY);
      loadInfo = {
        docs: loaded.docs,
        count: loaded.count,
        ms: loaded.ms,
        docsPerSec: (loaded.docs / loaded.ms) * 1000,
      };
      console.log(
        `loaded ${int(loaded.docs)} docs in ${fixed(loaded.ms / 1000)} s (${int((loaded.docs / loaded.ms) * 1000)} docs/s), _count ${int(loaded.count)}`,
      );
      if (loaded.count !== loaded.docs)
        throw new VerifyError(`_count is ${loaded.count} after loading ${loaded.docs} docs`);
      const exp = expectations();
      for (const c of cases) {
        const r = row(c.id);
        try {
          r.responseBytes = await verifySearch(node.url, c, exp);
          subjects.push({
            row: r,
            target: {
              url: node.url,
              method: 'POST',
              path: `/${flights.index}/_search`,
              body: JSON.stringify(c.body),
              pid: node.pid,
            },
          });
        } catch (e) {
          r.error = errorMessage(e);
        }
      }
    } catch (e) {
      nodeError = errorMessage(e);
      for (const c of cases) row(c.id).error ??= 'not measured: the Shoal node failed (below)';
    }

    // This machine's speed drifts from minute to minute: each round measures every subject back
    // to back, and each row's figures are those of its median round.
    const runs = new Map<RowId, Measurement[]>();
    const roundS = load.durationS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      for (const { row: r, target } of subjects) {
        if (r.error) continue;
        console.log(`round ${round + 1}/${ROUNDS}: measuring (${r.id}) ${r.label} …`);
        try {
          const m = await measure(target, {
            connections: load.connections,
            durationS: roundS,
            // The first round warms the JIT; later ones only reopen their connections.
            warmupS: round === 0 ? load.warmupS : Math.min(load.warmupS, LATER_WARMUP_S),
          });
          runs.set(r.id, [...(runs.get(r.id) ?? []), m]);
        } catch (e) {
          r.error = errorMessage(e);
        }
      }
    }
    for (const r of rows) {
      const rs = runs.get(r.id);
      if (!rs || r.error) continue;
      r.measurement = medianRun(rs, (m) => m.reqPerSec);
      r.rounds = rs.map((m) => m.reqPerSec);
      r.unclean = rs.find((m) => !clean(m));
    }
  } finally {
    await Promise.all(servers.map((x) => x.stop()));
  }

  scoreRows(rows);

  console.log(
    `\nsearch: ${load.connections} connections; ${ROUNDS} interleaved rounds of ${fixed(load.durationS / ROUNDS, 1)} s per scenario ` +
      `(${load.warmupS} s warm-up first, ${Math.min(load.warmupS, LATER_WARMUP_S)} s later); figures of the median round, ` +
      `ratios the median of each round's ratio; ` +
      `${WORKERS} shard workers (${SCHEDULING} scheduling policy, in the node and in ceiling (b)); flights-200k in ${SHARDS} shards\n`,
  );
  printRows(rows);
  const failed = rows.filter((r) => r.error);
  if (failed.length > 0) {
    console.log('\nproblems:');
    for (const r of failed) console.log(`  (${r.id}) ${r.label}: ${r.error}`);
  }
  if (nodeError) console.log(`\nShoal node: ${nodeError}`);
  const busy = rows.filter((r) => (r.measurement?.otherCores ?? 0) > OTHER_LOAD_WARNING);
  if (busy.length > 0) {
    console.log(
      `\nwarning: other programs used > ${OTHER_LOAD_WARNING} core during ${busy.map((r) => `(${r.id})`).join(' ')}; ` +
        'those figures are disturbed (see "other cores")',
    );
  }
  const file = writeResults('search', {
    scenario: 'search',
    date: new Date(started).toISOString(),
    environment: environment(),
    options: { ...load, rounds: ROUNDS, workers: WORKERS, shards: SHARDS, scheduling: SCHEDULING },
    load: loadInfo,
    nodeError,
    rows,
  });
  console.log(`\nresults: ${file}`);
  if (failed.length > 0) process.exitCode = 1;
}
