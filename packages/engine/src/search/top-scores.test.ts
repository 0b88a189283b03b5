import type { QueryNode } from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShardQueryRequest } from '../contract.ts';
import { ShardEngine } from '../index/shard-engine.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { testMapping } from '../index/test-mapping.test-support.ts';
import { compileQuery } from './query-compiler.ts';
import { countQuery, queryShard } from './query-phase.ts';
import { ctx, q } from './test-corpus.test-support.ts';

const ACCURATE = 2147483647;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
const KEYWORDS = ['x', 'y', 'z'];
const enc = new TextEncoder();

interface Doc {
  t: string;
  u: string;
  k: string;
  n: number;
}

// Skewed word frequencies: the first words fill several postings blocks per segment.
const wordArb = fc
  .integer({ min: 0, max: 99 })
  .map((x) => WORDS[x < 40 ? 0 : x < 65 ? 1 : x < 80 ? 2 : x < 88 ? 3 : x < 94 ? 4 : x < 98 ? 5 : 6]!);
const textArb = fc.array(wordArb, { minLength: 1, maxLength: 9 }).map((w) => w.join(' '));
const docArb: fc.Arbitrary<Doc> = fc.record({
  t: textArb,
  u: textArb,
  k: fc.constantFrom(...KEYWORDS),
  n: fc.integer({ min: 0, max: 9 }),
});

const boostArb = fc.constantFrom(1, 1, 1, 2, 0.5, 3.7, 0, -1);
const phraseArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const msmArb = fc.constantFrom(undefined, undefined, '1', '2', '-1', '60%');

const leafArb: fc.Arbitrary<QueryNode> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('t', 'u'), phraseArb, msmArb, boostArb) }.arbitrary.map(
    ([field, text, msm, boost]) => q.match(field, text, { minimumShouldMatch: msm, boost }),
  ),
  fc.tuple(phraseArb, boostArb).map(([text, boost]) => q.match('t', text, { operator: 'and', boost })),
  fc.tuple(fc.constantFrom(...WORDS), boostArb).map(([w, boost]) => q.term('t', w, { boost })),
  fc.constantFrom(...KEYWORDS).map((w) => q.term('k', w)),
  fc.integer({ min: 0, max: 9 }).map((v) => q.range('n', { gte: v })),
  boostArb.map((b) => q.all(b)),
  phraseArb.map((text) => q.phrase('t', text)),
  fc
    .tuple(
      phraseArb,
      fc.constantFrom(0, 0, 0.3),
      fc.constantFrom('best_fields', 'best_fields', 'most_fields', 'cross_fields'),
      boostArb,
    )
    .map(([text, tieBreaker, matchType, boost]) =>
      q.multi(['t', 'u^2'], text, { tieBreaker, matchType, boost }),
    ),
);

// Many clauses: past the count whose bounds MaxScore adds up in clause order.
const manyClausesArb: fc.Arbitrary<QueryNode> = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(0.5, 1, 2, 3)), { minLength: 33, maxLength: 40 })
  .map((clauses) => q.bool({ should: clauses.map(([w, boost]) => q.term('t', w, { boost })) }));

const queryArb: fc.Arbitrary<QueryNode> = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    leafArb,
    manyClausesArb,
    fc.tuple(tie('node'), boostArb).map(([filter, boost]) => q.constant(filter, boost)),
    fc
      .record({
        must: fc.array(tie('node'), { maxLength: 2 }),
        filter: fc.array(tie('node'), { maxLength: 2 }),
        should: fc.array(tie('node'), { maxLength: 4 }),
        mustNot: fc.array(tie('node'), { maxLength: 1 }),
        msm: msmArb,
        boost: boostArb,
      })
      .map((b) => q.bool(b)),
  ),
})).node;

interface Setup {
  docs: Doc[];
  segmentEvery: number;
  deleted: number[];
  /** Docs indexed in the order of their text: each word's postings cluster in a doc range. */
  clustered: boolean;
}

// Corpora big enough for several postings blocks (128) per term and segment.
const setupArb: fc.Arbitrary<Setup> = fc
  .oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 200, max: 900 }))
  .chain((n) =>
    fc.record({
      docs: fc.array(docArb, { minLength: n, maxLength: n }),
      segmentEvery: fc.integer({ min: 40, max: 1000 }),
      deleted: fc.uniqueArray(fc.nat({ max: Math.max(0, n - 1) }), {
        maxLength: Math.floor(n / 4),
        size: 'max',
      }),
      clustered: fc.boolean(),
    }),
  );

