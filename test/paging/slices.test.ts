/**
 * Sliced scroll and sliced PIT end to end: shard-level assignment (paging.md §5.2), the
 * partition inside a shard by _id hash, by doc id (PIT) and by a numeric field, the union and
 * disjointness of slices, and the slice errors (YAML scroll/12_slices.yml).
 */
import { routingHash } from '@shoal/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import {
  bulk,
  clearScroll,
  closePit,
  createIndex,
  errorOf,
  type Hit,
  ids,
  openPit,
  search,
  walkPit,
  walkScroll,
} from './paging-support.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  await createIndex(url, 'yaml', {
    settings: { number_of_shards: 5, number_of_routing_shards: 5 },
    mappings: { properties: { foo: { type: 'integer' } } },
  });
  await bulk(url, 'yaml', [
    ['1', { foo: 1 }],
    ['2', { foo: 2 }],
    ['3', { foo: 3 }],
    ['4', { foo: 4 }],
  ]);
  await createIndex(url, 'two', {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: { n: { type: 'long' }, d: { type: 'double' }, k: { type: 'keyword' }, t: { type: 'text' } },
    },
  });
  await bulk(
    url,
    'two',
    Array.from(
      { length: 120 },
      (_, i) =>
        [`doc-${i}`, i % 11 === 0 ? { k: 'x' } : { n: i * 7919, d: i / 3, k: `k${i}` }] as [
          string,
          Record<string, unknown>,
        ],
    ),
  );
});
afterAll(async () => {
  await node?.stop();
});

async function sliceFilterMemory(): Promise<number> {
  const r = await http(url, 'GET', '/_nodes/stats');
  const n = Object.values(r.json.nodes as Record<string, { search_contexts: Record<string, number> }>)[0]!;
  return n.search_contexts.slice_filter_memory_in_bytes!;
}

describe('sliced scroll (YAML scroll/12_slices)', () => {
  it('slices whole shards when there are fewer slices than shards', async () => {
    const s0 = await search(url, '/yaml/_search?scroll=1m', { slice: { id: 0, max: 2 }, sort: ['foo'] });
    expect(s0.status, s0.text).toBe(200);
    const s1 = await search(url, '/yaml/_search?scroll=1m', { slice: { id: 1, max: 2 }, sort: ['foo'] });
    // Slice i holds the shards whose index % 2 == i; which docs those are follows the routing.
    const shardOf = (id: string) => ((routingHash(id) % 5) + 5) % 5;
    const expect0 = ['1', '2', '3', '4'].filter((id) => shardOf(id) % 2 === 0);
    expect(ids(s0.json.hits.hits)).toEqual(expect0);
    expect(ids(s1.json.hits.hits)).toEqual(['1', '2', '3', '4'].filter((id) => !expect0.includes(id)));
    expect(s0.json.hits.total.value + s1.json.hits.total.value).toBe(4);
    await clearScroll(url, s0.json._scroll_id);
    await clearScroll(url, s1.json._scroll_id);
  });

  it('with doc values: slice.field', async () => {
    const s0 = await search(url, '/yaml/_search?scroll=1m', { slice: { field: 'foo', id: 0, max: 2 } });
    const s1 = await search(url, '/yaml/_search?scroll=1m', { slice: { field: 'foo', id: 1, max: 2 } });
    expect(s0.status, s0.text).toBe(200);
    expect(s0.json.hits.total.value + s1.json.hits.total.value).toBe(4);
    await clearScroll(url, s0.json._scroll_id);
    await clearScroll(url, s1.json._scroll_id);
  });

  it('refuses invalid slices, and max above index.max_slices_per_scroll', async () => {
    const big = await search(url, '/yaml/_search?scroll=1m', { slice: { id: 0, max: 1025 } });
    expect(errorOf(big)).toMatchObject({
      status: 400,
      type: 'search_phase_execution_exception',
      root: 'illegal_argument_exception',
      reason:
        'The number of slices [1025] is too large. It must be less than [1024]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.',
    });
    const put = await http(url, 'PUT', '/yaml/_settings', { index: { max_slices_per_scroll: 1025 } });
    expect(put.status, put.text).toBe(200);
    const ok = await search(url, '/yaml/_search?scroll=1m', { slice: { id: 0, max: 1025 } });
    expect(ok.status, ok.text).toBe(200);
    await clearScroll(url, ok.json._scroll_id);

    const idGeMax = await search(url, '/yaml/_search?scroll=1m', { slice: { id: 2, max: 2 } });
    expect(errorOf(idGeMax)).toMatchObject({ status: 400, type: 'x_content_parse_exception' });
    expect(idGeMax.json.error.caused_by.reason).toBe('max must be greater than id');
    const maxOne = await search(url, '/yaml/_search?scroll=1m', { slice: { id: 0, max: 1 } });
    expect(maxOne.json.error.caused_by.reason).toBe('max must be greater than 1');
    const noScroll = await search(url, '/yaml/_search', { slice: { id: 0, max: 2 } });
    expect(noScroll.json.error.reason).toBe(
      'Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;',
    );
    const unmapped = await search(url, '/two/_search?scroll=1m', { slice: { field: 'nope', id: 0, max: 4 } });
    expect(errorOf(unmapped)).toMatchObject({ status: 400, reason: 'field nope not found' });
    const keyword = await search(url, '/two/_search?scroll=1m', { slice: { field: 'k', id: 0, max: 4 } });
    expect(errorOf(keyword)).toMatchObject({ status: 400, reason: 'cannot load numeric doc values on k' });
    const text = await search(url, '/two/_search?scroll=1m', { slice: { field: 't', id: 0, max: 4 } });
    expect(errorOf(text)).toMatchObject({ status: 400, reason: 'cannot load numeric doc values on t' });
    const pit = await openPit(url, 'two');
    const byId = await search(url, '/_search', { pit: { id: pit }, slice: { field: '_id', id: 0, max: 4 } });
    expect(errorOf(byId)).toMatchObject({
      status: 400,
      reason: 'cannot slice on [_id] when using [point-in-time]',
    });
    await closePit(url, pit);
  });
});

