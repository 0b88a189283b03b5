/**
 * The query phase against a brute-force evaluation: random documents on several segments with
 * deletes and updates, random queries of the benchmarked shapes (term, terms, range on numbers
 * and dates, keyword terms, prefixes and wildcards, bool filter + must_not, match), random
 * sorts of one to three keys (either direction, missing first or last, min/max of multi-valued
 * fields) with and without search_after, random track_total_hits and aggregations. Every fast
 * path (points index, sorted walks, counts from the index) must answer exactly what the plain
 * evaluation over the documents' sources answers.
 */
import {
  parseAggregations,
  parseQuery,
  parseSort,
  reduceAggregations,
  type SortValue,
} from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggDates } from '../aggs/agg-dates.ts';
import { ShardEngine } from '../index/shard-engine.ts';
import { testMapping } from '../index/test-mapping.test-support.ts';
import { filterCacheTuning } from './filter-cache.ts';
import { executeQuery } from './query-phase.ts';
import { walkTuning } from './sorted-walk.ts';
import { ctx } from './test-corpus.test-support.ts';
import { walkFilterTuning } from './walk-filter.ts';

type Src = { n?: number | number[]; d?: number; l?: number; t?: number; k?: string | string[]; txt?: string };

const KEYS = ['a', 'ab', 'abc', 'b', 'ba', 'c'];
const WORDS = ['red', 'fox', 'blue', 'whale'];
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const DOUBLES = [-1.5, 0, 0.25, 2, 3.75, 10];

const props = {
  n: { type: 'integer' as const },
  d: { type: 'double' as const },
  l: { type: 'long' as const },
  t: { type: 'date' as const },
  k: { type: 'keyword' as const },
  txt: { type: 'text' as const },
};

const srcArb: fc.Arbitrary<Src> = fc.record(
  {
    n: fc.oneof(
      fc.integer({ min: -4, max: 6 }),
      fc.array(fc.integer({ min: -4, max: 6 }), { minLength: 1, maxLength: 3 }),
    ),
    d: fc.constantFrom(...DOUBLES),
    l: fc.integer({ min: -3, max: 3 }),
    t: fc.integer({ min: 0, max: 9 * 24 }).map((h) => T0 + h * 3_600_000),
    k: fc.oneof(fc.constantFrom(...KEYS), fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 2 })),
    txt: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  },
  { requiredKeys: [] },
);

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const nums = (s: Src, f: 'n' | 'd' | 'l' | 't'): number[] => list(s[f] as number | number[] | undefined);

/** A query in Elasticsearch JSON and its brute-force test. */
interface Q {
  json: Record<string, unknown>;
  test: (s: Src) => boolean;
}

const numField = fc.constantFrom('n', 'd', 'l', 't') as fc.Arbitrary<'n' | 'd' | 'l' | 't'>;
const boundOf = (f: string) =>
  f === 't'
    ? fc.integer({ min: -1, max: 10 * 24 }).map((h) => T0 + h * 3_600_000)
    : f === 'd'
      ? fc.constantFrom(...DOUBLES, -2, 1, 5)
      : fc.integer({ min: -5, max: 7 });

const rangeQ: fc.Arbitrary<Q> = numField.chain((f) =>
  fc
    .record({
      lo: fc.option(boundOf(f)),
      hi: fc.option(boundOf(f)),
      loInc: fc.boolean(),
      hiInc: fc.boolean(),
    })
    .map(({ lo, hi, loInc, hiInc }) => {
      const r: Record<string, number> = {};
      if (lo !== null) r[loInc ? 'gte' : 'gt'] = lo;
      if (hi !== null) r[hiInc ? 'lte' : 'lt'] = hi;
      const ok = (v: number) =>
        (lo === null || (loInc ? v >= lo : v > lo)) && (hi === null || (hiInc ? v <= hi : v < hi));
      return { json: { range: { [f]: r } }, test: (s: Src) => nums(s, f).some(ok) };
    }),
);

const termNumQ: fc.Arbitrary<Q> = numField.chain((f) =>
  boundOf(f).map((v) => ({ json: { term: { [f]: v } }, test: (s: Src) => nums(s, f).includes(v) })),
);

const termsNumQ: fc.Arbitrary<Q> = numField.chain((f) =>
  fc.array(boundOf(f), { minLength: 1, maxLength: 4 }).map((vs) => ({
    json: { terms: { [f]: vs } },
    test: (s: Src) => nums(s, f).some((v) => vs.includes(v)),
  })),
);

