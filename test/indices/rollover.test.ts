/**
 * Rollover of an alias end to end (Elasticsearch's indices.rollover suites): the next name,
 * conditions met and not met, dry runs, a write alias kept on the old index, templates and
 * the request's settings on the new index, and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulk, type Json } from '../paging/paging-support.ts';
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

describe('rollover of an alias', () => {
  it('moves a single-index alias to logs-000002, where writes then go', async () => {
    await http(url, 'PUT', '/logs-000001', { aliases: { logs_write: {} } });
    await bulk(url, 'logs_write', [['1', { n: 1 }]]);
    const r = await http(url, 'POST', '/logs_write/_rollover', { conditions: { max_docs: 1 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      acknowledged: true,
      shards_acknowledged: true,
      old_index: 'logs-000001',
      new_index: 'logs-000002',
      rolled_over: true,
      dry_run: false,
      lazy: false,
      conditions: { '[max_docs: 1]': true },
    });
    const aliases = await http(url, 'GET', '/_alias/logs_write');
    expect(Object.keys(aliases.json)).toEqual(['logs-000002']);
    const w = await http(url, 'PUT', '/logs_write/_doc/2?refresh=true', { n: 2 });
    expect(w.json._index).toBe('logs-000002');
  });

  it('conditions not met: nothing rolls over; a dry run never does', async () => {
    await http(url, 'PUT', '/cond-000001', { aliases: { cond: {} } });
    const notYet = await http(url, 'POST', '/cond/_rollover', {
      conditions: { max_docs: 100, max_age: '7d', max_size: '1gb' },
    });
    expect(notYet.json).toMatchObject({
      rolled_over: false,
      new_index: 'cond-000002',
      conditions: { '[max_docs: 100]': false, '[max_age: 7d]': false, '[max_size: 1gb]': false },
    });
    expect((await http(url, 'HEAD', '/cond-000002')).status).toBe(404);
    const dry = await http(url, 'POST', '/cond/_rollover?dry_run=true', { conditions: { max_age: '0ms' } });
    expect(dry.json).toMatchObject({
      rolled_over: false,
      dry_run: true,
      conditions: { '[max_age: 0s]': true },
    });
    // A max condition met but a min condition not: no rollover.
    const mins = await http(url, 'POST', '/cond/_rollover', { conditions: { max_age: '0ms', min_docs: 1 } });
    expect(mins.json).toMatchObject({
      rolled_over: false,
      conditions: { '[max_age: 0s]': true, '[min_docs: 1]': false },
    });
  });

  it('a write alias stays on the old index, no longer its write index; a named new index with settings', async () => {
    await http(url, 'PUT', '/w-1', { aliases: { w: { is_write_index: true } } });
    const r = await http(url, 'POST', '/w/_rollover/w-next', { settings: { number_of_shards: 2 } });
    expect(r.json).toMatchObject({ old_index: 'w-1', new_index: 'w-next', rolled_over: true });
    const aliases = (await http(url, 'GET', '/_alias/w')).json;
    expect(aliases['w-1'].aliases.w.is_write_index).toBe(false);
    expect(aliases['w-next'].aliases.w.is_write_index).toBe(true);
    expect((await http(url, 'GET', '/w-next/_settings')).json['w-next'].settings.index.number_of_shards).toBe(
      '2',
    );
  });

  it('the new index gets what the templates give', async () => {
    await http(url, 'PUT', '/_index_template/rolled', {
      index_patterns: ['tpl-roll-*'],
      priority: 500,
      template: { mappings: { properties: { tag: { type: 'keyword' } } } },
    });
    await http(url, 'PUT', '/tpl-roll-000001', { aliases: { tr: {} } });
    await http(url, 'POST', '/tr/_rollover');
    const m = await http(url, 'GET', '/tpl-roll-000002/_mapping');
    expect(m.json['tpl-roll-000002'].mappings.properties.tag).toEqual({ type: 'keyword' });
  });

  it('errors', async () => {
    await bulk(url, 'concrete', [['1', { a: 1 }] as [string, Json]]);
    const concrete = await http(url, 'POST', '/concrete/_rollover');
    expect(concrete.status).toBe(400);
    expect(concrete.json.error.reason).toBe(
      'rollover target is a [concrete index] but one of [alias,data_stream] was expected',
    );
    const missing = await http(url, 'POST', '/no_such_alias/_rollover');
    expect(missing.json.error.reason).toBe('rollover target [no_such_alias] does not exist');
    await http(url, 'PUT', '/plain_name', { aliases: { plain: {} } });
    const noNumber = await http(url, 'POST', '/plain/_rollover');
    expect(noNumber.status).toBe(400);
    expect(noNumber.json.error.reason).toBe("index name [plain_name] does not match pattern '^.*-\\d+$'");
    await http(url, 'PUT', '/multi-1', { aliases: { multi: {} } });
    await http(url, 'PUT', '/multi-2', { aliases: { multi: {} } });
    const noWrite = await http(url, 'POST', '/multi/_rollover');
    expect(noWrite.json.error.reason).toBe('rollover target [multi] does not point to a write index');
    const badCondition = await http(url, 'POST', '/logs_write/_rollover', { conditions: { max_bananas: 1 } });
    expect(badCondition.status).toBe(400);
    expect(badCondition.json.error.reason).toMatch(/\[conditions\] unknown field \[max_bananas\]/);
  });
});
