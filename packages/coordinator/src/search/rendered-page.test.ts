import type { ShardQueryResult } from '@shoal/engine';
import type { SortSpec } from '@shoal/protocol';
import { PackedCursor, packHits, type RenderedHits } from '@shoal/shard';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hitComparator, type MergeHit, mergeTopHits } from './merge.ts';
import { concatRenderedPage } from './rendered-page.ts';

const enc = new TextEncoder();

/**
 * One shard's sorted hits, packed with their rendered JSON as a shard writes it, each after a
 * comma (`,{"_index":"<index>","_id":"<shard>-<doc>"}`).
 */
function shard(shardIndex: number, keys: { doc: number; v: number | null }[], sort: SortSpec[]) {
  const index = `idx-${shardIndex % 2}`;
  const cmp = hitComparator(sort);
  const hits: MergeHit[] = keys.map(({ doc, v }) => ({ doc, score: Number.NaN, sort: [v, doc], shardIndex }));
  hits.sort(cmp);
  const parts = hits.map((h) => `,{"_index":"${index}","_id":"${shardIndex}-${h.doc}"}`);
  const ends = new Uint32Array(parts.length + 1);
  for (let i = 0; i < parts.length; i++) ends[i + 1] = ends[i]! + enc.encode(parts[i]!).length;
  const rendered: RenderedHits = { bytes: enc.encode(parts.join('')), ends };
  const result: ShardQueryResult = {
    totalHits: hits.length,
    totalRelation: 'eq',
    maxScore: Number.NaN,
    hits,
  };
  return { hits, reply: packHits(result, shardIndex, undefined, rendered), shardIndex };
}

describe('a page of rendered hits', () => {
  it('has the hits a merge of hit objects picks, in the same order, and counts each shard', () => {
    const order = fc.constantFrom<'asc' | 'desc'>('asc', 'desc');
    const value = fc.option(fc.integer({ min: -3, max: 3 }), { nil: null });
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { maxLength: 30 }), { minLength: 1, maxLength: 4 }),
        order,
        fc.constantFrom<'_first' | '_last'>('_first', '_last'),
        fc.integer({ min: 1, max: 80 }),
        (lists, dir, missing, size) => {
          const sort: SortSpec[] = [
            { kind: 'field', field: 'v', order: dir, missing },
            { kind: 'doc', order: 'asc' },
          ];
          const shards = lists.map((vs, s) =>
            shard(
              s,
              vs.map((v, doc) => ({ doc, v })),
              sort,
            ),
          );
          const expected = mergeTopHits(
            shards.map((s) => s.hits),
            hitComparator(sort),
            0,
            size,
          );
          const page = concatRenderedPage(
            shards.map((s) => new PackedCursor(s.reply, s.shardIndex)),
            hitComparator(sort),
            size,
          );
          const bytes = new Uint8Array(page.hits.byteLength + 4);
          page.hits.writeTo(bytes, 2);
          const json = JSON.parse(Buffer.from(bytes.subarray(2, 2 + page.hits.byteLength)).toString()) as {
            _index: string;
            _id: string;
          }[];
          expect(json.map((h) => h._id)).toEqual(expected.map((h) => `${h.shardIndex}-${h.doc}`));
          expect(json.map((h) => h._index)).toEqual(expected.map((h) => `idx-${h.shardIndex % 2}`));
          for (const s of shards) {
            expect(page.consumed.get(s.shardIndex)).toBe(
              expected.filter((h) => h.shardIndex === s.shardIndex).length,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
