/**
 * `_reindex` end to end (Elasticsearch's reindex/10_basic, 20_validation, 80_slices,
 * 70_throttle): the response counts, conflicts, source filtering and queries, slices, max_docs,
 * throttling and rethrottling, `wait_for_completion=false` with the task's stored result, and
 * every scroll it opened closed afterwards.
 */
import { Client } from '@elastic/elasticsearch/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulk, createIndex, type Json, refreshedCount, searchStats } from '../paging/paging-support.ts';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
});
afterAll(async () => {
  await node?.stop();
});

async function reindex(body: Json, query = ''): Promise<ReturnType<typeof http>> {
  return http(url, 'POST', `/_reindex${query}`, body);
}

describe('reindex responses (reindex/10_basic)', () => {
  it('created: the counts, no failures, and no scroll left open', async () => {
    await bulk(url, 'r_src', [['1', { text: 'test' }]]);
    const r = await reindex({ source: { index: 'r_src' }, dest: { index: 'r_dst' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      timed_out: false,
      total: 1,
      created: 1,
      updated: 0,
      deleted: 0,
      batches: 1,
      version_conflicts: 0,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1,
      throttled_until_millis: 0,
      failures: [],
    });
    expect(r.text).toContain('"requests_per_second":-1.0');
    expect(r.json.took).toBeGreaterThanOrEqual(0);
    expect(r.json.task).toBeUndefined();
    expect(Object.keys(r.json)).toEqual([
      'took',
      'timed_out',
      'total',
      'updated',
      'created',
      'deleted',
      'batches',
      'version_conflicts',
      'noops',
      'retries',
      'throttled_millis',
      'requests_per_second',
      'throttled_until_millis',
      'failures',
    ]);
    expect((await searchStats(url)).scroll_current).toBe(0);
    const got = await http(url, 'GET', '/r_dst/_doc/1');
    expect(got.json._source).toEqual({ text: 'test' });
  });

  it('updated: the destination already has the document', async () => {
    await bulk(url, 'r_src2', [['1', { text: 'test' }]]);
    await bulk(url, 'r_dst2', [['1', { text: 'old' }]]);
    const r = await reindex({ source: { index: 'r_src2' }, dest: { index: 'r_dst2' } });
    expect(r.json).toMatchObject({ created: 0, updated: 1, version_conflicts: 0, batches: 1, failures: [] });
  });

  it('a version conflict with op_type create is a 409 naming the document', async () => {
    await bulk(url, 'r_src3', [['1', { text: 'test' }]]);
    await bulk(url, 'r_dst3', [['1', { text: 'test' }]]);
    const r = await reindex({ source: { index: 'r_src3' }, dest: { index: 'r_dst3', op_type: 'create' } });
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ created: 0, updated: 0, version_conflicts: 1, batches: 1 });
    expect(r.json.failures[0]).toMatchObject({ index: 'r_dst3', id: '1', status: 409 });
    expect(r.json.failures[0].cause.type).toBe('version_conflict_engine_exception');
    expect(r.json.failures[0].cause.reason).toMatch(
      /\[1\]: version conflict, document already exists \(current version \[\d+\]\)/,
    );
    const proceed = await reindex({
      conflicts: 'proceed',
      source: { index: 'r_src3' },
      dest: { index: 'r_dst3', op_type: 'create' },
    });
    expect(proceed.status).toBe(200);
    expect(proceed.json).toMatchObject({ created: 0, version_conflicts: 1, failures: [] });
    expect((await searchStats(url)).scroll_current).toBe(0);
  });

  it('source filtering, a query and an empty document', async () => {
    await bulk(url, 'r_src4', [
      ['1', { text: 'test', filtered: 'removed', n: 1 }],
      ['2', {}],
      ['3', { text: 'other', n: 3 }],
    ]);
    const r = await reindex(
      { source: { index: 'r_src4', _source: { excludes: ['filtered'] } }, dest: { index: 'r_dst4' } },
      '?refresh=true',
    );
    expect(r.json.created).toBe(3);
    expect((await http(url, 'GET', '/r_dst4/_doc/1')).json._source).toEqual({ text: 'test', n: 1 });
    expect((await http(url, 'GET', '/r_dst4/_doc/2')).json._source).toEqual({});
    const q = await reindex({
      source: { index: 'r_src4', query: { term: { n: 3 } } },
      dest: { index: 'r_dst4b' },
    });
    expect(q.json.created).toBe(1);
    expect(await refreshedCount(url, 'r_dst4b')).toBe(1);
  });
});

