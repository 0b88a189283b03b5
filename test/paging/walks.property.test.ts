/**
 * Properties over random corpora on several shards, with index, update and delete operations
 * (and refreshes, and force merges where the node has them) running concurrently with the
 * walk's requests:
 * - a PIT walk with search_after returns exactly the PIT-time snapshot, each document once,
 *   in sort order;
 * - a scroll walk likewise;
 * - the union of N slices (scroll and PIT, with and without `field`) equals the unsliced walk,
 *   and the slices are disjoint.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import {
  clearScroll,
  closePit,
  createIndex,
  type Hit,
  type Json,
  openPit,
  walkPit,
  walkScroll,
} from './paging-support.ts';

let node: TestNode;
let url: string;
beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
});
afterAll(async () => {
  await node?.stop();
});

interface Doc {
  n?: number;
  k?: string;
}
const docArb: fc.Arbitrary<Doc> = fc.record(
  { n: fc.integer({ min: -4, max: 4 }), k: fc.constantFrom('a', 'b', 'cc', 'd') },
  { requiredKeys: [] },
);
const corpusArb = fc.array(docArb, { minLength: 1, maxLength: 90 });
const opArb = fc.oneof(
  fc.record({ op: fc.constant('index' as const), id: fc.nat(200), doc: docArb }),
  fc.record({ op: fc.constant('delete' as const), id: fc.nat(120) }),
);
const sortArb = fc.constantFrom<Json[]>(
  [{ n: { order: 'asc' } }],
  [{ n: { order: 'desc', missing: '_first' } }],
  [{ k: 'asc' }, { n: 'desc' }],
  [{ _shard_doc: 'asc' }],
  [{ _shard_doc: 'desc' }],
);

let round = 0;

async function setUp(shards: number, docs: Doc[]): Promise<{ index: string; snapshot: Map<string, Doc> }> {
  const index = `walk-${round++}`;
  await createIndex(url, index, {
    settings: { number_of_shards: shards, refresh_interval: -1 },
    mappings: { properties: { n: { type: 'integer' }, k: { type: 'keyword' } } },
  });
  const lines = docs.flatMap((d, i) => [{ index: { _index: index, _id: `d${i}` } }, d]);
  const r = await http(url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors).toBe(false);
  return { index, snapshot: new Map(docs.map((d, i) => [`d${i}`, d])) };
}

/** Writes that run while the walk goes on: a bulk, then sometimes a refresh or a force merge. */
function writer(index: string, ops: fc.Arbitrary<{ op: 'index' | 'delete'; id: number; doc?: Doc }[]>) {
  const batches = fc.sample(ops, 40);
  let i = 0;
  return async () => {
    const batch = batches[i++ % batches.length]!;
    const lines = batch.flatMap((o): unknown[] =>
      o.op === 'index'
        ? [{ index: { _index: index, _id: `d${o.id}` } }, o.doc ?? {}]
        : [{ delete: { _index: index, _id: `d${o.id}` } }],
    );
    if (lines.length > 0) {
      await http(url, 'POST', '/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    }
    await http(url, 'POST', `/${index}/_refresh`);
    if (i % 3 === 0) await http(url, 'POST', `/${index}/_forcemerge?max_num_segments=1`);
  };
}

/** Runs `write` concurrently with each next page request (not awaited before it). */
function concurrently(write: () => Promise<void>) {
  let pending: Promise<void> = Promise.resolve();
  const between = async () => {
    await pending;
    pending = write();
  };
  return { between, settle: () => pending };
}

function checkSnapshot(hits: Hit[], snapshot: Map<string, Doc>) {
  const seen = hits.map((h) => h._id);
  expect(new Set(seen).size).toBe(seen.length);
  expect([...seen].sort()).toEqual([...snapshot.keys()].sort());
  for (const h of hits) expect(h._source).toEqual(snapshot.get(h._id));
}

/** Consecutive sort arrays strictly increase under the sort (the last key breaks every tie). */
function checkOrder(hits: Hit[], sort: Json[]) {
  const order = sort.map((s) => {
    const [field, spec] = Object.entries(s)[0]!;
    const o = typeof spec === 'string' ? spec : (spec as { order: string }).order;
    const missingFirst = typeof spec === 'object' && (spec as { missing?: string }).missing === '_first';
    return { field, desc: o === 'desc', missingFirst };
  });
  const cmp = (a: unknown[], b: unknown[]) => {
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x === y) continue;
      const desc = order[i]?.desc ?? false;
      if (x === null || y === null) return x === null ? 1 : -1;
      const c = (x as number) < (y as number) ? -1 : 1;
      return desc ? -c : c;
    }
    return 0;
  };
  for (let i = 1; i < hits.length; i++) expect(cmp(hits[i - 1]!.sort!, hits[i]!.sort!)).toBe(-1);
}

