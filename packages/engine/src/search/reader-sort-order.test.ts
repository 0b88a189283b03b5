import type { SortSpec } from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShardEngine } from '../index/shard-engine.ts';
import { testMapping } from '../index/test-mapping.test-support.ts';
import { executeQuery } from './query-phase.ts';
import { MIN_USES } from './reader-sort-order.ts';
import { ctx } from './test-corpus.test-support.ts';

const enc = new TextEncoder();

/**
 * A shard of several segments (a refresh every `every` docs) with some docs deleted after their
 * segment was written; `values[i]` is doc i's `d` (null: no value).
 */
function shard(values: (number | null)[], every: number, deleted: Set<number>) {
  const mapping = testMapping({ d: { type: 'double' } }, false);
  const engine = new ShardEngine({ index: 'idx', indexUuid: 'uuid', shardId: 0, mapping });
  values.forEach((v, i) => {
    const source = enc.encode(JSON.stringify(v === null ? {} : { d: v }));
    engine.write([{ op: 'index', id: String(i), source, create: false }]);
    if ((i + 1) % every === 0) engine.refresh();
  });
  engine.refresh();
  for (const i of deleted) engine.write([{ op: 'delete', id: String(i) }]);
  engine.refresh();
  return { engine, mapping, reader: engine.acquireReader() };
}

describe("a reader's merged sort order", () => {
  it('gives, once built, the same pages as merging the segments, for every direction and missing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: -4, max: 4 }), { nil: null }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 45 }),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.constantFrom<'_first' | '_last'>('_first', '_last'),
        fc.boolean(),
        (values, every, deleteEvery, k, order, missing, tiebreak) => {
          const deleted = new Set(values.flatMap((_, i) => (i % deleteEvery === 1 ? [i] : [])));
          const { mapping, reader } = shard(values, every, deleted);
          const sort: SortSpec[] = [{ kind: 'field', field: 'd', order, missing }];
          if (tiebreak) sort.push({ kind: 'doc', order: 'asc' });
          const search = () =>
            executeQuery(
              reader,
              mapping,
              {
                query: { type: 'match_all', boost: 1 },
                sort,
                k,
                trackTotalHitsUpTo: 10_000,
                trackScores: false,
                shardIndex: 0,
              },
              ctx,
            );
          const pages = Array.from({ length: MIN_USES + 2 }, search);
          // The first pages merge the segments' streams; the last ones read the merged order.
          for (const p of pages) {
            expect(p.hits.map((h) => [h.doc, h.sort])).toEqual(pages[0]!.hits.map((h) => [h.doc, h.sort]));
            expect(p.totalHits).toBe(values.length - deleted.size);
          }
          // And its values are those of the live docs sorted in plain JS (missing at its end).
          const live = values.filter((_, i) => !deleted.has(i));
          const rank = (v: number | null) =>
            v === null ? (missing === '_first' ? -Infinity : Infinity) : order === 'asc' ? v : -v;
          live.sort((a, b) => rank(a) - rank(b));
          const expected = live.slice(0, k).map((v) => (v === null ? null : v));
          const got = pages.at(-1)!.hits.map((h) => {
            const v = h.sort[0];
            return typeof v === 'number' && Number.isFinite(v) ? v : null;
          });
          expect(got).toEqual(expected);
          reader.release();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps one order per sort: a reader serving several, in turn, gives each its own pages', () => {
    const values = Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? null : ((i * 37) % 23) - 11));
    const { mapping, reader } = shard(values, 8, new Set([5, 17]));
    const sorts: SortSpec[][] = [];
    for (const order of ['asc', 'desc'] as const)
      for (const missing of ['_first', '_last'] as const)
        for (const mode of ['min', 'max'] as const)
          sorts.push([{ kind: 'field', field: 'd', order, missing, mode }]);
    const search = (sort: SortSpec[]) =>
      executeQuery(
        reader,
        mapping,
        {
          query: { type: 'match_all', boost: 1 },
          sort,
          k: 12,
          trackTotalHitsUpTo: 10_000,
          trackScores: false,
          shardIndex: 0,
        },
        ctx,
      ).hits.map((h) => [h.doc, h.sort]);
    const firsts = sorts.map(search);
    // Every sort in turn, past the uses that build each one's order.
    for (let round = 0; round < MIN_USES + 2; round++) {
      for (let i = 0; i < sorts.length; i++) expect(search(sorts[i]!)).toEqual(firsts[i]);
    }
    reader.release();
  });
});
