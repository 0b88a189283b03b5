/**
 * `_delete_by_query` and `_update_by_query` end to end (Elasticsearch's delete_by_query/10_basic,
 * update_by_query/10_basic and their slices tests): the responses, optimistic concurrency with
 * the seq_no and primary term the scroll saw, `conflicts`, `max_docs`, `scroll_size`, slices,
 * `wait_for_completion=false`, and a property: deleting by a random query leaves exactly the
 * documents that do not match, whatever the slicing.
 */
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

describe('_delete_by_query', () => {
  it('the basic response, without created and updated', async () => {
    await bulk(url, 'dq1', [['1', { text: 'test' }]]);
    const r = await http(url, 'POST', '/dq1/_delete_by_query', { query: { match_all: {} } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      timed_out: false,
      deleted: 1,
      version_conflicts: 0,
      batches: 1,
      failures: [],
      noops: 0,
    });
    expect(r.json.created).toBeUndefined();
    expect(r.json.updated).toBeUndefined();
    expect(await refreshedCount(url, 'dq1')).toBe(0);
  });

  it('a document changed after the scroll saw it is a version conflict (409), or counted with proceed', async () => {
    await createIndex(url, 'dq2', { settings: { 'index.refresh_interval': -1 } });
    await http(url, 'PUT', '/dq2/_doc/1?refresh=true', { text: 'test' });
    // A new version the scroll does not see.
    await http(url, 'PUT', '/dq2/_doc/1', { text: 'test2' });
    const r = await http(url, 'POST', '/dq2/_delete_by_query', { query: { match_all: {} } });
    expect(r.status, r.text).toBe(409);
    expect(r.json).toMatchObject({ deleted: 0, version_conflicts: 1, batches: 1 });
    expect(r.json.failures[0]).toMatchObject({ index: 'dq2', id: '1', status: 409 });
    expect(r.json.failures[0].cause.type).toBe('version_conflict_engine_exception');
    expect(r.json.failures[0].cause.reason).toMatch(/\[1\]: version conflict, required seqNo \[\d+\]/);
    const proceed = await http(url, 'POST', '/dq2/_delete_by_query?conflicts=proceed', {
      query: { match_all: {} },
    });
    expect(proceed.status).toBe(200);
    expect(proceed.json).toMatchObject({ deleted: 0, version_conflicts: 1, failures: [] });
    expect(await refreshedCount(url, 'dq2')).toBe(1);
  });

  it('limits by query, max_docs (URL or body) and scroll_size', async () => {
    await bulk(url, 'dq3', [
      ['1', { user: 'kimchy' }],
      ['2', { user: 'junk' }],
      ['3', { user: 'kimchy' }],
    ]);
    const byQuery = await http(url, 'POST', '/dq3/_delete_by_query?refresh=true&max_docs=1', {
      query: { match: { user: 'kimchy' } },
    });
    expect(byQuery.json).toMatchObject({ deleted: 1, batches: 1 });
    expect(await refreshedCount(url, 'dq3')).toBe(2);
    const body = await http(url, 'POST', '/dq3/_delete_by_query?refresh=true', {
      max_docs: 1,
      query: { match: { user: 'kimchy' } },
    });
    expect(body.json.deleted).toBe(1);
    expect(await refreshedCount(url, 'dq3')).toBe(1);
    await bulk(url, 'dq4', [
      ['a', { text: 'test' }],
      ['b', { text: 'test' }],
      ['c', { text: 'test' }],
    ]);
    const small = await http(url, 'POST', '/dq4/_delete_by_query?refresh=true&scroll_size=1', {
      query: { match_all: {} },
    });
    expect(small.json).toMatchObject({ batches: 3, deleted: 3 });
    expect(await refreshedCount(url, 'dq4')).toBe(0);
  });

  it('with wait_for_completion=false, the task holds the response', async () => {
    await bulk(url, 'dq5', [['1', { text: 'test' }]]);
    const r = await http(url, 'POST', '/dq5/_delete_by_query?wait_for_completion=false', {
      query: { match_all: {} },
    });
    expect(Object.keys(r.json)).toEqual(['task']);
    const t = await http(url, 'GET', `/_tasks/${r.json.task}?wait_for_completion=true`);
    expect(t.json.completed).toBe(true);
    expect(t.json.task.action).toBe('indices:data/write/delete/byquery');
    expect(t.json.response).toMatchObject({ deleted: 1, batches: 1, failures: [] });
  });

  it('errors: a missing index, a bad query, a script', async () => {
    const missing = await http(url, 'POST', '/dq_none/_delete_by_query', { query: { match_all: {} } });
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    await bulk(url, 'dq6', [['1', { n: 1 }]]);
    const bad = await http(url, 'POST', '/dq6/_delete_by_query', { query: { no_such_query: {} } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('parsing_exception');
    const script = await http(url, 'POST', '/dq6/_delete_by_query', { script: { source: 'x' } });
    expect(script.status).toBe(400);
    expect(await refreshedCount(url, 'dq6')).toBe(1);
  });

  it('deletes exactly the matches, once each, for random data, queries and slices', async () => {
    await createIndex(url, 'dqp', {
      settings: { number_of_shards: 3 },
      mappings: { properties: { n: { type: 'integer' }, tag: { type: 'keyword' } } },
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ n: fc.integer({ min: 0, max: 50 }), tag: fc.constantFrom('a', 'b', 'c') }), {
          minLength: 0,
          maxLength: 60,
        }),
        fc.integer({ min: 0, max: 50 }),
        fc.constantFrom('a', 'b', 'c'),
        fc.constantFrom('1', '2', 'auto', '5'),
        fc.integer({ min: 1, max: 20 }),
        async (docs, below, tag, slices, batch) => {
          round++;
          await http(url, 'POST', '/dqp/_delete_by_query?refresh=true', { query: { match_all: {} } });
          await bulk(
            url,
            'dqp',
            docs.map((d, i) => [`r${round}-${i}`, d] as [string, Json]),
          );
          const query = { bool: { filter: [{ range: { n: { lt: below } } }, { term: { tag } }] } };
          const matching = docs.filter((d) => d.n < below && d.tag === tag).length;
          const r = await http(
            url,
            'POST',
            `/dqp/_delete_by_query?refresh=true&slices=${slices}&scroll_size=${batch}`,
            {
              query,
            },
          );
          expect(r.status, r.text).toBe(200);
          expect(r.json.deleted).toBe(matching);
          expect(await refreshedCount(url, 'dqp')).toBe(docs.length - matching);
          expect(await refreshedCount(url, 'dqp', query)).toBe(0);
        },
      ),
      { numRuns: 15, seed: 42 },
    );
    expect((await searchStats(url)).scroll_current).toBe(0);
  });
});