const RUNS = 5;

describe('paging walks over random corpora with concurrent writes', () => {
  it('a PIT walk with search_after returns exactly the PIT-time snapshot, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        corpusArb,
        sortArb,
        fc.integer({ min: 1, max: 15 }),
        async (shards, docs, sort, size) => {
          const { index, snapshot } = await setUp(shards, docs);
          const pit = await openPit(url, index);
          const write = writer(index, fc.array(opArb, { minLength: 1, maxLength: 8 }));
          await write();
          const w = concurrently(write);
          const hits = await walkPit(url, pit, { size, sort }, w.between);
          await w.settle();
          checkSnapshot(hits, snapshot);
          checkOrder(hits, sort);
          expect((await closePit(url, pit)).json.num_freed).toBe(shards);
          await http(url, 'DELETE', `/${index}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a scroll walk returns exactly the snapshot of its start, each document once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        corpusArb,
        fc.constantFrom<unknown[] | undefined>(undefined, ['_doc'], [{ n: 'asc' }], [{ k: 'desc' }]),
        fc.integer({ min: 1, max: 15 }),
        async (shards, docs, sort, size) => {
          const { index, snapshot } = await setUp(shards, docs);
          const w = concurrently(writer(index, fc.array(opArb, { minLength: 1, maxLength: 8 })));
          const body: Json = sort ? { size, sort } : { size };
          const { hits, totals, scrollId } = await walkScroll(url, `/${index}/_search`, body, w.between);
          await w.settle();
          checkSnapshot(hits, snapshot);
          for (const t of totals) expect(t).toEqual({ value: snapshot.size, relation: 'eq' });
          await clearScroll(url, scrollId);
          await http(url, 'DELETE', `/${index}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the union of N slices equals the unsliced walk, and slices are disjoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        corpusArb,
        fc.integer({ min: 2, max: 6 }),
        fc.constantFrom<string | undefined>(undefined, 'n'),
        fc.boolean(),
        async (shards, docs, max, field, usePit) => {
          const { index, snapshot } = await setUp(shards, docs);
          const w = concurrently(writer(index, fc.array(opArb, { minLength: 1, maxLength: 6 })));
          const pit = usePit ? await openPit(url, index) : undefined;
          const sliceOf = (id: number): Json => (field ? { id, max, field } : { id, max });
          const slices: Hit[][] = [];
          if (pit) {
            for (let id = 0; id < max; id++) {
              slices.push(
                await walkPit(url, pit, { size: 6, sort: ['_shard_doc'], slice: sliceOf(id) }, w.between),
              );
            }
          } else {
            // Every slice starts before any write, as parallel workers would; then each is
            // continued to its end while the writes go on.
            const starts = [];
            for (let id = 0; id < max; id++) {
              const r = await http(url, 'POST', `/${index}/_search?scroll=1m`, {
                size: 6,
                sort: ['_doc'],
                slice: sliceOf(id),
              });
              expect(r.status, r.text).toBe(200);
              starts.push(r.json);
            }
            for (const first of starts) {
              const hits: Hit[] = [...first.hits.hits];
              let scrollId = first._scroll_id as string;
              let last = hits.length;
              while (last > 0) {
                await w.between();
                const r = await http(url, 'POST', '/_search/scroll', { scroll_id: scrollId, scroll: '1m' });
                expect(r.status, r.text).toBe(200);
                scrollId = r.json._scroll_id;
                hits.push(...r.json.hits.hits);
                last = r.json.hits.hits.length;
              }
              slices.push(hits);
              await clearScroll(url, scrollId);
            }
          }
          await w.settle();
          const union = slices.flat();
          checkSnapshot(union, snapshot);
          if (pit) await closePit(url, pit);
          await http(url, 'DELETE', `/${index}`);
        },
      ),
      { numRuns: RUNS + 1 },
    );
  });
});
