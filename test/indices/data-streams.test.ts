/**
 * Data streams end to end (Elasticsearch's data_stream/10_basic and friends): created by a first
 * write or by `PUT /_data_stream`, append-only writes with `@timestamp`, backing indices named as
 * Elasticsearch names them, searched (plain, `_all`, wildcards, count, PIT, scroll, slices) with
 * hits naming the backing index, rollover, stats, deletion, errors, and a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, walkScroll } from '../paging/paging-support.ts';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let url: string;

const today = () => {
  const d = new Date();
  return `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCDate()).padStart(2, '0')}`;
};

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  const t = await http(url, 'PUT', '/_index_template/logs', {
    index_patterns: ['logs-*'],
    data_stream: {},
    priority: 100,
    template: {
      settings: { number_of_shards: 2 },
      mappings: { properties: { msg: { type: 'keyword' }, n: { type: 'integer' } } },
    },
  });
  expect(t.status, t.text).toBe(200);
});
afterAll(async () => {
  await node?.stop();
});

async function append(stream: string, docs: Json[]): Promise<void> {
  const lines = docs.flatMap((d) => [{ create: { _index: stream } }, d]);
  const r = await http(url, 'POST', '/_bulk?refresh=true', ndjson(lines), {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors, r.text).toBe(false);
}

describe('data streams', () => {
  it('a first write creates the stream and its first backing index', async () => {
    const r = await http(url, 'POST', '/logs-app/_doc?refresh=true', {
      '@timestamp': '2026-11-28T10:00:00Z',
      msg: 'hello',
      n: 1,
    });
    expect(r.status, r.text).toBe(201);
    const backing = `.ds-logs-app-${today()}-000001`;
    expect(r.json._index).toBe(backing);
    const got = await http(url, 'GET', '/_data_stream/logs-app');
    expect(got.status, got.text).toBe(200);
    expect(got.json.data_streams[0]).toMatchObject({
      name: 'logs-app',
      timestamp_field: { name: '@timestamp' },
      generation: 1,
      template: 'logs',
      hidden: false,
      system: false,
    });
    expect(got.json.data_streams[0].indices.map((i: { index_name: string }) => i.index_name)).toEqual([
      backing,
    ]);
    const mapping = await http(url, 'GET', `/${backing}/_mapping`);
    expect(mapping.json[backing].mappings.properties['@timestamp']).toEqual({ type: 'date' });
    const settings = await http(url, 'GET', `/${backing}/_settings`);
    expect(settings.json[backing].settings.index).toMatchObject({ hidden: 'true', number_of_shards: '2' });
  });

  it('writes are create-only, with a @timestamp', async () => {
    const index = await http(url, 'PUT', '/logs-app/_doc/1', { '@timestamp': '2026-11-28T10:00:00Z' });
    expect(index.status).toBe(400);
    expect(index.json.error.reason).toBe(
      'only write ops with an op_type of create are allowed in data streams',
    );
    const created = await http(url, 'PUT', '/logs-app/_create/x1?refresh=true', {
      '@timestamp': '2026-11-28T11:00:00Z',
      n: 2,
    });
    expect(created.status, created.text).toBe(201);
    const noTs = await http(url, 'POST', '/logs-app/_doc', { msg: 'no time' });
    expect(noTs.status).toBe(400);
    expect(noTs.json.error.type).toBe('document_parsing_exception');
    expect(noTs.json.error.reason).toMatch(/data stream timestamp field \[@timestamp\] is missing/);
  });

  it('searches reach the backing indices: by name, _all, wildcards, count; hits name the backing index', async () => {
    await append('logs-app', [
      { '@timestamp': '2026-11-28T12:00:00Z', n: 3 },
      { '@timestamp': '2026-11-28T13:00:00Z', n: 4 },
    ]);
    const byName = await http(url, 'POST', '/logs-app/_search', { sort: [{ n: 'asc' }] });
    expect(byName.json.hits.hits.map((h: { _source: { n: number } }) => h._source.n)).toEqual([1, 2, 3, 4]);
    expect(byName.json.hits.hits[0]._index).toMatch(/^\.ds-logs-app-/);
    for (const path of ['/_search', '/logs-*/_search', '/_all/_search', '/*/_search']) {
      const r = await http(url, 'POST', `${path}?size=0`, { query: { range: { n: { gte: 1 } } } });
      expect(r.json.hits.total.value, path).toBe(4);
    }
    expect((await http(url, 'GET', '/logs-app/_count')).json.count).toBe(4);
    // _cat/indices and _stats take the stream as a target too.
    const cat = await http(url, 'GET', '/_cat/indices/logs-app?format=json&h=index,docs.count');
    expect(cat.status, cat.text).toBe(200);
    expect(cat.json).toEqual([{ index: `.ds-logs-app-${today()}-000001`, 'docs.count': '4' }]);
    const stats = await http(url, 'GET', '/logs-app/_stats/docs');
    expect(stats.json._all.primaries.docs.count).toBe(4);
  });

  it('PIT, scroll and slices read the stream', async () => {
    const pit = await http(url, 'POST', '/logs-app/_pit?keep_alive=1m');
    expect(pit.status, pit.text).toBe(200);
    const page = await http(url, 'POST', '/_search', {
      pit: { id: pit.json.id },
      size: 10,
      sort: [{ n: 'asc' }],
    });
    expect(page.json.hits.hits).toHaveLength(4);
    await http(url, 'DELETE', '/_pit', { id: pit.json.id });
    const walked = await walkScroll(url, '/logs-app/_search', { size: 1, sort: ['_doc'] });
    expect(walked.hits).toHaveLength(4);
    let sliced = 0;
    for (const id of [0, 1]) {
      const r = await walkScroll(url, '/logs-app/_search', { size: 2, slice: { id, max: 2 } });
      sliced += r.hits.length;
    }
    expect(sliced).toBe(4);
  });

  it('rolls over to the next generation; old data stays searchable, new writes go to the new index', async () => {
    const r = await http(url, 'POST', '/logs-app/_rollover', { conditions: { max_docs: 1 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      old_index: `.ds-logs-app-${today()}-000001`,
      new_index: `.ds-logs-app-${today()}-000002`,
      rolled_over: true,
      conditions: { '[max_docs: 1]': true },
    });
    const w = await http(url, 'POST', '/logs-app/_doc?refresh=true', {
      '@timestamp': '2026-11-29T00:00:00Z',
      n: 5,
    });
    expect(w.json._index).toBe(`.ds-logs-app-${today()}-000002`);
    expect((await http(url, 'GET', '/logs-app/_count')).json.count).toBe(5);
    const got = await http(url, 'GET', '/_data_stream/logs-app');
    expect(got.json.data_streams[0].generation).toBe(2);
    const renamed = await http(url, 'POST', '/logs-app/_rollover/other-name');
    expect(renamed.status).toBe(400);
    const old = `.ds-logs-app-${today()}-000002`;
    const del = await http(url, 'DELETE', `/${old}`);
    expect(del.status).toBe(400);
    expect(del.json.error.reason).toBe(
      `index [${old}] is the write index for data stream [logs-app] and cannot be deleted`,
    );
  });

  it('stats', async () => {
    const r = await http(url, 'GET', '/_data_stream/logs-app/_stats');
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ data_stream_count: 1, backing_indices: 2 });
    expect(r.json.data_streams[0]).toMatchObject({ data_stream: 'logs-app', backing_indices: 2 });
    expect(r.json.data_streams[0].maximum_timestamp).toBe(Date.parse('2026-11-29T00:00:00Z'));
  });

  it('PUT /_data_stream and its errors; the alias APIs leave the stream alone', async () => {
    expect((await http(url, 'PUT', '/_data_stream/logs-other')).status).toBe(200);
    const again = await http(url, 'PUT', '/_data_stream/logs-other');
    expect(again.status).toBe(400);
    expect(again.json.error.reason).toBe('data_stream [logs-other] already exists');
    const noTemplate = await http(url, 'PUT', '/_data_stream/nothing-matches');
    expect(noTemplate.json.error.reason).toBe(
      'no matching index template found for data stream [nothing-matches]',
    );
    await http(url, 'PUT', '/_index_template/plain', { index_patterns: ['plain-*'], priority: 1 });
    const plain = await http(url, 'PUT', '/_data_stream/plain-x');
    expect(plain.json.error.reason).toBe(
      'matching index template [plain] for data stream [plain-x] has no data stream template',
    );
    expect((await http(url, 'GET', '/_data_stream/nope')).status).toBe(404);
    const aliases = await http(url, 'GET', '/_alias');
    for (const entry of Object.values(aliases.json as Record<string, { aliases: Record<string, unknown> }>)) {
      expect(Object.keys(entry.aliases)).not.toContain('logs-app');
    }
    const list = await http(url, 'GET', '/_data_stream');
    expect(list.json.data_streams.map((d: { name: string }) => d.name)).toEqual(['logs-app', 'logs-other']);
  });

  it('survives a restart, then deletes with its backing indices', async () => {
    node = await node.restart();
    url = node.url;
    expect((await http(url, 'GET', '/logs-app/_count')).json.count).toBe(5);
    const w = await http(url, 'POST', '/logs-app/_doc', { '@timestamp': '2026-11-30T00:00:00Z', n: 6 });
    expect(w.json._index).toBe(`.ds-logs-app-${today()}-000002`);
    expect((await http(url, 'DELETE', '/_data_stream/logs-*')).status).toBe(200);
    expect((await http(url, 'GET', '/_data_stream')).json.data_streams).toEqual([]);
    expect((await http(url, 'HEAD', `/.ds-logs-app-${today()}-000001`)).status).toBe(404);
  });
});

describe('a stream written for a while, with rollovers between writes', () => {
  it('a PIT across three generations pages every document once; a sliced scroll over a wildcard equals the plain one', async () => {
    let n = 0;
    for (let gen = 0; gen < 3; gen++) {
      await append(
        'logs-long',
        Array.from({ length: 25 }, () => ({
          '@timestamp': new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
          n: n++,
        })),
      );
      if (gen < 2) expect((await http(url, 'POST', '/logs-long/_rollover')).json.rolled_over).toBe(true);
    }
    const stream = (await http(url, 'GET', '/_data_stream/logs-long')).json.data_streams[0];
    expect(stream.indices).toHaveLength(3);
    const pit = await http(url, 'POST', '/logs-long/_pit?keep_alive=1m');
    // Writes after the PIT opened are not seen by it.
    await append('logs-long', [{ '@timestamp': '2026-12-01T00:00:00Z', n: 999 }]);
    const seen: number[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const body: Json = {
        pit: { id: pit.json.id, keep_alive: '1m' },
        size: 7,
        sort: [{ '@timestamp': 'asc' }],
      };
      if (after) body.search_after = after;
      const page = await http(url, 'POST', '/_search', body);
      const hits = page.json.hits.hits as { _source: { n: number }; sort: unknown[] }[];
      if (hits.length === 0) break;
      seen.push(...hits.map((h) => h._source.n));
      after = hits[hits.length - 1]!.sort;
    }
    expect(seen).toEqual(Array.from({ length: 75 }, (_, i) => i));
    await http(url, 'DELETE', '/_pit', { id: pit.json.id });

    const plain = await walkScroll(url, '/logs-l*/_search', { size: 9, sort: ['_doc'] });
    const sliced: string[] = [];
    for (const id of [0, 1, 2]) {
      sliced.push(
        ...(await walkScroll(url, '/logs-l*/_search', { size: 9, slice: { id, max: 3 } })).hits.map(
          (h) => h._id,
        ),
      );
    }
    expect(sliced.sort()).toEqual(plain.hits.map((h) => h._id).sort());
    expect(plain.hits).toHaveLength(76);
  });

  it('deleting a stream deletes its backing indices and frees their contexts', async () => {
    await http(url, 'POST', '/logs-long/_pit?keep_alive=5m');
    const open = async () => {
      const r = await http(url, 'GET', '/_nodes/stats/indices/search');
      return Object.values(
        r.json.nodes as Record<string, { indices: { search: { open_contexts: number } } }>,
      )[0]!.indices.search.open_contexts;
    };
    expect(await open()).toBeGreaterThan(0);
    const backing = (await http(url, 'GET', '/_data_stream/logs-long')).json.data_streams[0].indices.map(
      (i: { index_name: string }) => i.index_name,
    );
    expect((await http(url, 'DELETE', '/_data_stream/logs-long')).status).toBe(200);
    for (const b of backing) expect((await http(url, 'HEAD', `/${b}`)).status).toBe(404);
    expect(await open()).toBe(0);
  });

  it('_modify moves backing indices; _migrate turns an alias into a stream', async () => {
    await append('logs-mod', [{ '@timestamp': '2026-11-28T00:00:00Z', n: 1 }]);
    await http(url, 'POST', '/logs-mod/_rollover');
    const first = (await http(url, 'GET', '/_data_stream/logs-mod')).json.data_streams[0].indices[0]
      .index_name;
    const removed = await http(url, 'POST', '/_data_stream/_modify', {
      actions: [{ remove_backing_index: { data_stream: 'logs-mod', index: first } }],
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await http(url, 'GET', '/logs-mod/_count')).json.count).toBe(0);
    const back = await http(url, 'POST', '/_data_stream/_modify', {
      actions: [{ add_backing_index: { data_stream: 'logs-mod', index: first } }],
    });
    expect(back.status, back.text).toBe(200);
    expect((await http(url, 'GET', '/logs-mod/_count')).json.count).toBe(1);
    const write = (await http(url, 'GET', '/_data_stream/logs-mod')).json.data_streams[0].indices.at(
      -1,
    ).index_name;
    const noWrite = await http(url, 'POST', '/_data_stream/_modify', {
      actions: [{ remove_backing_index: { data_stream: 'logs-mod', index: write } }],
    });
    expect(noWrite.status).toBe(400);

    // The alias and its index exist before the data stream template that matches them.
    await http(url, 'PUT', '/mig-000001', {
      mappings: { properties: { '@timestamp': { type: 'date' } } },
      aliases: { mig: { is_write_index: true } },
    });
    await http(url, 'PUT', '/mig-000001/_doc/1?refresh=true', { '@timestamp': '2026-11-28T00:00:00Z' });
    await http(url, 'PUT', '/_index_template/mig', {
      index_patterns: ['mig*'],
      data_stream: {},
      priority: 100,
    });
    const migrated = await http(url, 'POST', '/_data_stream/_migrate/mig');
    expect(migrated.status, migrated.text).toBe(200);
    const got = (await http(url, 'GET', '/_data_stream/mig')).json.data_streams[0];
    expect(got.indices.map((i: { index_name: string }) => i.index_name)).toEqual(['mig-000001']);
    const w = await http(url, 'POST', '/mig/_doc?refresh=true', { '@timestamp': '2026-11-29T00:00:00Z' });
    expect(w.json._index).toBe('mig-000001');
    expect((await http(url, 'GET', '/mig/_count')).json.count).toBe(2);
    expect((await http(url, 'GET', '/_ilm/policy')).status).toBe(501);
  });
});

