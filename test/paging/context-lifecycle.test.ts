/**
 * Contexts leave nothing behind: 10,000 PIT and scroll open/close cycles end with the open
 * contexts where they started and the heap (measured after full collections) within noise, and contexts pin their segments
 * through refreshes and merges until they are closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { bulk, closePit, createIndex, ids, openPit, searchStats, walkPit } from './paging-support.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  // The memory report collects garbage in every thread before it measures.
  node = await startTestNode({ env: { SHOAL_MEMORY_REPORT: '1' } });
  url = node.url;
  await createIndex(url, 'cyc', { settings: { number_of_shards: 2 } });
  await bulk(
    url,
    'cyc',
    Array.from({ length: 50 }, (_, i) => [`c${i}`, { n: i }] as [string, Record<string, unknown>]),
  );
});
afterAll(async () => {
  await node?.stop();
});

/** The V8 heaps of the coordinator and every shard worker, after a full collection in each. */
async function heapUsed(): Promise<number> {
  const r = await http(url, 'GET', '/_internal/memory');
  return r.json.heap_used as number;
}

async function cycles(n: number, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        if (i % 2 === 0) {
          const pit = await openPit(url, 'cyc', '1m');
          const closed = await closePit(url, pit);
          if (closed.json.num_freed !== 2) throw new Error(`cycle ${i}: ${closed.text}`);
        } else {
          const s = await http(url, 'POST', '/cyc/_search?scroll=1m&size=1', undefined);
          const c = await http(url, 'DELETE', '/_search/scroll', { scroll_id: s.json._scroll_id });
          if (c.json.num_freed !== 2) throw new Error(`cycle ${i}: ${c.text}`);
        }
      }
    }),
  );
}

describe('context lifecycle', () => {
  it('10,000 open/close cycles leave open contexts and memory where they started', async () => {
    // Shards remember freed context ids for a while (at most 4,096 each, to tell expired from
    // closed): the warm-up fills those memories, so what follows measures the contexts alone.
    await cycles(9_000, 6);
    const before = await searchStats(url);
    const heapBefore = await heapUsed();
    await cycles(10_000, 6);
    const after = await searchStats(url);
    expect(after.open_contexts).toBe(before.open_contexts);
    expect(after.scroll_current).toBe(0);
    expect(after.scroll_total).toBe((before.scroll_total as number) + 10_000);
    const list = await http(url, 'GET', '/_search/point_in_time/_all');
    expect(list.json.pits).toEqual([]);
    // Measured after full collections: a context left behind by each cycle would show.
    const heapAfter = await heapUsed();
    expect(heapAfter - heapBefore).toBeLessThan(1024 * 1024);
  }, 180_000);

  it('an open PIT keeps reading its segments through refreshes, merges and deletes', async () => {
    const pit = await openPit(url, 'cyc');
    const before = ids(await walkPit(url, pit, { size: 8, sort: ['_shard_doc'] }));
    const deletes = Array.from({ length: 25 }, (_, i) => [`c${i}`, null] as [string, null]);
    await bulk(url, 'cyc', deletes);
    await bulk(url, 'cyc', [['late', { n: 99 }]]);
    await http(url, 'POST', '/cyc/_forcemerge?max_num_segments=1');
    const after = ids(await walkPit(url, pit, { size: 8, sort: ['_shard_doc'] }));
    expect(after).toEqual(before);
    expect(after).toHaveLength(50);
    await closePit(url, pit);
    const now = await http(url, 'POST', '/cyc/_search', { size: 100 });
    expect(now.json.hits.total.value).toBe(26);
  });
});
