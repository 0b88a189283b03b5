import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  for (const name of ['logs-a', 'logs-b']) {
    expect((await http(node.url, 'PUT', `/${name}`, { settings: { number_of_shards: 2 } })).status).toBe(200);
  }
  const lines = Array.from({ length: 5 }, (_, i) => [{ index: { _id: String(i) } }, { n: i }]).flat();
  expect((await http(node.url, 'POST', '/logs-a/_bulk?refresh=true', ndjson(lines))).json.errors).toBe(false);
  const aliases = await http(node.url, 'POST', '/_aliases', {
    actions: [
      {
        add: { index: 'logs-a', alias: 'recent', filter: { range: { n: { gte: 3 } } }, is_write_index: true },
      },
      { add: { index: 'logs-b', alias: 'recent' } },
      { add: { index: 'logs-a', alias: 'routed', routing: '1' } },
    ],
  });
  expect(aliases.status).toBe(200);
  expect(
    (
      await http(node.url, 'PUT', '/_index_template/tpl', {
        index_patterns: ['tpl-*', 'other-*'],
        priority: 7,
        version: 3,
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await node?.stop();
});

const cat = (path: string) => http(node.url, 'GET', path);

describe('_cat/count, _cat/aliases and _cat/templates', () => {
  it('counts documents, through aliases and their filters too', async () => {
    const all = await cat('/_cat/count/logs-*?format=json');
    expect(all.status).toBe(200);
    expect(all.json).toHaveLength(1);
    expect(all.json[0].count).toBe('5');
    expect(Number(all.json[0].epoch)).toBeGreaterThan(0);
    expect((await cat('/_cat/count/recent?format=json')).json[0].count).toBe('2');
    const text = await cat('/_cat/count/logs-a?v&h=count');
    expect(text.text).toBe('count\n    5\n');
    expect((await cat('/_cat/count/nope')).status).toBe(404);
  });

  it('lists each alias of each index with its filter, routing and write flag', async () => {
    const r = await cat('/_cat/aliases/r*?format=json&s=alias,index');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      {
        alias: 'recent',
        index: 'logs-a',
        filter: '*',
        'routing.index': '-',
        'routing.search': '-',
        is_write_index: 'true',
      },
      {
        alias: 'recent',
        index: 'logs-b',
        filter: '-',
        'routing.index': '-',
        'routing.search': '-',
        is_write_index: '-',
      },
      {
        alias: 'routed',
        index: 'logs-a',
        filter: '-',
        'routing.index': '1',
        'routing.search': '1',
        is_write_index: '-',
      },
    ]);
    const one = await cat('/_cat/aliases/rout*?h=alias,index');
    expect(one.text.trim()).toBe('routed logs-a');
  });

  it('lists index templates with their patterns, priority, version and components', async () => {
    const r = await cat('/_cat/templates/tpl?format=json');
    expect(r.json).toEqual([
      { name: 'tpl', index_patterns: '[tpl-*, other-*]', order: '7', version: '3', composed_of: '[]' },
    ]);
    expect((await cat('/_cat/templates/none*?format=json')).json).toEqual([]);
  });
});
