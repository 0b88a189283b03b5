/**
 * Scripts that write documents, end to end (Elasticsearch's painless/15_update,
 * 25_script_upsert, update_by_query/80_scripting and reindex/85_scripting): the scripted
 * `_update` with its upserts, noops and deletes, `_bulk` update lines with a script,
 * `_update_by_query` and `_reindex` with a script choosing the op and (for reindex) the
 * destination, and the errors a bad script gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulk, type Json, refreshedCount } from '../paging/paging-support.ts';
import { http, ndjson } from '../support/http.ts';
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

async function source(index: string, id: string, routing?: string): Promise<Json | undefined> {
  const r = await http(url, 'GET', `/${index}/_doc/${id}${routing ? `?routing=${routing}` : ''}`);
  return r.status === 200 ? r.json._source : undefined;
}

const update = (index: string, id: string, body: Json, query = '') =>
  http(url, 'POST', `/${index}/_update/${id}${query}`, body);

describe('scripted _update', () => {
  it('rewrites the source with params, null-safe calls, lists and maps; each run is a new version', async () => {
    await http(url, 'PUT', '/up1/_doc/1', { foo: 'bar', count: 1, tags: ['a'] });
    let r = await update('up1', '1', {
      script: { lang: 'painless', source: 'ctx._source.foo = params.bar', params: { bar: 'xxx' } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ _index: 'up1', _id: '1', _version: 2, result: 'updated' });
    r = await update('up1', '1', {
      script: {
        source:
          "ctx._source.missing_length = ctx._source.missing?.length(); ctx._source.foo_length = ctx._source.foo?.length(); ctx._source.count += 1; ctx._source.tags.add('b'); ctx._source.nested = ['k': ctx._version]",
      },
    });
    expect(r.json._version).toBe(3);
    expect(await source('up1', '1')).toEqual({
      foo: 'xxx',
      count: 2,
      tags: ['a', 'b'],
      missing_length: null,
      foo_length: 3,
      nested: { k: 2 },
    });
    // A script that changes nothing still writes (detect_noop is for partial documents).
    r = await update('up1', '1', { script: 'ctx._source.count = ctx._source.count' });
    expect(r.json).toMatchObject({ result: 'updated', _version: 4 });
    r = await update(
      'up1',
      '1',
      { script: "ctx._source.remove('tags'); ctx._source.remove('nested')" },
      '?_source=true',
    );
    expect(r.json.get._source).toEqual({ foo: 'xxx', count: 2, missing_length: null, foo_length: 3 });
  });

  it('ctx.op noop answers noop and writes nothing; delete deletes', async () => {
    await http(url, 'PUT', '/up2/_doc/1', { n: 1 });
    let r = await update('up2', '1', { script: "ctx._source.n = 2; ctx.op = 'noop'" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'noop', _version: 1, _shards: { total: 0 } });
    expect(await source('up2', '1')).toEqual({ n: 1 });
    r = await update('up2', '1', { script: "if (ctx._source.n == 1) { ctx.op = 'delete' }" });
    expect(r.json).toMatchObject({ result: 'deleted', _version: 2 });
    expect(await source('up2', '1')).toBeUndefined();
  });

  it('upsert, scripted_upsert (ctx._now, noop) and a stored script', async () => {
    const script = { source: 'ctx._source.foo = params.bar', lang: 'painless', params: { bar: 'xxx' } };
    await update('up3', '1', { script, upsert: { foo: 'baz' } });
    expect(await source('up3', '1')).toEqual({ foo: 'baz' });
    await update('up3', '1', { script, upsert: { foo: 'baz' } });
    expect(await source('up3', '1')).toEqual({ foo: 'xxx' });
    await update('up3', '2', { script, upsert: { foo: 'baz' }, scripted_upsert: true });
    expect(await source('up3', '2')).toEqual({ foo: 'xxx' });
    const now = Date.now();
    await update('up3', '3', {
      script: `ctx._source.has_now = ctx._now >= ${now - 60_000}L && ctx._now <= ${now + 60_000}L`,
      upsert: { has_now: false },
      scripted_upsert: true,
    });
    expect(await source('up3', '3')).toEqual({ has_now: true });
    const noop = await update('up3', '4', { script: "ctx.op = 'noop'", upsert: {}, scripted_upsert: true });
    expect(noop.json).toMatchObject({ result: 'noop' });
    expect(await source('up3', '4')).toBeUndefined();
    expect(
      (
        await http(url, 'PUT', '/_scripts/add-n', {
          script: { lang: 'painless', source: 'ctx._source.n += params.n' },
        })
      ).status,
    ).toBe(200);
    await update('up3', '5', {
      script: { id: 'add-n', params: { n: 2 } },
      upsert: { n: 0 },
      scripted_upsert: true,
    });
    await update(
      'up3',
      '5',
      { script: { id: 'add-n', params: { n: 3 } }, upsert: { n: 0 } },
      '?retry_on_conflict=3',
    );
    expect(await source('up3', '5')).toEqual({ n: 5 });
  });

  it('a missing document without upsert is document_missing_exception', async () => {
    const r = await update('up3', 'nope', { script: 'ctx._source.a = 1' });
    expect(r.status).toBe(404);
    expect(r.json.error.type).toBe('document_missing_exception');
  });

  it('script errors are 400 illegal_argument_exception caused by a script_exception', async () => {
    await http(url, 'PUT', '/up4/_doc/1', { foo: 'bar' });
    let r = await update('up4', '1', { script: { source: 'ctx._source.ctx = ctx' } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Iterable object is self-referencing itself',
    });
    r = await update('up4', '1', { script: 'ctx._source.x = 1 +' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'failed to execute script',
      caused_by: { type: 'script_exception', reason: 'compile error' },
    });
    r = await update('up4', '1', { script: "ctx.op = 'junk'" });
    expect(r.status).toBe(400);
    expect(r.json.error.caused_by).toMatchObject({
      type: 'script_exception',
      reason: 'runtime error',
      caused_by: {
        type: 'illegal_argument_exception',
        reason: '[op] must be one of delete, index, noop, not [junk]',
      },
    });
    r = await update('up4', '1', { script: 'ctx._source.a = 1', doc: { a: 2 } });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('action_request_validation_exception');
    expect(r.json.error.reason).toContain("can't provide both script and doc");
    expect(await source('up4', '1')).toEqual({ foo: 'bar' });
  });

  it('_bulk update lines with a script, each item with its own outcome', async () => {
    await http(url, 'PUT', '/up5/_doc/1?refresh=true', { n: 1 });
    const r = await http(
      url,
      'POST',
      '/_bulk',
      ndjson([
        { update: { _index: 'up5', _id: '1', retry_on_conflict: 2 } },
        { script: { source: 'ctx._source.n += params.d', params: { d: 10 } } },
        { update: { _index: 'up5', _id: '2' } },
        { script: 'ctx._source.n = 100', upsert: { n: 0 }, scripted_upsert: true },
        { update: { _index: 'up5', _id: '1' } },
        { script: 'ctx._source.n = ctx._source.n / 0' },
      ]),
      { 'content-type': 'application/x-ndjson' },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.errors).toBe(true);
    expect(r.json.items[0].update).toMatchObject({ result: 'updated', status: 200 });
    expect(r.json.items[1].update).toMatchObject({ result: 'created', status: 201 });
    expect(r.json.items[2].update).toMatchObject({
      status: 400,
      error: { type: 'illegal_argument_exception', caused_by: { type: 'script_exception' } },
    });
    expect(await source('up5', '1')).toEqual({ n: 11 });
    expect(await source('up5', '2')).toEqual({ n: 100 });
  });

  it('a missing stored script fails its _bulk item only', async () => {
    await http(url, 'PUT', '/up6/_doc/1?refresh=true', { n: 1 });
    const r = await http(
      url,
      'POST',
      '/_bulk',
      ndjson([
        { update: { _index: 'up6', _id: '1' } },
        { script: { id: 'no_such_script' } },
        { update: { _index: 'up6', _id: '1' } },
        { script: 'ctx._source.n = 2' },
      ]),
      { 'content-type': 'application/x-ndjson' },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.errors).toBe(true);
    expect(r.json.items[0].update).toMatchObject({
      _index: 'up6',
      _id: '1',
      status: 404,
      error: {
        type: 'resource_not_found_exception',
        reason: 'unable to find script [no_such_script] in cluster state',
      },
    });
    expect(r.json.items[1].update).toMatchObject({ result: 'updated', status: 200 });
    expect(await source('up6', '1')).toEqual({ n: 2 });
  });
});

describe('_update_by_query with a script', () => {
  it('counts updates, noops and deletes as the script chooses', async () => {
    await bulk(url, 'ubq1', [
      ['1', { level: 9, last_updated: '2016-01-01T12:10:30Z' }],
      ['2', { level: 10, last_updated: '2016-01-01T12:10:30Z' }],
      ['3', { level: 11, last_updated: '2016-01-01T12:10:30Z' }],
      ['4', { level: 12, last_updated: '2016-01-01T12:10:30Z' }],
    ]);
    const r = await http(url, 'POST', '/ubq1/_update_by_query?refresh=true', {
      script: {
        lang: 'painless',
        source: `int choice = ctx._source.level % 3;
          if (choice == 0) { ctx._source.last_updated = '2016-01-02T00:00:00Z'; ctx._source.v = ctx._version }
          else if (choice == 1) { ctx.op = 'noop' } else { ctx.op = 'delete' }`,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ updated: 2, deleted: 1, noops: 1, batches: 1, failures: [] });
    expect(await refreshedCount(url, 'ubq1')).toBe(3);
    expect(await source('ubq1', '1')).toEqual({ level: 9, last_updated: '2016-01-02T00:00:00Z', v: 1 });
    expect(await source('ubq1', '2')).toEqual({ level: 10, last_updated: '2016-01-01T12:10:30Z' });
    expect(await source('ubq1', '3')).toBeUndefined();
  });

  it('ctx._version is the document version with or without version=true', async () => {
    await bulk(url, 'ubq5', [['1', { n: 1 }]]);
    await http(url, 'PUT', '/ubq5/_doc/1?refresh=true', { n: 2 });
    for (const [params, version] of [
      ['', 2],
      ['&version=true', 3],
      ['&version=false', 4],
    ] as const) {
      const r = await http(url, 'POST', `/ubq5/_update_by_query?refresh=true${params}`, {
        script: 'ctx._source.v = ctx._version',
      });
      expect(r.json, params).toMatchObject({ updated: 1, failures: [] });
      expect((await source('ubq5', '1'))!.v, params).toBe(version);
    }
  });

  it('the short form, and a stored script', async () => {
    await bulk(url, 'ubq2', [['1', { user: 'kimchy' }]]);
    let r = await http(url, 'POST', '/ubq2/_update_by_query?refresh=true', {
      script: 'ctx._source.user = "not" + ctx._source.user',
    });
    expect(r.json).toMatchObject({ updated: 1, noops: 0 });
    await http(url, 'PUT', '/_scripts/shout', {
      script: { lang: 'painless', source: 'ctx._source.user = ctx._source.user.toUpperCase()' },
    });
    r = await http(url, 'POST', '/ubq2/_update_by_query?refresh=true', { script: { id: 'shout' } });
    expect(r.json).toMatchObject({ updated: 1 });
    expect(await source('ubq2', '1')).toEqual({ user: 'NOTKIMCHY' });
  });

  it('errors: a script that does not compile, bogus ctx keys, _id writes, unknown ops', async () => {
    await bulk(url, 'ubq3', [['1', { user: 'kimchy' }]]);
    const cases: [string, RegExp][] = [
      ['syntax errors are fun!', /compile error/],
      ['ctx.junk = "stuff"', /Cannot put key \[junk\] with value \[stuff\] into ctx/],
      ['ctx._id = "stuff"', /_id cannot be updated/],
      ['ctx.op = "junk"', /\[op\] must be one of delete, index, noop, not \[junk\]/],
    ];
    for (const [script, pattern] of cases) {
      const r = await http(url, 'POST', '/ubq3/_update_by_query', {
        script: { lang: 'painless', source: script },
      });
      expect(r.status, script).toBe(400);
      expect(r.json.error.type).toBe('script_exception');
      expect(r.text).toMatch(pattern);
    }
    expect(await source('ubq3', '1')).toEqual({ user: 'kimchy' });
  });
});

describe('_reindex with a script', () => {
  it('rewrites sources, skips noops and deletes in the destination', async () => {
    await bulk(url, 'rx1', [
      ['1', { lang: 'en', id: 123 }],
      ['2', { lang: 'en', id: 456 }],
      ['3', { lang: 'fr', id: 789 }],
      ['4', { lang: 'de', id: 1 }],
    ]);
    await bulk(url, 'rx1-dest', [
      ['fr_789', { lang: 'fr', id: 789 }],
      ['en_123', { lang: 'en', id: 123 }],
    ]);
    const r = await http(url, 'POST', '/_reindex?refresh=true', {
      source: { index: 'rx1' },
      dest: { index: 'rx1-dest' },
      script: {
        source: `ctx._id = ctx._source.lang + '_' + ctx._source.id;
          if (ctx._source.lang == 'de') { ctx.op = 'noop' } else if (ctx._source.lang != 'en') { ctx.op = 'delete' }`,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ created: 1, updated: 1, deleted: 1, noops: 1 });
    const m = await http(url, 'POST', '/rx1-dest/_mget', { ids: ['en_123', 'en_456', 'fr_789', 'de_1'] });
    expect(m.json.docs.map((d: Json) => [d._id, d.found, d._version])).toEqual([
      ['en_123', true, 2],
      ['en_456', true, 1],
      ['fr_789', false, undefined],
      ['de_1', false, undefined],
    ]);
  });

  it('sends documents to another index, routing and id as the script says', async () => {
    await bulk(url, 'rx2', [
      ['1', { user: 'kimchy' }],
      ['2', { user: 'another' }],
    ]);
    const r = await http(url, 'POST', '/_reindex?refresh=true', {
      source: { index: 'rx2' },
      dest: { index: 'rx2-dest' },
      script: {
        source:
          "if (ctx._source.user == 'kimchy') { ctx._index = 'rx2-other' } else { ctx._routing = ctx._source.user; ctx._id = null }",
      },
    });
    expect(r.json).toMatchObject({ created: 2, noops: 0 });
    expect(await source('rx2-other', '1')).toEqual({ user: 'kimchy' });
    const other = await http(url, 'POST', '/rx2-dest/_search', { query: { match_all: {} } });
    expect(other.json.hits.hits).toHaveLength(1);
    expect(other.json.hits.hits[0]._routing).toBe('another');
    expect(other.json.hits.hits[0]._id).not.toBe('2');
  });

  it('_version = null forces the write over an external version', async () => {
    await http(url, 'PUT', '/rx3/_doc/1?version=1&version_type=external&refresh=true', { user: 'kimchy' });
    await http(url, 'PUT', '/rx3-dest/_doc/1?version=1&version_type=external', { user: 'kimchy' });
    const r = await http(url, 'POST', '/_reindex?refresh=true', {
      source: { index: 'rx3' },
      dest: { index: 'rx3-dest', version_type: 'external' },
      script: { source: 'ctx._source.user = "other" + ctx._source.user; ctx._version = null' },
    });
    expect(r.json).toMatchObject({ updated: 1, noops: 0, failures: [] });
    expect(await source('rx3-dest', '1')).toEqual({ user: 'otherkimchy' });
  });

  it('noop for every document creates nothing; a broken script is a 400 compile error', async () => {
    await bulk(url, 'rx4', [['1', { a: 1 }]]);
    const r = await http(url, 'POST', '/_reindex', {
      source: { index: 'rx4' },
      dest: { index: 'rx4-dest' },
      script: 'ctx.op = "noop"',
    });
    expect(r.json).toMatchObject({ noops: 1, created: 0 });
    expect((await http(url, 'HEAD', '/rx4-dest')).status).toBe(404);
    const bad = await http(url, 'POST', '/_reindex', {
      source: { index: 'rx4' },
      dest: { index: 'rx4-dest' },
      script: { lang: 'painless', source: 'syntax errors are fun!' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ type: 'script_exception', reason: 'compile error' });
  });
});
