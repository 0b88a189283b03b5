import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

// First pass: `rank` as a constant score per doc (1…6); second pass: `tag` values.
beforeAll(async () => {
  node = await startTestNode();
  for (const [index, shards] of [
    ['rs', 1],
    ['rs2', 2],
  ] as const) {
    await http(node.url, 'PUT', `/${index}`, {
      settings: { number_of_shards: shards, ...(index === 'rs' && { 'index.max_rescore_window': 50 }) },
      mappings: { properties: { rank: { type: 'integer' }, tag: { type: 'keyword' } } },
    });
    const docs = [1, 2, 3, 4, 5, 6].map((rank) => ({ rank, tag: rank % 2 === 0 ? 'even' : 'odd' }));
    const lines = docs.flatMap((d) => [{ index: { _id: String(d.rank) } }, d]);
    const bulk = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(lines));
    expect(bulk.json.errors).toBe(false);
  }
});
afterAll(async () => {
  await node?.stop();
});

const ranked = {
  dis_max: {
    queries: [1, 2, 3, 4, 5, 6].map((r) => ({ constant_score: { filter: { term: { rank: r } }, boost: r } })),
  },
};
const even = { constant_score: { filter: { term: { tag: 'even' } }, boost: 10 } };
const search = (body: unknown, index = 'rs') => http(node.url, 'POST', `/${index}/_search`, body);
const hits = (r: { json: { hits: { hits: { _id: string; _score: number }[] } } }) =>
  r.json.hits.hits.map((h) => [h._id, h._score]);

describe('rescore with the query rescorer', () => {
  it('rescores the top window, totals by default, and sorts again', async () => {
    const r = await search({ query: ranked, rescore: { window_size: 3, query: { rescore_query: even } } });
    expect(r.status).toBe(200);
    // Window: 6, 5, 4 → 16, 5, 14; the rest keep their scores.
    expect(hits(r)).toEqual([
      ['6', 16],
      ['4', 14],
      ['5', 5],
      ['3', 3],
      ['2', 2],
      ['1', 1],
    ]);
    expect(r.json.hits.max_score).toBe(16);
    expect(r.json.hits.total.value).toBe(6);
  });

  it('weighs the scores and combines them by score_mode', async () => {
    const body = (mode: string) => ({
      query: ranked,
      size: 3,
      rescore: {
        window_size: 4,
        query: { rescore_query: even, query_weight: 2, rescore_query_weight: 0.5, score_mode: mode },
      },
    });
    // In the window (6, 5, 4, 3): first × 2 combined with 5 for even docs; beyond it (2, 1): × 2.
    const expected: Record<string, [string, number][]> = {
      total: [
        ['6', 17],
        ['4', 13],
        ['5', 10],
      ],
      multiply: [
        ['6', 60],
        ['4', 40],
        ['5', 10],
      ],
      avg: [
        ['6', 8.5],
        ['5', 10],
        ['4', 6.5],
      ].sort((a, b) => (b[1] as number) - (a[1] as number)) as [string, number][],
      max: [
        ['6', 12],
        ['5', 10],
        ['4', 8],
      ],
      min: [
        ['5', 10],
        ['3', 6],
        // 4 and 6 tie at 5: the lower doc first.
        ['4', 5],
      ],
    };
    for (const [mode, want] of Object.entries(expected)) {
      expect([mode, hits(await search(body(mode)))]).toEqual([mode, want]);
    }
  });

  it('applies several rescorers in order, each on its own window', async () => {
    const r = await search({
      query: ranked,
      rescore: [
        { window_size: 2, query: { rescore_query: even } },
        {
          window_size: 1,
          query: {
            rescore_query: { constant_score: { filter: { term: { rank: 6 } }, boost: 1 } },
            score_mode: 'multiply',
          },
        },
      ],
    });
    // First: 6 → 16, 5 → 5. Second on the top hit (6): 16 × 1.
    expect(hits(r).slice(0, 3)).toEqual([
      ['6', 16],
      ['5', 5],
      ['4', 4],
    ]);
  });

  it('rescores each shard window before the merge, past from + size', async () => {
    const r = await search(
      { query: ranked, from: 0, size: 2, rescore: { window_size: 6, query: { rescore_query: even } } },
      'rs2',
    );
    expect(hits(r)).toEqual([
      ['6', 16],
      ['4', 14],
    ]);
  });

  it('refuses a sort, a window above index.max_rescore_window, a scroll and malformed rescorers', async () => {
    const sorted = await search({
      query: ranked,
      sort: [{ rank: 'asc' }],
      rescore: { query: { rescore_query: even } },
    });
    expect(sorted.status).toBe(400);
    expect(sorted.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Cannot use [sort] option in conjunction with [rescore].',
    });
    const scoreSort = await search({
      query: ranked,
      sort: ['_score'],
      rescore: { query: { rescore_query: even } },
    });
    expect(scoreSort.status).toBe(200);
    const wide = await search({
      query: ranked,
      rescore: { window_size: 51, query: { rescore_query: even } },
    });
    expect(wide.status).toBe(400);
    expect(wide.json.error.root_cause[0].reason).toBe(
      'Rescore window [51] is too large. It must be less than [50]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.',
    );
    const scroll = await http(node.url, 'POST', '/rs/_search?scroll=1m', {
      rescore: { query: { rescore_query: even } },
    });
    expect(scroll.status).toBe(400);
    expect(scroll.json.error.reason).toContain('using [rescore] is not allowed in a scroll context');
    const noQuery = await search({ rescore: { window_size: 5, query: {} } });
    expect(noQuery.status).toBe(400);
    expect(noQuery.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'rescore_query cannot be null',
    });
    const noType = await search({ rescore: { window_size: 5 } });
    expect(noType.json.error.root_cause[0]).toMatchObject({
      type: 'parsing_exception',
      reason: 'missing rescore type',
    });
    const mode = await search({ rescore: { query: { rescore_query: even, score_mode: 'sum' } } });
    expect(mode.json.error.caused_by).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'illegal score_mode [sum]',
    });
    const extra = await search({ rescore: { size: 5, query: { rescore_query: even } } });
    expect(extra.json.error.root_cause[0].reason).toBe("rescore doesn't support [size]");
  });
});