function build(s: Setup) {
  const mapping = testMapping({
    t: { type: 'text' },
    u: { type: 'text' },
    k: { type: 'keyword' },
    n: { type: 'integer' },
  });
  const engine = new ShardEngine({ index: 'idx', indexUuid: 'uuid', shardId: 0, mapping });
  const docs = s.clustered ? [...s.docs].sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0)) : s.docs;
  docs.forEach((d, i) => {
    engine.write([{ op: 'index', id: String(i), source: enc.encode(JSON.stringify(d)), create: false }]);
    if ((i + 1) % s.segmentEvery === 0) engine.refresh();
  });
  engine.refresh();
  if (s.deleted.length > 0) {
    engine.write(s.deleted.map((i) => ({ op: 'delete' as const, id: String(i) })));
    engine.refresh();
  }
  return { engine, mapping, reader: engine.acquireReader() };
}

/** Every live match scored through the materialised form, best first, and the exact count. */
function exhaustive(reader: ShardReader, mapping: ReturnType<typeof build>['mapping'], query: QueryNode) {
  const weight = compileQuery(query, {
    reader,
    mapping,
    index: 'idx',
    indexUuid: 'uuid',
    nowMillis: ctx.nowMillis,
  });
  const all: { doc: number; score: number }[] = [];
  for (const rs of reader.segments) {
    const m = weight.matches(rs, true);
    const n = m.kind === 'all' ? rs.segment.maxDoc : m.docs.length;
    for (let i = 0; i < n; i++) {
      const d = m.kind === 'all' ? i : m.docs[i]!;
      if (!rs.liveDocs.isLive(d)) continue;
      const score = m.kind === 'all' ? m.score : (m.scores?.[i] ?? 0);
      all.push({ doc: rs.docBase + d, score });
    }
  }
  all.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return all;
}

