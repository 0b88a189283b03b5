import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SortSpec } from '../sort-spec.ts';
import { mergeTopHits, type TopHit, type TopHitsPartial } from './top-hits.ts';

const hit = (index: string, doc: number, sort: (number | null)[], score = Number.NaN): TopHit => ({
  index,
  id: `${index}-${doc}`,
  score,
  sort,
  display: sort,
  doc,
});

const shard = (hits: TopHit[], total: number, maxScore = Number.NaN): TopHitsPartial => ({
  t: 'top_hits',
  total,
  maxScore,
  hits,
  floatingKeys: 0,
});

describe('top_hits merge', () => {
  it('keeps the best by the sort, missing values last, ties by index then doc', () => {
    const sort: SortSpec[] = [{ kind: 'field', field: 'p', order: 'desc', missing: '_last' }];
    const merged = mergeTopHits(sort, 3, [
      shard([hit('b', 1, [5]), hit('b', 2, [null])], 4),
      shard([hit('a', 7, [5]), hit('a', 3, [9])], 2),
    ]);
    expect(merged.total).toBe(6);
    expect(merged.hits.map((h) => h.id)).toEqual(['a-3', 'a-7', 'b-1']);
  });

  it('property: merging shards in any grouping keeps the same best hits', () => {
    const sort: SortSpec[] = [{ kind: 'score', order: 'desc' }];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        (shards, keep) => {
          const parts = shards.map((scores, s) =>
            mergeTopHits(sort, keep, [
              shard(
                scores.map((x, d) => hit(`i${s}`, d, [x], x)),
                scores.length,
              ),
            ]),
          );
          const all = mergeTopHits(sort, keep, parts);
          const stepwise = parts.reduce((acc, p) => mergeTopHits(sort, keep, [acc, p]));
          expect(stepwise.hits.map((h) => h.id)).toEqual(all.hits.map((h) => h.id));
          const best = shards
            .flat()
            .sort((a, b) => b - a)
            .slice(0, keep);
          expect(all.hits.map((h) => h.sort[0])).toEqual(best);
        },
      ),
    );
  });
});
