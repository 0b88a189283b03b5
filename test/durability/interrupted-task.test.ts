/**
 * A node killed in the middle of a reindex started with `wait_for_completion=false`: after the
 * restart its task is reported completed with an error, and with the status it last stored
 * (what it had copied), never as running forever nor as complete.
 */
import { afterAll, expect, it } from 'vitest';
import { bulk, type Json } from '../paging/paging-support.ts';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode | undefined;

afterAll(async () => {
  await node?.stop();
});

it('a reindex interrupted by a crash is marked failed with what it had done', async () => {
  node = await startTestNode();
  await bulk(
    node.url,
    'it_src',
    Array.from({ length: 40 }, (_, i) => [`${i}`, { n: i }] as [string, Json]),
  );
  const r = await http(node.url, 'POST', '/_reindex?wait_for_completion=false&requests_per_second=8', {
    source: { index: 'it_src', size: 2 },
    dest: { index: 'it_dst' },
  });
  const task = r.json.task as string;
  // Long enough for a few batches and a stored progress report.
  await new Promise((res) => setTimeout(res, 2500));
  await node.kill();
  node = await node.restart();
  const got = await http(node.url, 'GET', `/_tasks/${task}`);
  expect(got.status, got.text).toBe(200);
  expect(got.json.completed).toBe(true);
  expect(got.json.error.type).toBe('node_closed_exception');
  expect(got.json.response).toBeUndefined();
  const copied = got.json.task.status.created as number;
  expect(copied).toBeGreaterThan(0);
  expect(copied).toBeLessThan(40);
  // A new task gets an id the stored one does not have.
  const next = await http(node.url, 'POST', '/_reindex?wait_for_completion=false', {
    source: { index: 'it_src' },
    dest: { index: 'it_dst2' },
  });
  expect(Number(next.json.task.split(':')[1])).toBeGreaterThan(Number(task.split(':')[1]));
});