describe('the union of the slices is the unsliced result', () => {
  const walkSlicedScroll = async (max: number, field?: string) => {
    const slices: Hit[][] = [];
    for (let id = 0; id < max; id++) {
      const slice = field ? { id, max, field } : { id, max };
      const w = await walkScroll(url, '/two/_search', { size: 7, sort: ['_doc'], slice });
      slices.push(w.hits);
      await clearScroll(url, w.scrollId);
    }
    return slices;
  };

  const checkPartition = (slices: Hit[][], all: string[]) => {
    const union = slices.flatMap((s) => ids(s));
    expect(new Set(union).size).toBe(union.length);
    expect([...union].sort()).toEqual([...all].sort());
  };

  it('scroll: 2 shards and 4 slices read slices 0, 2 from the first shard, 1, 3 from the second', async () => {
    const whole = await walkScroll(url, '/two/_search', { size: 50, sort: ['_doc'] });
    await clearScroll(url, whole.scrollId);
    const all = ids(whole.hits);
    expect(all).toHaveLength(120);
    const slices = await walkSlicedScroll(4);
    checkPartition(slices, all);
    const shardOf = (id: string) => (((routingHash(id) % 1024) + 1024) % 1024) >> 9;
    for (let i = 0; i < 4; i++) {
      expect(slices[i]!.length).toBeGreaterThan(0);
      expect(new Set(ids(slices[i]!).map(shardOf))).toEqual(new Set([i % 2]));
    }
    checkPartition(await walkSlicedScroll(3), all);
    checkPartition(await walkSlicedScroll(5, 'n'), all);
    checkPartition(await walkSlicedScroll(2, 'd'), all);
  });

  it('PIT: by doc id ranges, and by field', async () => {
    const pit = await openPit(url, 'two');
    const all = ids(await walkPit(url, pit, { size: 25, sort: ['_shard_doc'] }));
    expect(all).toHaveLength(120);
    for (const [max, field] of [
      [4, undefined],
      [7, undefined],
      [3, 'n'],
    ] as const) {
      const slices: Hit[][] = [];
      for (let id = 0; id < max; id++) {
        const slice = field ? { id, max, field } : { id, max };
        slices.push(await walkPit(url, pit, { size: 9, sort: ['_shard_doc'], slice }));
      }
      checkPartition(slices, all);
    }
    // More slices than shards: each shard's slice filter is a bitset cached with its reader,
    // and counted while a context pins that reader.
    expect(await sliceFilterMemory()).toBeGreaterThan(0);
    await closePit(url, pit);
    expect(await sliceFilterMemory()).toBe(0);
  });
});
