/**
 * The official 8.x client (it sends Elasticsearch 8's compatible-with media types and checks
 * the product header) against the bulk-by-scroll, task, template, field caps and analyze APIs.
 */
import { Client } from 'elasticsearch8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let client: Client;

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
  await client.indices.create({
    index: 'c8',
    mappings: { properties: { n: { type: 'integer' }, tag: { type: 'keyword' } } },
  });
  await client.bulk({
    refresh: true,
    operations: Array.from({ length: 30 }, (_, i) => [
      { index: { _index: 'c8', _id: `${i}` } },
      { n: i, tag: i % 2 ? 'odd' : 'even' },
    ]).flat(),
  });
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
});

describe('the 8.x client', () => {
  it('reindex with slices, and tasks.get of one started without waiting', async () => {
    const r = await client.reindex({
      refresh: true,
      slices: 'auto',
      source: { index: 'c8' },
      dest: { index: 'c8-copy' },
    });
    expect(r.created).toBe(30);
    const started = await client.reindex({
      wait_for_completion: false,
      source: { index: 'c8', query: { term: { tag: 'odd' } } },
      dest: { index: 'c8-odd' },
    });
    const task = await client.tasks.get({ task_id: String(started.task), wait_for_completion: true });
    expect(task.completed).toBe(true);
    expect((task.response as { created: number }).created).toBe(15);
    const list = await client.tasks.list({ actions: '*reindex', detailed: true });
    expect(list.nodes ?? {}).toEqual({});
  });

  it('updateByQuery and deleteByQuery', async () => {
    const u = await client.updateByQuery({
      index: 'c8-copy',
      refresh: true,
      query: { range: { n: { lt: 10 } } },
    });
    expect(u.updated).toBe(10);
    const d = await client.deleteByQuery({
      index: 'c8-copy',
      refresh: true,
      query: { term: { tag: 'even' } },
    });
    expect(d.deleted).toBe(15);
    expect((await client.count({ index: 'c8-copy' })).count).toBe(15);
  });

  it('searchTemplate, renderSearchTemplate and msearchTemplate', async () => {
    const s = await client.searchTemplate({
      index: 'c8',
      source: '{"query":{"term":{"tag":"{{t}}"}}}',
      params: { t: 'odd' },
    });
    expect((s.hits.total as { value: number }).value).toBe(15);
    const rendered = await client.renderSearchTemplate({ source: '{"size":{{n}}}', params: { n: 3 } });
    expect(rendered.template_output).toEqual({ size: 3 });
    const m = await client.msearchTemplate({
      index: 'c8',
      search_templates: [{}, { source: '{"query":{"range":{"n":{"gte":{{min}}}}}}', params: { min: 25 } }],
    });
    expect((m.responses[0] as { hits: { total: { value: number } } }).hits.total.value).toBe(5);
  });

  it('fieldCaps and indices.analyze', async () => {
    const caps = await client.fieldCaps({ index: 'c8', fields: 'n,tag' });
    expect(caps.fields.n?.integer?.aggregatable).toBe(true);
    const a = await client.indices.analyze({ analyzer: 'standard', text: 'Hello World' });
    expect(a.tokens?.map((t) => t.token)).toEqual(['hello', 'world']);
  });

  it('update with a script and a scripted upsert, and a search with runtime_mappings', async () => {
    const u = await client.update({
      index: 'c8',
      id: '1',
      script: { source: 'ctx._source.n += params.by', params: { by: 100 } },
    });
    expect(u.result).toBe('updated');
    await client.update({
      index: 'c8',
      id: 'new',
      script: { source: "ctx._source.tag = 'made'" },
      upsert: { n: -1 },
      scripted_upsert: true,
      refresh: true,
    });
    expect((await client.get({ index: 'c8', id: 'new' }))._source).toEqual({ n: -1, tag: 'made' });
    const r = await client.search({
      index: 'c8',
      runtime_mappings: { big: { type: 'boolean', script: { source: "emit(doc['n'].value >= 100)" } } },
      query: { term: { big: true } },
      fields: ['big'],
    });
    expect(r.hits.hits.map((h) => [h._id, h.fields])).toEqual([['1', { big: [true] }]]);
  });
});