describe('reindex validation (reindex/20_validation)', () => {
  const cases: [string, Json | undefined, string, RegExp, number][] = [
    ['no body', undefined, '', /request body is required/, 400],
    ['junk in body', { junk: { more_junk: null } }, '', /\[reindex\] unknown field \[junk\]/, 400],
    [
      'junk in source',
      { source: { junk: {} }, dest: { index: 'd' } },
      '',
      /Unknown key for a START_OBJECT in \[junk\]\./,
      400,
    ],
    ['junk in dest', { dest: { junk: {} } }, '', /\[dest\] unknown field \[junk\]/, 400],
    ['no dest index', { source: { index: 'r_src' }, dest: {} }, '', /index must be specified/, 400],
    [
      'size not a number',
      { source: { size: 'cat' }, dest: { index: 'd' } },
      '',
      /For input string: "cat"/,
      400,
    ],
    [
      'from',
      { source: { index: 'r_src', from: 1 }, dest: { index: 'd' } },
      '',
      /from is not supported in this context/,
      400,
    ],
    ['dest version', { dest: { version: 10 } }, '', /\[dest\] unknown field \[version\]/, 400],
    [
      'bad conflicts',
      { conflicts: 'cat' },
      '',
      /conflicts may only be "proceed" or "abort" but was \[cat\]/,
      400,
    ],
    [
      'negative size',
      { source: { index: 'r_src' }, dest: { index: 'd' }, size: -4 },
      '',
      /\[max_docs\] parameter cannot be negative, found \[-4\]/,
      400,
    ],
    [
      'negative max_docs',
      { source: { index: 'r_src' }, dest: { index: 'd' }, max_docs: -4 },
      '',
      /\[max_docs\] parameter cannot be negative, found \[-4\]/,
      400,
    ],
    [
      'max_docs < slices',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?max_docs=1&slices=2',
      /\[max_docs\] should be >= \[slices\]/,
      400,
    ],
    [
      'two max_docs',
      { source: { index: 'r_src' }, dest: { index: 'd' }, size: 4, max_docs: 5 },
      '',
      /\[max_docs\] set to two different values \[4\] and \[5\]/,
      400,
    ],
    [
      'URL and body max_docs',
      { source: { index: 'r_src' }, dest: { index: 'd' }, max_docs: 4 },
      '?max_docs=5',
      /\[max_docs\] set to two different values \[5\] and \[4\]/,
      400,
    ],
    [
      'empty rps',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?requests_per_second=',
      /\[requests_per_second\] must be a float greater than 0. Use -1 to disable throttling./,
      400,
    ],
    [
      'negative rps',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?requests_per_second=-12',
      /\[requests_per_second\] must be a float greater than 0/,
      400,
    ],
    [
      'zero rps',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?requests_per_second=0',
      /\[requests_per_second\] must be a float greater than 0/,
      400,
    ],
    [
      'unlimited rps',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?requests_per_second=unlimited',
      /\[requests_per_second\] must be a float greater than 0/,
      400,
    ],
    [
      'stored_fields',
      { source: { index: 'r_src', stored_fields: ['_id'] }, dest: { index: 'd' } },
      '',
      /stored_fields is not supported in this context/,
      400,
    ],
    [
      'junk slices',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?slices=junk',
      /\[slices\] must be a positive integer or the string "auto"/,
      400,
    ],
    [
      'zero slices',
      { source: { index: 'r_src' }, dest: { index: 'd' } },
      '?slices=0',
      /\[slices\] must be a positive integer or the string "auto"/,
      400,
    ],
    [
      '_source false',
      { source: { index: 'r_src', _source: false }, dest: { index: 'd' } },
      '',
      /_source:false is not supported in this context/,
      400,
    ],
    [
      'remote',
      { source: { index: 'r_src', remote: { host: 'http://other:9200' } }, dest: { index: 'd' } },
      '',
      /remote/,
      400,
    ],
    [
      'same index',
      { source: { index: 'r_src' }, dest: { index: 'r_src' } },
      '',
      /reindex cannot write into an index its reading from \[r_src\]/,
      400,
    ],
    [
      'missing source',
      { source: { index: 'r_nothing_here' }, dest: { index: 'd' } },
      '',
      /no such index \[r_nothing_here\]/,
      404,
    ],
  ];
  it.each(cases)('%s', async (_name, body, query, reason, status) => {
    const r = body === undefined ? await http(url, 'POST', `/_reindex${query}`) : await reindex(body, query);
    expect(r.status, r.text).toBe(status);
    expect(r.json.error.reason ?? '', r.text).toMatch(reason);
    expect(r.json.error.root_cause.length).toBeGreaterThan(0);
  });
});

