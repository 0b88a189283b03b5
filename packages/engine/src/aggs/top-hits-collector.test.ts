import { stringifyJson } from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate } from './aggs.test-support.ts';

type Hits = { hits: { hits: { _id: string; sort: unknown[] }[]; total: { value: number } } };

describe('top_hits on a shard', () => {
  it('property: the top-level loop over doc values picks the hits the per-doc path picks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 3 })), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 1, max: 5 }),
        (values, order, size) => {
          const docs: [string, Record<string, unknown>][] = values.map((v, i) => [
            String(i),
            v === null ? {} : { n: v, d: v.map((x) => (x + 100) * 86_400_000) },
          ]);
          const c = corpus({ n: { type: 'double' }, d: { type: 'date' } }, docs, 17);
          for (const field of ['n', 'd']) {
            const top = { top_hits: { size, sort: [{ [field]: order }], _source: false } };
            const out = JSON.parse(
              stringifyJson(aggregate(c, { top, f: { filter: { match_all: {} }, aggs: { top } } })),
            );
            const direct = (out.top as Hits).hits;
            const viaBucket = (out.f.top as Hits).hits;
            expect(direct.total.value).toBe(values.length);
            expect(direct.hits.map((h) => h._id)).toEqual(viaBucket.hits.map((h) => h._id));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
