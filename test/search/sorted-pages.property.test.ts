/**
 * Property: over random documents on several shards, every from/size page of every random sort
 * (ties and missing values included) equals the same slice of the whole corpus sorted in plain JS.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

interface Doc {
  id: string;
  n?: number;
  k?: string;
  d?: number;
}

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const docArb = fc.record(
  {
    n: fc.integer({ min: -5, max: 5 }),
    k: fc.constantFrom('a', 'b', 'c', 'dd', 'e'),
    d: fc
      .double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true })
      .map((x) => Math.round(x * 4) / 4),
  },
  { requiredKeys: [] },
);

type Key = { field: 'n' | 'k' | 'd'; order: 'asc' | 'desc'; missing: '_first' | '_last' };
const keyArb = fc.record({
  field: fc.constantFrom('n' as const, 'k' as const, 'd' as const),
  order: fc.constantFrom('asc' as const, 'desc' as const),
  missing: fc.constantFrom('_first' as const, '_last' as const),
});

function compare(a: Doc, b: Doc, keys: Key[]): number {
  for (const key of keys) {
    const x = a[key.field];
    const y = b[key.field];
    if (x === undefined || y === undefined) {
      if (x === undefined && y === undefined) continue;
      const missingFirst = key.missing === '_first';
      return (x === undefined ? 1 : -1) * (missingFirst ? -1 : 1);
    }
    const c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return key.order === 'desc' ? -c : c;
  }
  return 0;
}

let round = 0;

describe('from/size pages over random corpora and sorts', () => {
  it('equal the same slice of the corpus sorted in JS', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArb, { minLength: 1, maxLength: 60 }),
        fc.array(keyArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 1, max: 4 }),
        async (raw, keys, from, size, shards) => {
          const index = `prop-${round++}`;
          const docs: Doc[] = raw.map((d, i) => ({ id: `d${i}`, ...d }));
          await http(node.url, 'PUT', `/${index}`, {
            settings: { number_of_shards: shards },
            mappings: {
              properties: {
                n: { type: 'long' },
                k: { type: 'keyword' },
                d: { type: 'double' },
                id: { type: 'keyword' },
              },
            },
          });
          const bulk = await http(
            node.url,
            'POST',
            `/${index}/_bulk?refresh=true`,
            ndjson(docs.flatMap((d) => [{ index: { _id: d.id } }, d])),
          );
          expect(bulk.json.errors).toBe(false);
          // A unique last key makes the expected order total, so pages are deterministic.
          const sort = [
            ...keys.map((k) => ({ [k.field]: { order: k.order, missing: k.missing } })),
            { id: 'asc' },
          ];
          const r = await http(node.url, 'POST', `/${index}/_search`, { from, size, sort });
          expect(r.status).toBe(200);
          const expected = [...docs]
            .sort((a, b) => compare(a, b, keys) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(from, from + size)
            .map((d) => d.id);
          expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(expected);
          expect(r.json.hits.total).toEqual({ value: docs.length, relation: 'eq' });
          await http(node.url, 'DELETE', `/${index}`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