describe('a hidden data stream', () => {
  it('is reached by its name or with expand_wildcards=hidden, not by * or _all', async () => {
    await http(url, 'PUT', '/_index_template/hidden-ds', {
      index_patterns: ['secret-*'],
      data_stream: { hidden: true },
      priority: 100,
    });
    await append('secret-x', [{ '@timestamp': '2026-11-28T00:00:00Z', n: 1 }]);
    expect((await http(url, 'GET', '/secret-x/_count')).json.count).toBe(1);
    const inSecret = (r: { json: { hits: { hits: { _index: string }[] } } }) =>
      r.json.hits.hits.filter((h) => h._index.startsWith('.ds-secret-x-')).length;
    const all = await http(url, 'POST', '/_search?size=100', { query: { match_all: {} } });
    expect(inSecret(all)).toBe(0);
    const wildcard = await http(url, 'POST', '/secret-*/_search?size=0', { query: { match_all: {} } });
    expect(wildcard.json.hits.total.value).toBe(0);
    const hidden = await http(url, 'POST', '/secret-*/_search?expand_wildcards=all', {
      query: { match_all: {} },
    });
    expect(inSecret(hidden)).toBe(1);
    expect(
      (await http(url, 'GET', '/_data_stream')).json.data_streams.map((d: { name: string }) => d.name),
    ).not.toContain('secret-x');
    expect(
      (await http(url, 'GET', '/_data_stream?expand_wildcards=hidden')).json.data_streams.map(
        (d: { name: string }) => d.name,
      ),
    ).toContain('secret-x');
  });
});