describe('_update_by_query', () => {
  it('rewrites every match in place, with updated and without created', async () => {
    await bulk(url, 'uq1', [
      ['1', { text: 'test' }],
      ['2', { text: 'other' }],
    ]);
    const before = await http(url, 'GET', '/uq1/_doc/1');
    const r = await http(url, 'POST', '/uq1/_update_by_query?refresh=true', {
      query: { match: { text: 'test' } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ updated: 1, deleted: 0, batches: 1, version_conflicts: 0, failures: [] });
    expect(r.json.created).toBeUndefined();
    const after = await http(url, 'GET', '/uq1/_doc/1');
    expect(after.json._version).toBe(before.json._version + 1);
    expect(after.json._source).toEqual({ text: 'test' });
  });

  it('picks up a new field mapping for documents indexed before it', async () => {
    await createIndex(url, 'uq2', { mappings: { dynamic: false, properties: {} } });
    await bulk(url, 'uq2', [['1', { name: 'bob' }]]);
    expect(await refreshedCount(url, 'uq2', { match: { name: 'bob' } })).toBe(0);
    await http(url, 'PUT', '/uq2/_mapping', { properties: { name: { type: 'text' } } });
    const r = await http(url, 'POST', '/uq2/_update_by_query?refresh=true');
    expect(r.json.updated).toBe(1);
    expect(await refreshedCount(url, 'uq2', { match: { name: 'bob' } })).toBe(1);
  });

  it('a script rewrites each document in place', async () => {
    await bulk(url, 'uq3', [['1', { n: 1 }]]);
    const r = await http(url, 'POST', '/uq3/_update_by_query', { script: { source: 'ctx._source.n++' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ updated: 1, noops: 0 });
    expect((await http(url, 'GET', '/uq3/_doc/1')).json._source).toEqual({ n: 2 });
  });

  it('slices and conflicts=proceed', async () => {
    await createIndex(url, 'uq4', { settings: { number_of_shards: 2 } });
    await bulk(
      url,
      'uq4',
      Array.from({ length: 25 }, (_, i) => [`${i}`, { n: i }] as [string, Json]),
    );
    const r = await http(url, 'POST', '/uq4/_update_by_query?slices=auto&conflicts=proceed');
    expect(r.json).toMatchObject({ updated: 25, failures: [] });
    expect(r.json.slices).toHaveLength(2);
  });
});
