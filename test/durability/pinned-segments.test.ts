/**
 * A PIT or a scroll pins the segments it reads: a merge that replaces them, and the commit after
 * it, leave their files on disk until the last context releases them (Lucene's IndexFileDeleter).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ workers: 1 });
});
afterAll(async () => {
  await node?.stop();
});

function segmentFiles(index: string): string[] {
  const root = join(node.dataPath, 'indices');
  const uuid = readdirSync(root).find(
    (u) => JSON.parse(readFileSync(join(root, u, '_state', 'index.json'), 'utf8')).name === index,
  )!;
  const dir = join(root, uuid, '0', 'index');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.seg'))
    .map((f) => join(dir, f));
}

async function loadInThreeSegments(index: string) {
  await http(node.url, 'PUT', `/${index}`, {
    settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: -1 },
  });
  for (let b = 0; b < 3; b++) {
    const lines = Array.from({ length: 10 }, (_, i) => [{ index: { _id: `${b}-${i}` } }, { b, i }]).flat();
    await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(lines));
  }
  await http(node.url, 'POST', `/${index}/_flush`);
  const files = segmentFiles(index);
  expect(files).toHaveLength(3);
  return files;
}

describe('segments pinned by a PIT or a scroll', () => {
  it('a PIT keeps merged-away segment files until it is closed', async () => {
    const before = await loadInThreeSegments('pinned');
    const pit = await http(node.url, 'POST', '/pinned/_pit?keep_alive=1m');
    expect(pit.status, pit.text).toBe(200);
    await http(node.url, 'POST', '/pinned/_bulk?refresh=true', ndjson([{ delete: { _id: '0-0' } }]));
    expect((await http(node.url, 'POST', '/pinned/_forcemerge?max_num_segments=1')).status).toBe(200);
    for (const f of before) expect(existsSync(f), f).toBe(true);
    const search = await http(node.url, 'POST', '/_search', { pit: { id: pit.json.id }, size: 100 });
    expect(search.json.hits.total.value).toBe(30);
    expect((await http(node.url, 'DELETE', '/_pit', { id: pit.json.id })).status).toBe(200);
    for (const f of before) expect(existsSync(f), f).toBe(false);
    expect(segmentFiles('pinned')).toHaveLength(1);
  });

  it('a scroll keeps them until it is cleared', async () => {
    const before = await loadInThreeSegments('scrolled');
    const first = await http(node.url, 'POST', '/scrolled/_search?scroll=1m', { size: 5 });
    expect(first.status, first.text).toBe(200);
    expect((await http(node.url, 'POST', '/scrolled/_forcemerge?max_num_segments=1')).status).toBe(200);
    for (const f of before) expect(existsSync(f), f).toBe(true);
    const next = await http(node.url, 'POST', '/_search/scroll', {
      scroll: '1m',
      scroll_id: first.json._scroll_id,
    });
    expect(next.json.hits.hits).toHaveLength(5);
    await http(node.url, 'DELETE', '/_search/scroll', { scroll_id: first.json._scroll_id });
    for (const f of before) expect(existsSync(f), f).toBe(false);
  });
});
