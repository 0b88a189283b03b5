import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/t1');
});
afterAll(async () => {
  await node?.stop();
});

describe('_aliases body parsing', () => {
  it('refuses an unknown key inside an action with the position of the strict parser', async () => {
    const r = await http(node.url, 'POST', '/_aliases', {
      actions: [{ add: { index: 't1', alias: 'first' } }, { add: { index: 't1', alias: 'x', foo: 1 } }],
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[1:91] [aliases] failed to parse field [actions]',
      caused_by: {
        type: 'x_content_parse_exception',
        reason: '[1:91] [alias_action] failed to parse field [add]',
        caused_by: { type: 'x_content_parse_exception', reason: '[1:85] [add] unknown field [foo]' },
      },
    });
    // Nothing of the request was applied, not even its valid first action.
    const aliases = await http(node.url, 'GET', '/t1/_alias');
    expect(aliases.json).toEqual({ t1: { aliases: {} } });
  });

  it('refuses an unknown action', async () => {
    const r = await http(node.url, 'POST', '/_aliases', {
      actions: [{ rename: { index: 't1', alias: 'x' } }],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('[1:23] [aliases] failed to parse field [actions]');
    expect(r.json.error.caused_by.reason).toBe('[1:14] [alias_action] unknown field [rename]');
  });

  it('still applies valid actions', async () => {
    const r = await http(node.url, 'POST', '/_aliases', {
      actions: [
        { add: { index: 't1', alias: 'a1', is_write_index: true } },
        { remove: { index: 't1', alias: 'zz', must_exist: false } },
      ],
    });
    expect(r.status).toBe(200);
    const aliases = await http(node.url, 'GET', '/t1/_alias');
    expect(aliases.json).toEqual({ t1: { aliases: { a1: { is_write_index: true } } } });
  });
});