describe('slices, max_docs and batches', () => {
  const docs = Array.from({ length: 57 }, (_, i) => [`d${i}`, { n: i }] as [string, Json]);

  beforeAll(async () => {
    await createIndex(url, 'r_many', { settings: { number_of_shards: 3 } });
    await bulk(url, 'r_many', docs);
  });

  for (const slices of ['1', '5', 'auto']) {
    it(`slices=${slices} copies every document once`, async () => {
      const dest = `r_sliced_${slices}`;
      const r = await reindex(
        { source: { index: 'r_many', size: 10 }, dest: { index: dest } },
        `?slices=${slices}&refresh=true`,
      );
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ total: 57, created: 57, failures: [] });
      const expectedSlices = slices === '1' ? undefined : slices === 'auto' ? 3 : 5;
      if (expectedSlices) {
        expect(r.json.slices).toHaveLength(expectedSlices);
        expect(r.json.slices.map((s: { slice_id: number }) => s.slice_id)).toEqual([
          ...Array(expectedSlices).keys(),
        ]);
        expect(r.json.slices.reduce((a: number, s: { created: number }) => a + s.created, 0)).toBe(57);
      } else {
        expect(r.json.slices).toBeUndefined();
        expect(r.json.batches).toBe(6);
      }
      expect(await refreshedCount(url, dest)).toBe(57);
      const all = await http(url, 'POST', `/${dest}/_search`, { size: 100, sort: [{ n: 'asc' }] });
      expect(all.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(
        [...docs].sort((a, b) => (a[1].n as number) - (b[1].n as number)).map(([id]) => id),
      );
      expect((await searchStats(url)).scroll_current).toBe(0);
    });
  }

  it('max_docs stops after that many documents, with or without slices', async () => {
    const one = await reindex({
      source: { index: 'r_many', size: 4 },
      dest: { index: 'r_max1' },
      max_docs: 10,
    });
    expect(one.json).toMatchObject({ total: 10, created: 10, batches: 3 });
    const sliced = await reindex(
      { source: { index: 'r_many' }, dest: { index: 'r_max2' }, max_docs: 10 },
      '?slices=3',
    );
    expect(sliced.json.created).toBe(10);
    expect(await refreshedCount(url, 'r_max2')).toBe(10);
  });
});

describe('throttling and tasks', () => {
  beforeAll(async () => {
    await bulk(
      url,
      'r_slow',
      Array.from({ length: 6 }, (_, i) => [`${i}`, { n: i }] as [string, Json]),
    );
  });

  it('a throttled reindex takes at least the time requests_per_second implies', async () => {
    const started = Date.now();
    const r = await reindex(
      { source: { index: 'r_slow', size: 2 }, dest: { index: 'r_thr' } },
      '?requests_per_second=4',
    );
    const elapsed = Date.now() - started;
    // Three batches of 2 at 4 docs/s: two waits of half a second after the first batch.
    expect(r.json).toMatchObject({ created: 6, batches: 3, requests_per_second: 4 });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(r.json.throttled_millis).toBeGreaterThanOrEqual(800);
  });

  it('wait_for_completion=false returns a task; rethrottle lets it finish; its result is kept', async () => {
    const r = await reindex(
      { source: { index: 'r_slow', size: 1 }, dest: { index: 'r_task' } },
      '?wait_for_completion=false&requests_per_second=0.0001&slices=2',
    );
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.json)).toEqual(['task']);
    const task = r.json.task as string;
    expect(task).toMatch(/.+:\d+/);
    const running = await http(url, 'GET', `/_tasks/${task}`);
    expect(running.json.completed).toBe(false);
    expect(running.json.task.action).toBe('indices:data/write/reindex');
    expect(running.json.task.status.slices).toHaveLength(2);
    const list = await http(url, 'GET', '/_tasks?actions=*reindex&detailed=true&group_by=parents');
    const listed = list.json.tasks[task];
    expect(listed.children).toHaveLength(2);
    expect(listed.description).toBe('reindex from [r_slow] to [r_task]');
    const re = await http(url, 'POST', `/_reindex/${task}/_rethrottle?requests_per_second=-1`);
    expect(re.status, re.text).toBe(200);
    const done = await http(url, 'GET', `/_tasks/${task}?wait_for_completion=true&timeout=20s`);
    expect(done.status, done.text).toBe(200);
    expect(done.json.completed).toBe(true);
    expect(done.json.response).toMatchObject({ total: 6, created: 6, failures: [] });
    expect(done.json.response.slices).toHaveLength(2);
    // Still there after it ended: from the .tasks index.
    const later = await http(url, 'GET', `/_tasks/${task}`);
    expect(later.json.completed).toBe(true);
    expect(later.json.response.created).toBe(6);
    expect((await searchStats(url)).scroll_current).toBe(0);
  });

  it('a cancelled reindex stops, says so, and closes its scroll', async () => {
    const r = await reindex(
      { source: { index: 'r_slow', size: 1 }, dest: { index: 'r_cancel' } },
      '?wait_for_completion=false&requests_per_second=0.5',
    );
    const task = r.json.task as string;
    await new Promise((res) => setTimeout(res, 300));
    const c = await http(url, 'POST', `/_tasks/${task}/_cancel`);
    expect(c.status, c.text).toBe(200);
    expect(Object.keys(c.json.nodes[task.split(':')[0]!].tasks)).toEqual([task]);
    const done = await http(url, 'GET', `/_tasks/${task}?wait_for_completion=true&timeout=10s`);
    expect(done.json.completed).toBe(true);
    expect(done.json.response.canceled).toBe('by user request');
    expect(done.json.response.created).toBeLessThan(6);
    expect((await searchStats(url)).scroll_current).toBe(0);
  });

  it('unknown and malformed task ids', async () => {
    const malformed = await http(url, 'GET', '/_tasks/foo');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.reason).toBe('malformed task id foo');
    const nodeId = Object.keys((await http(url, 'GET', '/_nodes/stats')).json.nodes)[0];
    const missing = await http(url, 'GET', `/_tasks/${nodeId}:999999`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.reason).toBe(
      `task [${nodeId}:999999] isn't running and hasn't stored its results`,
    );
  });
});

