import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('single-document APIs', () => {
  it('indexes, gets, updates and deletes a document with versions and sequence numbers', async () => {
    const created = await http(node.url, 'PUT', '/books/_doc/1', { title: 'Dune', year: 1965 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      _index: 'books',
      _id: '1',
      _version: 1,
      result: 'created',
      _seq_no: 0,
      _primary_term: 1,
    });
    expect(created.json._shards).toEqual({ total: 2, successful: 1, failed: 0 });

    const got = await http(node.url, 'GET', '/books/_doc/1');
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      _index: 'books',
      _id: '1',
      _version: 1,
      _seq_no: 0,
      _primary_term: 1,
      found: true,
      _source: { title: 'Dune', year: 1965 },
    });

    const updated = await http(node.url, 'PUT', '/books/_doc/1', { title: 'Dune', year: 1966 });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ result: 'updated', _version: 2, _seq_no: 1 });

    const partial = await http(node.url, 'POST', '/books/_update/1', { doc: { author: 'Herbert' } });
    expect(partial.json).toMatchObject({ result: 'updated', _version: 3 });
    const noop = await http(node.url, 'POST', '/books/_update/1', { doc: { author: 'Herbert' } });
    expect(noop.json).toMatchObject({ result: 'noop', _version: 3 });
    const after = await http(node.url, 'GET', '/books/_doc/1');
    expect(after.json._source).toEqual({ title: 'Dune', year: 1966, author: 'Herbert' });

    const head = await http(node.url, 'HEAD', '/books/_doc/1');
    expect(head.status).toBe(200);

    const deleted = await http(node.url, 'DELETE', '/books/_doc/1');
    expect(deleted.json).toMatchObject({ result: 'deleted', _version: 4 });
    const gone = await http(node.url, 'GET', '/books/_doc/1');
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ _index: 'books', _id: '1', found: false });
    const again = await http(node.url, 'DELETE', '/books/_doc/1');
    expect(again.status).toBe(404);
    expect(again.json.result).toBe('not_found');
  });

  it('refuses conflicting writes with 409 version_conflict_engine_exception', async () => {
    await http(node.url, 'PUT', '/conflicts/_doc/a', { n: 1 });
    const dup = await http(node.url, 'PUT', '/conflicts/_create/a', { n: 2 });
    expect(dup.status).toBe(409);
    expect(dup.json.error.type).toBe('version_conflict_engine_exception');
    expect(dup.json.error.reason).toContain(
      '[a]: version conflict, document already exists (current version [1])',
    );

    const stale = await http(node.url, 'PUT', '/conflicts/_doc/a?if_seq_no=5&if_primary_term=1', { n: 3 });
    expect(stale.status).toBe(409);
    expect(stale.json.error.reason).toContain('required seqNo [5], primary term [1]');

    const current = await http(node.url, 'GET', '/conflicts/_doc/a');
    const ok = await http(
      node.url,
      'PUT',
      `/conflicts/_doc/a?if_seq_no=${current.json._seq_no}&if_primary_term=${current.json._primary_term}`,
      { n: 4 },
    );
    expect(ok.status).toBe(200);
  });

  it('creates an index on first write with dynamic mappings', async () => {
    await http(node.url, 'POST', '/auto/_doc?refresh=true', {
      name: 'alpha',
      count: 3,
      ratio: 0.5,
      ok: true,
      when: '2024-01-02T03:04:05Z',
    });
    const mapping = await http(node.url, 'GET', '/auto/_mapping');
    expect(mapping.json.auto.mappings.properties).toEqual({
      count: { type: 'long' },
      name: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      ok: { type: 'boolean' },
      ratio: { type: 'float' },
      when: { type: 'date' },
    });
  });

  it('bulk-indexes with per-item results and errors', async () => {
    const body = ndjson([
      { index: { _index: 'bulk', _id: '1' } },
      { v: 1 },
      { create: { _index: 'bulk', _id: '2' } },
      { v: 2 },
      { create: { _index: 'bulk', _id: '1' } },
      { v: 3 },
      { update: { _index: 'bulk', _id: '2' } },
      { doc: { w: 9 } },
      { delete: { _index: 'bulk', _id: '1' } },
    ]);
    const r = await http(node.url, 'POST', '/_bulk?refresh=true', body, {
      'content-type': 'application/x-ndjson',
    });
    expect(r.status).toBe(200);
    expect(r.json.errors).toBe(true);
    expect(r.json.items.map((i: Record<string, { status: number }>) => Object.values(i)[0]!.status)).toEqual([
      201, 201, 409, 200, 200,
    ]);
    const count = await http(node.url, 'GET', '/bulk/_count');
    expect(count.json.count).toBe(1);
    const doc = await http(node.url, 'GET', '/bulk/_doc/2');
    expect(doc.json._source).toEqual({ v: 2, w: 9 });
  });

  it('gets several documents with _mget', async () => {
    await http(node.url, 'PUT', '/mget/_doc/1', { a: 1 });
    await http(node.url, 'PUT', '/mget/_doc/2', { a: 2 });
    const r = await http(node.url, 'GET', '/mget/_mget', { ids: ['1', '2', '3'] });
    expect(r.json.docs.map((d: { found: boolean }) => d.found)).toEqual([true, true, false]);
    expect(r.json.docs[1]._source).toEqual({ a: 2 });
  });

  it('makes writes searchable only after a refresh', async () => {
    await http(node.url, 'PUT', '/visibility', { settings: { refresh_interval: -1 } });
    await http(node.url, 'PUT', '/visibility/_doc/1', { a: 1 });
    const before = await http(node.url, 'GET', '/visibility/_search');
    expect(before.json.hits.total.value).toBe(0);
    const realtime = await http(node.url, 'GET', '/visibility/_doc/1');
    expect(realtime.json.found).toBe(true);
    await http(node.url, 'POST', '/visibility/_refresh');
    const after = await http(node.url, 'GET', '/visibility/_search');
    expect(after.json.hits.total.value).toBe(1);
    await http(node.url, 'PUT', '/visibility/_doc/2?refresh=wait_for', { a: 2 });
    const waited = await http(node.url, 'GET', '/visibility/_count');
    expect(waited.json.count).toBe(2);
  });
});