describe('relevance top-k with dynamic pruning', () => {
  it('returns the exhaustive top k (same docs, scores, tie order), a valid total and the exact _count', () => {
    fc.assert(
      fc.property(
        setupArb,
        fc.array(
          fc.record({
            query: queryArb,
            k: fc.constantFrom(0, 1, 3, 10, 25),
            upTo: fc.constantFrom(-1, 0, 1, 7, 60, 10000, ACCURATE),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (setup, searches) => {
          const { engine, mapping, reader } = build(setup);
          try {
            for (const { query, k, upTo } of searches) {
              const expected = exhaustive(reader, mapping, query);
              const req: ShardQueryRequest = {
                query,
                sort: [],
                k,
                trackTotalHitsUpTo: upTo,
                trackScores: false,
                shardIndex: 0,
              };
              const { result, positions } = queryShard(reader, mapping, req, ctx);
              const top = expected.slice(0, k);
              // Bit-identical scores, except that -0 and 0 are the same score (both print 0).
              const z = (v: unknown) => (v as number) + 0;
              expect(positions.map((p) => [p.doc, z(p.values[0])])).toEqual(
                top.map((e) => [e.doc, z(e.score)]),
              );
              expect(result.hits.map((h) => z(Math.fround(h.score)))).toEqual(top.map((e) => z(e.score)));
              if (k > 0 && top.length > 0) expect(z(Math.fround(result.maxScore))).toBe(z(top[0]!.score));
              const exact = expected.length;
              expect(countQuery(reader, mapping, query, ctx)).toBe(exact);
              if (upTo === -1) {
                expect(result.totalHits).toBeLessThanOrEqual(exact);
              } else if (result.totalRelation === 'eq') {
                expect(result.totalHits).toBe(exact);
              } else {
                expect(exact).toBeGreaterThan(upTo);
                expect(result.totalHits).toBeGreaterThan(upTo);
                expect(result.totalHits).toBeLessThanOrEqual(exact);
              }
            }
          } finally {
            reader.release();
            engine.close?.();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('phrases skipped by their score bound', () => {
  // Few words, so that two-word phrases match often and the heap fills in the first segments;
  // the later segments are then entered with a threshold their phrase bound is checked against.
  // Each word at most once (the bench's summaries are such texts): the bound is then tight.
  const fewWordsArb = fc.oneof(
    fc
      .shuffledSubarray(['alpha', 'bravo', 'charlie', 'delta', 'echo'], { minLength: 4 })
      .map((w) => w.join(' ')),
    fc
      .shuffledSubarray(['alpha', 'bravo', 'charlie', 'delta', 'echo'], { minLength: 4 })
      .map((w) => w.join(' ')),
    fc
      .array(fc.constantFrom('alpha', 'bravo', 'charlie'), { minLength: 1, maxLength: 8 })
      .map((w) => w.join(' ')),
  );
  const phraseSetupArb = fc.record({
    docs: fc.array(
      fc.record({ t: fewWordsArb, u: fc.constant('x'), k: fc.constant('x'), n: fc.constant(0) }),
      { minLength: 50, maxLength: 400 },
    ),
    segmentEvery: fc.integer({ min: 20, max: 150 }),
    deleted: fc.uniqueArray(fc.nat({ max: 49 }), { maxLength: 5 }),
    clustered: fc.boolean(),
  });

  it('returns the exhaustive top k of a phrase on every segment layout', () => {
    fc.assert(
      fc.property(
        phraseSetupArb,
        fc.constantFrom(
          'alpha bravo',
          'bravo alpha',
          'alpha bravo charlie',
          'charlie delta',
          'charlie charlie',
        ),
        fc.constantFrom(1, 3, 10),
        fc.constantFrom(-1, 10, ACCURATE),
        (setup, text, k, upTo) => {
          const { reader, mapping } = build(setup);
          try {
            const query = q.phrase('t', text);
            const top = exhaustive(reader, mapping, query).slice(0, k);
            const req = { query, sort: [], k, trackTotalHitsUpTo: upTo, trackScores: false, shardIndex: 0 };
            const { positions } = queryShard(reader, mapping, req, ctx);
            expect(positions.map((p) => [p.doc, p.values[0]])).toEqual(top.map((e) => [e.doc, e.score]));
          } finally {
            reader.release();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('total hits as track_total_hits asks', () => {
  // 300 docs: "alpha" in every doc, "bravo" in every third; n = doc % 10.
  const docs: Doc[] = Array.from({ length: 300 }, (_, i) => ({
    t: i % 3 === 0 ? 'alpha bravo' : 'alpha',
    u: 'charlie',
    k: KEYWORDS[i % 3]!,
    n: i % 10,
  }));
  const setup = { docs, segmentEvery: 70, deleted: [3, 4, 5], clustered: false };
  const search = (query: QueryNode, upTo: number, k = 10) => {
    const { reader, mapping } = build(setup);
    const req = { query, sort: [], k, trackTotalHitsUpTo: upTo, trackScores: false, shardIndex: 0 };
    return queryShard(reader, mapping, req, ctx).result;
  };
  const bravoOrDelta = q.match('t', 'bravo delta');

  it('counts exactly up to the threshold, then reports a lower bound with gte', () => {
    expect(search(bravoOrDelta, 10000)).toMatchObject({ totalHits: 99, totalRelation: 'eq' });
    expect(search(bravoOrDelta, 99)).toMatchObject({ totalHits: 99, totalRelation: 'eq' });
    const capped = search(bravoOrDelta, 20);
    expect(capped.totalRelation).toBe('gte');
    expect(capped.totalHits).toBeGreaterThan(20);
    expect(capped.totalHits).toBeLessThanOrEqual(99);
  });

  it('takes counts the index already knows: live docs, and postings lengths without deletions', () => {
    expect(search(q.all(), 10)).toMatchObject({ totalHits: 297, totalRelation: 'eq' });
    // With deletions, a term's postings length minus the deleted docs still proves > 50.
    const t = search(q.term('t', 'alpha'), 50);
    expect(t.totalRelation).toBe('gte');
    expect(t.totalHits).toBeGreaterThan(50);
    expect(search(q.term('t', 'alpha'), 2147483647)).toMatchObject({ totalHits: 297, totalRelation: 'eq' });
  });

  it('counts filters and conjunctions exactly when asked', () => {
    const bool = q.bool({ must: [q.match('t', 'bravo')], filter: [q.range('n', { gte: 5 })] });
    const expected = docs.filter((d, i) => i % 3 === 0 && d.n >= 5 && ![3, 4, 5].includes(i)).length;
    expect(search(bool, 2147483647)).toMatchObject({ totalHits: expected, totalRelation: 'eq' });
    expect(search(bool, 2147483647, 0)).toMatchObject({ totalHits: expected, totalRelation: 'eq' });
  });

  it('has no max_score for size 0, as Elasticsearch', () => {
    expect(search(bravoOrDelta, 10000, 0).maxScore).toBeNaN();
  });
});
