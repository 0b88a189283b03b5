import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const PASSWORD = 'context-password';
const as = (user: string) => ({ authorization: basicAuth(user, PASSWORD) });

beforeAll(async () => {
  node = await startTestNode();
  for (let i = 0; i < 3; i++) await http(node.url, 'PUT', `/logs-1/_doc/${i}`, { n: i });
  await http(node.url, 'POST', '/logs-1/_refresh');
  await http(node.url, 'PUT', '/_security/role/logs_reader', {
    indices: [{ names: ['logs-*'], privileges: ['read'] }],
  });
  for (const u of ['ada', 'ben'])
    await http(node.url, 'PUT', `/_security/user/${u}`, { password: PASSWORD, roles: ['logs_reader'] });
});
afterAll(async () => {
  await node?.stop();
});

describe('scroll and point-in-time contexts belong to their user', () => {
  it("answers another user's scroll as missing, and lets its owner go on and clear it", async () => {
    const first = await http(node.url, 'POST', '/logs-1/_search?scroll=1m', { size: 1 }, as('ada'));
    expect(first.status).toBe(200);
    const id = first.json._scroll_id as string;
    const stolen = await http(
      node.url,
      'POST',
      '/_search/scroll',
      { scroll: '1m', scroll_id: id },
      as('ben'),
    );
    expect(stolen.status).toBe(404);
    expect(stolen.json.error.type).toBe('search_context_missing_exception');
    const next = await http(node.url, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: id }, as('ada'));
    expect(next.status).toBe(200);
    expect(next.json.hits.hits).toHaveLength(1);
    const clearedByOther = await http(
      node.url,
      'DELETE',
      '/_search/scroll',
      { scroll_id: [next.json._scroll_id] },
      as('ben'),
    );
    expect(clearedByOther.status).toBe(404);
    const cleared = await http(
      node.url,
      'DELETE',
      '/_search/scroll',
      { scroll_id: [next.json._scroll_id] },
      as('ada'),
    );
    expect(cleared.status).toBe(200);
    expect(cleared.json.succeeded).toBe(true);
  });

  it("answers another user's point in time as missing", async () => {
    const pit = await http(node.url, 'POST', '/logs-1/_pit?keep_alive=1m', undefined, as('ada'));
    expect(pit.status).toBe(200);
    const body = { pit: { id: pit.json.id, keep_alive: '1m' }, size: 1 };
    const stolen = await http(node.url, 'POST', '/_search', body, as('ben'));
    expect(stolen.status).toBe(404);
    expect(stolen.json.error.type).toBe('search_context_missing_exception');
    const own = await http(node.url, 'POST', '/_search', body, as('ada'));
    expect(own.status).toBe(200);
    expect((await http(node.url, 'DELETE', '/_pit', { id: pit.json.id }, as('ben'))).status).toBe(404);
    const closed = await http(node.url, 'DELETE', '/_pit', { id: pit.json.id }, as('ada'));
    expect(closed.status).toBe(200);
    expect(closed.json.succeeded).toBe(true);
  });

  it('keeps clearing every scroll for users who may read every index', async () => {
    expect((await http(node.url, 'DELETE', '/_search/scroll/_all', undefined, as('ada'))).status).toBe(404);
    expect((await http(node.url, 'DELETE', '/_search/scroll/_all')).status).toBe(200);
  });
});
