/**
 * Micro-benchmark of the query phase on one shard shaped like the flights sample (100k docs, a
 * `summary` text field drawn from the 48 flight summaries, integer `delay` and `distance`):
 *
 *   node --import tsx packages/engine/src/search/scoring.bench.ts [docs] [rounds]
 *
 * Prints the median µs per query of each case, pruned (the query phase as it is) next to
 * exhaustive (every match scored and counted, as before dynamic pruning), and checks that both
 * return the same top 10. Not a vitest file (vitest runs `*.test.ts`).
 */
import type { QueryNode } from '@shoal/protocol';
import type { IndexMapping, ShardQueryRequest } from '../contract.ts';
import { ShardEngine } from '../index/shard-engine.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { createIndexMapping } from '../mapping/index.ts';
import { compileQuery } from './query-compiler.ts';
import { executeQuery, type QueryContext, toHits } from './query-phase.ts';
import { resolveSortKeys } from './sort-keys.ts';
import { TopK } from './top-k.ts';

const DOCS = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 9);
/** Docs per refresh: the shard ends up with several segments, as a bulk load leaves it. */
const SEGMENT_DOCS = 25_000;
const ACCURATE = 2147483647;

/** mulberry32: a small deterministic generator, so every run indexes the same corpus. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, choices: readonly [T, number][]): T {
  let x = r();
  for (const [v, p] of choices) {
    x -= p;
    if (x < 0) return v;
  }
  return choices[choices.length - 1]![0];
}

const DELAY_RANGE: Record<string, [number, number]> = {
  early: [-60, 60],
  'on time': [0, 15],
  late: [15, 45],
  'very late': [60, 600],
};
const DISTANCE_RANGE: Record<string, [number, number]> = {
  'short haul': [30, 470],
  'medium haul': [500, 1000],
  'long haul': [1500, 3400],
};

/** Roughly the class frequencies of flights-200k. */
function flight(r: () => number): { delay: number; distance: number; summary: string } {
  const delayClass = pick(r, [
    ['early', 0.42],
    ['on time', 0.33],
    ['late', 0.15],
    ['very late', 0.1],
  ]);
  const haul = pick(r, [
    ['short haul', 0.4],
    ['medium haul', 0.45],
    ['long haul', 0.15],
  ]);
  const part = pick(r, [
    ['morning', 0.35],
    ['afternoon', 0.3],
    ['evening', 0.25],
    ['night', 0.1],
  ]);
  // [lowest value, width] of each class's range, as flightSummary draws the classes.
  const [lo, span] = DELAY_RANGE[delayClass]!;
  const [dlo, dspan] = DISTANCE_RANGE[haul]!;
  return {
    delay: lo + Math.floor(r() * span),
    distance: dlo + Math.floor(r() * dspan),
    summary: `${delayClass} ${haul} ${part} flight`,
  };
}

function buildShard() {
  const mapping = createIndexMapping(
    {
      dynamic: false,
      properties: {
        delay: { type: 'integer' },
        distance: { type: 'integer' },
        summary: { type: 'text' },
      },
    },
    { indexName: 'flights' },
  );
  const engine = new ShardEngine({ index: 'flights', indexUuid: 'uuid', shardId: 0, mapping });
  const enc = new TextEncoder();
  const r = random(42);
  const batch = 1000;
  for (let i = 0; i < DOCS; i += batch) {
    const ops = [];
    for (let j = i; j < Math.min(DOCS, i + batch); j++)
      ops.push({
        op: 'index' as const,
        id: String(j),
        source: enc.encode(JSON.stringify(flight(r))),
        create: false,
      });
    const o = engine.write(ops);
    if (o.kind !== 'applied') throw new Error('indexing failed');
    if ((i + batch) % SEGMENT_DOCS === 0) engine.refresh();
  }
  engine.refresh();
  return { engine, mapping, reader: engine.acquireReader() };
}

const match = (query: string): QueryNode =>
  ({
    type: 'match',
    field: 'summary',
    query,
    operator: 'or',
    zeroTermsQuery: 'none',
    lenient: false,
    boost: 1,
  }) as QueryNode;

interface Case {
  name: string;
  query: QueryNode;
  trackTotalHitsUpTo: number;
}