describe('the official client', () => {
  it('reindex, tasks.get and the by-query methods', async () => {
    const client = new Client({ node: url, auth: node.auth });
    await bulk(url, 'r_client', [
      ['1', { n: 1 }],
      ['2', { n: 2 }],
    ]);
    const { body } = await client.reindex({
      refresh: true,
      body: { source: { index: 'r_client' }, dest: { index: 'r_client2' } },
    });
    expect(body.created).toBe(2);
    const started = await client.reindex({
      wait_for_completion: false,
      body: { source: { index: 'r_client' }, dest: { index: 'r_client3' } },
    });
    const got = await client.tasks.get({ task_id: started.body.task, wait_for_completion: true });
    expect(got.body.response.created).toBe(2);
    await client.close();
  });
});

describe('a property: reindex copies exactly the matching documents, once each', () => {
  it('for random documents, queries, batch sizes and slices', async () => {
    await createIndex(url, 'rp_src', {
      settings: { number_of_shards: 3 },
      mappings: { properties: { n: { type: 'integer' }, tag: { type: 'keyword' } } },
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ n: fc.integer({ min: 0, max: 40 }), tag: fc.constantFrom('a', 'b') }), {
          maxLength: 50,
        }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom('1', '2', '3', 'auto', '7'),
        fc.integer({ min: 1, max: 15 }),
        async (docs, min, slices, size) => {
          round++;
          await http(url, 'POST', '/rp_src/_delete_by_query?refresh=true', { query: { match_all: {} } });
          await bulk(
            url,
            'rp_src',
            docs.map((d, i) => [`${round}-${i}`, d] as [string, Json]),
          );
          const dest = `rp_dst_${round}`;
          const r = await reindex(
            {
              source: { index: 'rp_src', size, query: { range: { n: { gte: min } } } },
              dest: { index: dest },
            },
            `?slices=${slices}&refresh=true`,
          );
          expect(r.status, r.text).toBe(200);
          const expected = docs.flatMap((d, i) => (d.n >= min ? [`${round}-${i}`] : [])).sort();
          expect(r.json.created).toBe(expected.length);
          const got = await http(url, 'POST', `/${dest}/_search`, { size: 100 });
          const ids = (got.json?.hits?.hits ?? []).map((h: { _id: string }) => h._id).sort();
          expect(ids).toEqual(expected);
          await http(url, 'DELETE', `/${dest}`);
        },
      ),
      { numRuns: 12, seed: 7 },
    );
    expect((await searchStats(url)).scroll_current).toBe(0);
  });
});
