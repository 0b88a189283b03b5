import type { QueryNode, SortSpec } from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShardEngine } from '../index/shard-engine.ts';
import { testMapping } from '../index/test-mapping.test-support.ts';
import { executeQuery } from './query-phase.ts';
import { ctx, q, sortBy } from './test-corpus.test-support.ts';

interface Doc {
  n?: number[];
  tag?: string[];
  d?: number;
}

const docArb: fc.Arbitrary<Doc> = fc.record(
  {
    n: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 3 }),
    tag: fc.array(fc.constantFrom('a', 'b', 'c', 'dd'), { minLength: 1, maxLength: 2 }),
    d: fc.double({ min: -10, max: 10, noNaN: true }),
  },
  { requiredKeys: [] },
);

const sortArb: fc.Arbitrary<SortSpec[]> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('n', 'tag', 'd'),
      fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      fc.constantFrom('_last', '_first'),
      fc.boolean(),
    )
    .map(([f, order, missing, tiebreak]) => {
      const s: SortSpec[] = [sortBy.field(f, order, { missing })];
      if (tiebreak) s.push(sortBy.doc());
      return s;
    }),
  fc.constantFrom<'asc' | 'desc'>('asc', 'desc').map((o) => [sortBy.doc(o)]),
);

const queryArb: fc.Arbitrary<{ node: QueryNode; test: (d: Doc) => boolean }> = fc.oneof(
  fc.constant({ node: q.all(), test: () => true }),
  fc.integer({ min: -5, max: 5 }).map((v) => ({
    node: q.range('n', { gte: v }),
    test: (d: Doc) => (d.n ?? []).some((x) => x >= v),
  })),
  fc.constantFrom('a', 'b').map((t) => ({
    node: q.bool({ filter: [q.term('tag', t)] }),
    test: (d: Doc) => (d.tag ?? []).includes(t),
  })),
);

type Key = number | string | undefined;

function keyOf(d: Doc, spec: SortSpec, doc: number): Key {
  if (spec.kind === 'doc') return doc;
  if (spec.kind !== 'field') throw new Error('unexpected');
  const raw =
    spec.field === 'd'
      ? d.d === undefined
        ? []
        : [d.d]
      : ((d as Record<string, (number | string)[] | undefined>)[spec.field] ?? []);
  if (raw.length === 0) return undefined;
  const sorted = [...raw].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return spec.order === 'desc' ? sorted[sorted.length - 1] : sorted[0];
}

function compareKeys(a: Key[], b: Key[], specs: SortSpec[]): number {
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i]!;
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) {
      if (x === y) continue;
      const first = s.kind === 'field' && s.missing === '_first';
      return (x === undefined) === first ? -1 : 1;
    }
    const c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return s.order === 'desc' ? -c : c;
  }
  return 0;
}

describe('top-k against a brute-force sort', () => {
  // trackScores with a filter query takes the generic heap path; without it, field sorts take
  // the sorted-permutation fast path and match_all with _doc the doc-order one.
  it('returns the same page as sorting every matching live doc', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 15 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        sortArb,
        queryArb,
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.boolean(),
        (docs, every, deletes, sort, query, k, afterAt, trackScores) => {
          const mapping = testMapping(
            { n: { type: 'integer' }, tag: { type: 'keyword' }, d: { type: 'double' } },
            false,
          );
          const engine = new ShardEngine({ index: 'idx', indexUuid: 'u', shardId: 0, mapping });
          const enc = new TextEncoder();
          docs.forEach((d, i) => {
            engine.write([
              { op: 'index', id: String(i), source: enc.encode(JSON.stringify(d)), create: false },
            ]);
            if ((i + 1) % every === 0) engine.refresh();
          });
          for (const x of deletes)
            if (docs.length > 0) engine.write([{ op: 'delete', id: String(x % docs.length) }]);
          engine.refresh();
          const reader = engine.acquireReader();
          const entries: { id: number; doc: number; keys: Key[] }[] = [];
          for (const rs of reader.segments) {
            for (let local = 0; local < rs.segment.maxDoc; local++) {
              if (!rs.liveDocs.isLive(local)) continue;
              const id = Number(rs.segment.stored.ids[local]);
              const d = docs[id]!;
              if (!query.test(d)) continue;
              const doc = rs.docBase + local;
              entries.push({ id, doc, keys: sort.map((s) => keyOf(d, s, doc)) });
            }
          }
          entries.sort((a, b) => compareKeys(a.keys, b.keys, sort) || a.doc - b.doc);
          const req = {
            query: query.node,
            sort,
            k: entries.length + 1,
            trackTotalHitsUpTo: 10000,
            trackScores,
            shardIndex: 0,
          };
          const full = executeQuery(reader, mapping, req, ctx);
          expect(full.totalHits).toBe(entries.length);
          expect(full.hits.map((h) => h.doc)).toEqual(entries.map((e) => e.doc));
          const page = executeQuery(reader, mapping, { ...req, k }, ctx);
          expect(page.hits.map((h) => h.doc)).toEqual(entries.slice(0, k).map((e) => e.doc));
          if (afterAt !== undefined && full.hits.length > 0) {
            const at = afterAt % full.hits.length;
            const after = full.hits[at]!.sort;
            const pos = entries.findIndex((e) => compareKeys(e.keys, entries[at]!.keys, sort) > 0);
            const expected = pos < 0 ? [] : entries.slice(pos, pos + k);
            const next = executeQuery(reader, mapping, { ...req, k, searchAfter: after }, ctx);
            expect(next.hits.map((h) => h.doc)).toEqual(expected.map((e) => e.doc));
          }
          reader.release();
        },
      ),
      { numRuns: 400 },
    );
  });
});