const cases: Case[] = [
  { name: 'match "late evening"', query: match('late evening'), trackTotalHitsUpTo: 10_000 },
  {
    name: 'match "late evening", track_total_hits true',
    query: match('late evening'),
    trackTotalHitsUpTo: ACCURATE,
  },
  { name: 'match "evening" (1 term)', query: match('evening'), trackTotalHitsUpTo: 10_000 },
  {
    name: 'bool must match "late evening", filter distance >= 1000',
    query: {
      type: 'bool',
      must: [match('late evening')],
      filter: [{ type: 'range', field: 'distance', gte: 1000, boost: 1 } as QueryNode],
      should: [],
      mustNot: [],
      boost: 1,
    },
    trackTotalHitsUpTo: 10_000,
  },
  { name: 'match_all', query: { type: 'match_all', boost: 1 }, trackTotalHitsUpTo: 10_000 },
];

const ctx: QueryContext = {
  index: 'flights',
  indexUuid: 'uuid',
  shardId: 0,
  isCancelled: () => false,
  nowMillis: Date.now(),
};

/**
 * The query phase as it was before dynamic pruning, for comparison on the same machine at the
 * same moment: every match materialised with its score (weights' `matches`), every live match
 * counted and offered to the heap.
 */
function exhaustive(reader: ShardReader, mapping: IndexMapping, req: ShardQueryRequest) {
  const weight = compileQuery(req.query, {
    reader,
    mapping,
    index: ctx.index,
    indexUuid: ctx.indexUuid,
    nowMillis: ctx.nowMillis,
  });
  const top = new TopK(req.k, (a, b) => b.score - a.score || a.doc - b.doc);
  let total = 0;
  let floor = Number.NEGATIVE_INFINITY;
  for (const rs of reader.segments) {
    const m = weight.matches(rs, true);
    const deleted = rs.liveDocs.deletedBits;
    const n = m.kind === 'all' ? rs.segment.maxDoc : m.docs.length;
    for (let i = 0; i < n; i++) {
      const d = m.kind === 'all' ? i : m.docs[i]!;
      if (deleted && (deleted[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      total++;
      const score = m.kind === 'all' ? m.score : (m.scores?.[i] ?? 0);
      if (score <= floor) continue;
      top.offer({ doc: rs.docBase + d, score, values: [score] });
      if (top.full) floor = top.worst()!.score;
    }
  }
  const keys = resolveSortKeys([{ kind: 'score', order: 'desc' }], mapping, ctx);
  return { total, hits: toHits(top.sorted(), keys, 0, true) };
}

/** Median µs per call over rounds of ~100 ms, the two functions' rounds interleaved. */
function time(fns: (() => unknown)[]): number[] {
  for (const fn of fns) {
    const warmEnd = performance.now() + 300;
    while (performance.now() < warmEnd) fn();
  }
  const rounds: number[][] = fns.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    fns.forEach((fn, j) => {
      let n = 0;
      const start = performance.now();
      let now = start;
      while (now - start < 100) {
        fn();
        n++;
        now = performance.now();
      }
      rounds[j]!.push(((now - start) * 1000) / n);
    });
  }
  return rounds.map((r) => r.sort((a, b) => a - b)[r.length >> 1]!);
}

function main(): void {
  const t0 = performance.now();
  const { reader, mapping } = buildShard();
  console.log(
    `${DOCS} docs in ${reader.segments.length} segments, built in ${Math.round(performance.now() - t0)} ms`,
  );
  console.log('µs/query (median): exhaustive = every match scored and counted (before), pruned = now');
  // BENCH_CASE=2 runs the second case only, pruned only (for profiling).
  const only = Number(process.env.BENCH_CASE ?? 0);
  const w = Math.max(...cases.map((c) => c.name.length));
  for (const [i, c] of cases.entries()) {
    if (only && only !== i + 1) continue;
    const req: ShardQueryRequest = {
      query: c.query,
      sort: [],
      k: 10,
      trackTotalHitsUpTo: c.trackTotalHitsUpTo,
      trackScores: false,
      shardIndex: 0,
    };
    const pruned = () => executeQuery(reader, mapping, req, ctx);
    const before = () => exhaustive(reader, mapping, req);
    const result = pruned();
    const reference = before();
    const same = JSON.stringify(result.hits) === JSON.stringify(reference.hits);
    const [us, usBefore] = only ? [...time([pruned]), Number.NaN] : time([pruned, before]);
    console.log(
      `${c.name.padEnd(w)}  exhaustive ${usBefore!.toFixed(1).padStart(8)}  pruned ${us!.toFixed(1).padStart(7)}` +
        `   total ${result.totalHits} ${result.totalRelation} (exact ${reference.total})` +
        `   top-10 ${same ? 'identical' : 'DIFFERENT'}`,
    );
  }
}

main();
