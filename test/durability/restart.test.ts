import { afterAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode | undefined;
afterAll(async () => {
  await node?.stop();
});

const bulk = (index: string, docs: [string, unknown][]) =>
  ndjson(docs.flatMap(([id, src]) => [{ index: { _index: index, _id: id } }, src]));

describe('a node restarted on its data path', () => {
  it('keeps index metadata, mappings, settings, aliases and every acknowledged document', async () => {
    node = await startTestNode({ workers: 2 });
    const create = await http(node.url, 'PUT', '/library', {
      settings: {
        number_of_shards: 3,
        number_of_replicas: 0,
        refresh_interval: '2s',
        max_result_window: 500,
      },
      mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' } } },
      aliases: {
        books: { filter: { range: { year: { gte: 1900 } } } },
        'books-write': { is_write_index: true },
      },
    });
    expect(create.status).toBe(200);
    // A dynamic field (a mapping update), a settings update, an alias added later.
    const docs: [string, unknown][] = Array.from({ length: 60 }, (_, i) => [
      String(i),
      { title: `book ${i}`, year: 1850 + i * 3, genre: i % 2 ? 'sf' : 'crime' },
    ]);
    expect((await http(node.url, 'POST', '/_bulk', bulk('library', docs))).json.errors).toBe(false);
    expect(
      (await http(node.url, 'PUT', '/library/_settings', { 'index.max_result_window': 700 })).status,
    ).toBe(200);
    expect(
      (
        await http(node.url, 'POST', '/_aliases', {
          actions: [{ add: { index: 'library', alias: 'shelf' } }],
        })
      ).status,
    ).toBe(200);
    await http(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'action.auto_create_index': 'false' },
    });
    await http(node.url, 'DELETE', '/library/_doc/7');
    await http(node.url, 'POST', '/library/_update/8', { doc: { title: 'updated' } });
    await http(node.url, 'PUT', '/other', { settings: { number_of_shards: 1 } });
    await http(node.url, 'DELETE', '/other');
    const before = (await http(node.url, 'GET', '/library')).json;

    // A crash: no flush, no clean close.
    await node.kill();
    node = await node.restart();

    const after = (await http(node.url, 'GET', '/library')).json;
    expect(after).toEqual(before);
    expect(after.library.mappings.properties.genre).toMatchObject({ type: 'text' });
    expect(after.library.settings.index.max_result_window).toBe('700');
    expect(Object.keys(after.library.aliases).sort()).toEqual(['books', 'books-write', 'shelf']);
    expect((await http(node.url, 'GET', '/other')).status).toBe(404);
    const cluster = await http(node.url, 'GET', '/_cluster/settings');
    expect(cluster.json.persistent).toMatchObject({ action: { auto_create_index: 'false' } });

    await http(node.url, 'POST', '/library/_refresh');
    expect((await http(node.url, 'POST', '/library/_count')).json.count).toBe(59);
    expect((await http(node.url, 'GET', '/library/_doc/7')).status).toBe(404);
    const eight = (await http(node.url, 'GET', '/library/_doc/8')).json;
    expect(eight).toMatchObject({ _version: 2, _source: { title: 'updated', year: 1874 } });
    // Searching through an alias works as before.
    expect((await http(node.url, 'POST', '/shelf/_count')).json.count).toBe(59);
    // seq_no goes on from where the shard was; the restarted copy is a new primary term.
    expect(eight._primary_term).toBe(1);
    const next = await http(node.url, 'PUT', '/library/_doc/8', { title: 'again' });
    expect(next.json._seq_no).toBeGreaterThan(eight._seq_no);
    expect(next.json._primary_term).toBe(2);
    const stale = await http(node.url, 'PUT', '/library/_doc/9?if_seq_no=0&if_primary_term=2', {
      title: 'x',
    });
    expect(stale.status).toBe(409);

    // A clean stop flushes; the next start replays nothing.
    node = await node.restart();
    // The library's shards (the security system index recovers too).
    const recovered = node.logs.filter(
      (l) => l.msg === 'recovered shard from its commit and translog' && l.index === 'library',
    );
    expect(recovered).toHaveLength(3);
    for (const l of recovered) expect(l.replayedOps).toBe(0);
    expect((await http(node.url, 'POST', '/library/_count')).json.count).toBe(59);
    // Every start is a new term, even one that wrote nothing in the term before.
    expect((await http(node.url, 'GET', '/library/_doc/8')).json._primary_term).toBe(2);
    node = await node.restart();
    const third = await http(node.url, 'PUT', '/library/_doc/8', { title: 'third' });
    expect(third.json._primary_term).toBe(4);
  });
});