const keywordQ: fc.Arbitrary<Q> = fc.oneof(
  fc
    .constantFrom(...KEYS, 'zz')
    .map((v) => ({ json: { term: { k: v } }, test: (s: Src) => list(s.k).includes(v) })),
  fc.constantFrom('a', 'ab', 'b', 'x').map((p) => ({
    json: { prefix: { k: p } },
    test: (s: Src) => list(s.k).some((x) => x.startsWith(p)),
  })),
  fc.constantFrom('a*', '*b', '?b*', 'a?c').map((w) => {
    const re = new RegExp(`^${w.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
    return { json: { wildcard: { k: w } }, test: (s: Src) => list(s.k).some((x) => re.test(x)) };
  }),
  fc.constantFrom('n', 'd', 't', 'k').map((f) => ({
    json: { exists: { field: f } },
    test: (s: Src) => list(s[f as keyof Src] as unknown).length > 0,
  })),
);

const matchQ: fc.Arbitrary<Q> = fc.subarray(WORDS, { minLength: 1, maxLength: 2 }).map((ws) => ({
  json: { match: { txt: ws.join(' ') } },
  test: (s: Src) => (s.txt ?? '').split(' ').some((w) => ws.includes(w)),
}));

const phraseQ: fc.Arbitrary<Q> = fc
  .tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS))
  .map(([a, b]) => ({
    json: { match_phrase: { txt: `${a} ${b}` } },
    test: (s: Src) => {
      const t = (s.txt ?? '').split(' ');
      return t.some((w, i) => w === a && t[i + 1] === b);
    },
  }));

const leafQ = fc.oneof(
  phraseQ,
  rangeQ,
  termNumQ,
  termsNumQ,
  keywordQ,
  matchQ,
  fc.constant<Q>({ json: { match_all: {} }, test: () => true }),
);

const boolQ: fc.Arbitrary<Q> = fc
  .record({
    filter: fc.array(leafQ, { minLength: 0, maxLength: 3 }),
    mustNot: fc.array(leafQ, { minLength: 0, maxLength: 2 }),
  })
  .map(({ filter, mustNot }) => ({
    json: { bool: { filter: filter.map((q) => q.json), must_not: mustNot.map((q) => q.json) } },
    test: (s: Src) => filter.every((q) => q.test(s)) && !mustNot.some((q) => q.test(s)),
  }));

const queryArb = fc.oneof({ weight: 3, arbitrary: leafQ }, { weight: 2, arbitrary: boolQ });

interface SortKeyDraw {
  field: 'n' | 'd' | 'l' | 't' | 'k';
  order: 'asc' | 'desc';
  missing: '_first' | '_last';
  mode?: 'min' | 'max';
}
const sortArb = fc.array(
  fc.record({
    field: fc.constantFrom('n', 'd', 'l', 't', 'k') as fc.Arbitrary<SortKeyDraw['field']>,
    order: fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
    missing: fc.constantFrom('_first', '_last') as fc.Arbitrary<'_first' | '_last'>,
    mode: fc.option(fc.constantFrom('min', 'max') as fc.Arbitrary<'min' | 'max'>, { nil: undefined }),
  }),
  { minLength: 0, maxLength: 3 },
);

/** The brute-force sort value of a key: the doc's min or max value, null when it has none. */
function keyValue(s: Src, key: SortKeyDraw): number | string | null {
  const vs: (number | string)[] = key.field === 'k' ? list(s.k) : nums(s, key.field);
  if (vs.length === 0) return null;
  const mode = key.mode ?? (key.order === 'asc' ? 'min' : 'max');
  return vs.reduce((a, b) => ((mode === 'min' ? b < a : b > a) ? b : a));
}

function compareKey(a: number | string | null, b: number | string | null, key: SortKeyDraw): number {
  if (a === b) return 0;
  if (a === null) return key.missing === '_last' ? 1 : -1;
  if (b === null) return key.missing === '_last' ? -1 : 1;
  const c = a < b ? -1 : 1;
  return key.order === 'asc' ? c : -c;
}

const aggsArb = fc.constantFrom<Record<string, unknown> | undefined>(
  undefined,
  { s: { stats: { field: 'n' } } },
  { s: { stats: { field: 'd' } }, c: { value_count: { field: 't' } } },
  { t: { terms: { field: 'k', size: 20 } } },
  { r: { range: { field: 'n', ranges: [{ to: 0 }, { from: 0, to: 3 }, { from: 3 }] } } },
  { h: { date_histogram: { field: 't', fixed_interval: '1d', min_doc_count: 1 } } },
  { h: { date_histogram: { field: 't', calendar_interval: 'day', min_doc_count: 1 } } },
  { c: { cardinality: { field: 'k' } }, c2: { cardinality: { field: 'd' } } },
  { c: { cardinality: { field: 'n' } } },
  { r: { range: { field: 'd', ranges: [{ to: 0.25 }, { from: 0, to: 3.75 }, { from: 2 }] } } },
  {
    p: {
      composite: {
        size: 4,
        sources: [
          { k: { terms: { field: 'k' } } },
          { day: { date_histogram: { field: 't', calendar_interval: 'day' } } },
        ],
      },
    },
  },
  {
    p: {
      composite: {
        size: 3,
        sources: [
          { k: { terms: { field: 'k' } } },
          { day: { date_histogram: { field: 't', calendar_interval: 'day' } } },
        ],
        after: { k: 'ab', day: T0 + 3 * DAY },
      },
    },
  },
  {
    p: {
      composite: { size: 5, sources: [{ day: { date_histogram: { field: 't', fixed_interval: '1d' } } }] },
    },
  },
  {
    p: {
      composite: {
        size: 3,
        sources: [
          { l: { terms: { field: 'l', order: 'desc' } } },
          { h: { histogram: { field: 'd', interval: 2 } } },
        ],
        after: { l: 1, h: 0 },
      },
    },
  },
  {
    p: {
      composite: {
        size: 4,
        sources: [
          { day: { date_histogram: { field: 't', calendar_interval: 'day', order: 'desc' } } },
          { d: { terms: { field: 'd' } } },
        ],
        after: { day: T0 + 4 * DAY, d: 0.25 },
      },
    },
  },
  { p: { composite: { size: 2, sources: [{ l: { terms: { field: 'l' } } }], after: { l: -1 } } } },
);

interface Built {
  engine: ShardEngine;
  mapping: ReturnType<typeof testMapping>;
  /** The live docs: id → source. */
  live: Map<string, Src>;
}

function build(docs: Src[], segmentEvery: number, deletes: number[], updates: [number, Src][]): Built {
  const mapping = testMapping(props, false);
  const engine = new ShardEngine({ index: 'idx', indexUuid: 'uuid', shardId: 0, mapping });
  const live = new Map<string, Src>();
  const index = (id: string, src: Src) => {
    const body = new TextEncoder().encode(JSON.stringify(src));
    const o = engine.write([{ op: 'index', id, source: body, create: false }]);
    if (o.kind !== 'applied' || o.results[0]!.error) throw new Error(`indexing ${id} failed`);
    live.set(id, src);
  };
  docs.forEach((src, i) => {
    index(String(i), src);
    if ((i + 1) % segmentEvery === 0) engine.refresh();
  });
  engine.refresh();
  for (const i of deletes) {
    if (i >= docs.length) continue;
    engine.write([{ op: 'delete', id: String(i) }]);
    live.delete(String(i));
  }
  for (const [i, src] of updates) if (i < docs.length) index(String(i), src);
  engine.refresh();
  return { engine, mapping, live };
}

describe('the query phase matches a brute-force evaluation', () => {
  it.each([
    ['runs of equal first keys walked directly', 256, false],
    ['runs of equal first keys walked in the second key order, filters from the filter cache', 0, true],
  ])(
    'hits, order, totals and aggregations for random docs, queries, sorts and search_after (%s)',
    (_, shortRun, cached) => {
      walkTuning.shortRun = shortRun;
      // Every segment cached; each search is run until its filters are kept, then checked.
      filterCacheTuning.minSegmentDocs = cached ? 0 : 10_000;
      // Without the cache, the sorted walks check the docs one by one wherever the query can.
      walkFilterTuning.alwaysCheck = !cached;
      fc.assert(
        fc.property(
          fc.array(srcArb, { minLength: 0, maxLength: 70 }),
          fc.integer({ min: 1, max: 25 }),
          fc.array(fc.nat(70), { maxLength: 12 }),
          fc.array(fc.tuple(fc.nat(70), srcArb), { maxLength: 5 }),
          queryArb,
          sortArb,
          fc.integer({ min: 0, max: 12 }),
          fc.constantFrom(2147483647, 5, -1),
          fc.option(fc.nat(80), { nil: undefined }),
          aggsArb,
          (docs, every, deletes, updates, query, sortKeys, k, trackUpTo, afterAt, aggs) => {
            const { engine, mapping, live } = build(docs, every, deletes, updates);
            const reader = engine.acquireReader();
            try {
              // Reader doc of each live id: ties of the sort keys go by it.
              const docOf = new Map<string, number>();
              for (const rs of reader.segments)
                for (let d = 0; d < rs.segment.maxDoc; d++)
                  if (rs.liveDocs.isLive(d)) docOf.set(rs.segment.id(d), rs.docBase + d);
              const idOf = (doc: number) => {
                const rs = reader.segments.find(
                  (x) => doc >= x.docBase && doc < x.docBase + x.segment.maxDoc,
                )!;
                return rs.segment.id(doc - rs.docBase);
              };
              const sortJson = sortKeys.map((s) => ({
                [s.field]: { order: s.order, missing: s.missing, ...(s.mode ? { mode: s.mode } : {}) },
              }));
              const sort = sortKeys.length > 0 ? parseSort(sortJson)! : [];
              const matching = [...live.entries()].filter(([, s]) => query.test(s));
              const expected = matching
                .map(([id, s]) => ({
                  id,
                  doc: docOf.get(id)!,
                  vals: sortKeys.map((key) => keyValue(s, key)),
                }))
                .sort((a, b) => {
                  for (let i = 0; i < sortKeys.length; i++) {
                    const c = compareKey(a.vals[i]!, b.vals[i]!, sortKeys[i]!);
                    if (c !== 0) return c;
                  }
                  return a.doc - b.doc;
                });
              let after: SortValue[] | undefined;
              let rest = expected;
              const pos =
                afterAt === undefined || sortKeys.length === 0
                  ? undefined
                  : expected[afterAt % Math.max(1, expected.length)];
              if (pos?.vals.every((v) => v !== null)) {
                after = pos.vals as SortValue[];
                rest = expected.filter((e) => {
                  for (let i = 0; i < sortKeys.length; i++) {
                    const c = compareKey(e.vals[i]!, pos.vals[i]!, sortKeys[i]!);
                    if (c !== 0) return c > 0;
                  }
                  return false;
                });
              }
              const run = () =>
                executeQuery(
                  reader,
                  mapping,
                  {
                    query: parseQuery(query.json),
                    sort,
                    k,
                    trackTotalHitsUpTo: trackUpTo,
                    trackScores: false,
                    shardIndex: 0,
                    ...(after ? { searchAfter: after } : {}),
                    ...(aggs ? { aggs: parseAggregations(aggs).aggs } : {}),
                  },
                  ctx,
                );
              if (cached) for (let i = 0; i < 5; i++) run();
              const result = run();
              if (sortKeys.length > 0) {
                const ids = result.hits.map((h) => idOf(h.doc));
                expect(ids).toEqual(rest.slice(0, k).map((e) => e.id));
              } else {
                // By score: every match scores alike only for filters; check the set.
                expect(result.hits.length).toBe(Math.min(k, matching.length));
              }
              const n = matching.length;
              if (trackUpTo === 2147483647) {
                expect(result.totalHits).toBe(n);
                expect(result.totalRelation).toBe('eq');
              } else if (trackUpTo >= 0) {
                if (result.totalRelation === 'eq') expect(result.totalHits).toBe(n);
                else {
                  expect(result.totalHits).toBeGreaterThan(trackUpTo);
                  expect(result.totalHits).toBeLessThanOrEqual(n);
                }
              }
              if (aggs) {
                const specs = parseAggregations(aggs).aggs;
                const out = reduceAggregations(specs, [structuredClone(result.aggregations!)], {
                  dates: aggDates,
                });
                expect(out).toEqual(
                  bruteAggs(
                    aggs,
                    matching.map(([, s]) => s),
                  ),
                );
              }
            } finally {
              reader.release();
            }
          },
        ),
        { numRuns: 300 },
      );
      walkTuning.shortRun = 256;
      filterCacheTuning.minSegmentDocs = 10_000;
      walkFilterTuning.alwaysCheck = false;
    },
  );
});

function bruteAggs(aggs: Record<string, unknown>, docs: Src[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(aggs) as [string, Record<string, Record<string, unknown>>][]) {
    const [type, body] = Object.entries(spec)[0]!;
    const field = body.field as 'n' | 'd' | 'l' | 't' | 'k';
    if (type === 'stats' || type === 'value_count') {
      const vs = docs.flatMap((s) => nums(s, field as 'n'));
      if (type === 'value_count') out[name] = { value: vs.length };
      else {
        const sum = vs.reduce((a, b) => a + b, 0);
        out[name] = {
          count: vs.length,
          min: vs.length ? Math.min(...vs) : null,
          max: vs.length ? Math.max(...vs) : null,
          avg: vs.length ? sum / vs.length : null,
          sum,
        };
      }
    } else if (type === 'terms') {
      const counts = new Map<string, number>();
      for (const s of docs) for (const k of new Set(list(s.k))) counts.set(k, (counts.get(k) ?? 0) + 1);
      const buckets = [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([key, doc_count]) => ({ key, doc_count }));
      out[name] = { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets };
    } else if (type === 'range') {
      const ranges = body.ranges as { from?: number; to?: number }[];
      out[name] = {
        buckets: ranges.map((r) => {
          const b: Record<string, unknown> = {
            key: `${r.from === undefined ? '*' : javaDouble(r.from)}-${r.to === undefined ? '*' : javaDouble(r.to)}`,
          };
          if (r.from !== undefined) b.from = r.from;
          if (r.to !== undefined) b.to = r.to;
          b.doc_count = docs.filter((s) =>
            nums(s, field as 'n').some(
              (v) => (r.from === undefined || v >= r.from) && (r.to === undefined || v < r.to),
            ),
          ).length;
          return b;
        }),
      };
    } else if (type === 'cardinality') {
      const vs = new Set<unknown>(
        field === 'k' ? docs.flatMap((x) => list(x.k)) : docs.flatMap((x) => nums(x, field as 'n')),
      );
      out[name] = { value: vs.size };
    } else if (type === 'composite') {
      const sources = (body.sources as Record<string, Record<string, Record<string, unknown>>>[]).map((x) => {
        const [sname, sdef] = Object.entries(x)[0]!;
        const [kind, def] = Object.entries(sdef)[0]!;
        return {
          sname,
          kind: kind!,
          field: def.field as 'k' | 'n' | 'd' | 'l' | 't',
          asc: def.order !== 'desc',
          interval: def.interval as number | undefined,
        };
      });
      const after = body.after as Record<string, string | number> | undefined;
      const combos = new Map<string, { key: (string | number)[]; count: number }>();
      for (const x of docs) {
        let keys: (string | number)[][] = [[]];
        for (const src of sources) {
          const step = src.kind === 'histogram' ? src.interval! : DAY;
          const vals: (string | number)[] =
            src.field === 'k'
              ? [...new Set(list(x.k))].sort()
              : [
                  ...new Set(
                    nums(x, src.field).map((v) => (src.kind === 'terms' ? v : Math.floor(v / step) * step)),
                  ),
                ].sort((a, b) => a - b);
          keys = keys.flatMap((k) => vals.map((v) => [...k, v]));
        }
        for (const k of keys) {
          const text = JSON.stringify(k);
          const e = combos.get(text) ?? { key: k, count: 0 };
          e.count++;
          combos.set(text, e);
        }
      }
      const cmp = (a: (string | number)[], b: (string | number)[]) => {
        for (let i = 0; i < a.length; i++)
          if (a[i] !== b[i]) return (a[i]! < b[i]! ? -1 : 1) * (sources[i]!.asc ? 1 : -1);
        return 0;
      };
      const afterKey = after ? sources.map((src) => after[src.sname]!) : undefined;
      const buckets = [...combos.values()]
        .filter((e) => !afterKey || cmp(e.key, afterKey) > 0)
        .sort((a, b) => cmp(a.key, b.key))
        .slice(0, body.size as number)
        .map((e) => ({
          key: Object.fromEntries(sources.map((src, i) => [src.sname, e.key[i]])),
          doc_count: e.count,
        }));
      out[name] = buckets.length > 0 ? { after_key: buckets[buckets.length - 1]!.key, buckets } : { buckets };
    } else if (type === 'date_histogram') {
      const counts = new Map<number, number>();
      for (const s of docs)
        for (const day of new Set(nums(s, 't').map((v) => Math.floor(v / DAY) * DAY)))
          counts.set(day, (counts.get(day) ?? 0) + 1);
      out[name] = {
        buckets: [...counts.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([key, doc_count]) => ({
            key_as_string: new Date(key).toISOString().replace('.000Z', '.000Z'),
            key,
            doc_count,
          })),
      };
    }
  }
  return out;
}

/** Java's Double.toString for the small numbers of these tests (a range key's bounds). */
function javaDouble(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}
