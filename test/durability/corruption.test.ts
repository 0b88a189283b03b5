/**
 * Damaged files on restart: a torn or bit-flipped translog tail is cut off with a warning (those
 * writes were never acknowledged, and a batch is never half-applied); a bit-flipped segment file
 * fails its shard with the reason everywhere a user looks, and the shard answers nothing.
 */
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode | undefined;
afterEach(async () => {
  await node?.stop();
  node = undefined;
});

/** One shard, so every file below belongs to it. */
async function indexWithTwoBatches(n: TestNode) {
  await http(n.url, 'PUT', '/t', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const batch = (from: number) =>
    ndjson(
      Array.from({ length: 20 }, (_, i) => [
        { index: { _id: String(from + i) } },
        { n: from + i, pad: 'y'.repeat(200) },
      ]).flat(),
    );
  expect((await http(n.url, 'POST', '/t/_bulk', batch(0))).json.errors).toBe(false);
  expect((await http(n.url, 'POST', '/t/_bulk', batch(20))).json.errors).toBe(false);
}

/** Shard 0 of index `t`. */
function shardDir(n: TestNode): string {
  const root = join(n.dataPath, 'indices');
  const uuid = readdirSync(root).find(
    (u) => JSON.parse(readFileSync(join(root, u, '_state', 'index.json'), 'utf8')).name === 't',
  )!;
  return join(root, uuid, '0');
}

function translogFile(n: TestNode): string {
  const dir = join(shardDir(n), 'translog');
  return join(
    dir,
    readdirSync(dir)
      .filter((f) => f.endsWith('.tlog'))
      .sort()
      .at(-1)!,
  );
}

async function count(n: TestNode): Promise<number> {
  await http(n.url, 'POST', '/t/_refresh');
  return (await http(n.url, 'POST', '/t/_count')).json.count;
}

describe('a damaged translog tail', () => {
  it('is truncated when a write was cut short: the earlier batch is whole, the torn one absent', async () => {
    node = await startTestNode();
    await indexWithTwoBatches(node);
    await node.kill();
    const f = translogFile(node);
    truncateSync(f, statSync(f).size - 150);
    node = await node.restart();
    expect(await count(node)).toBe(20);
    expect((await http(node.url, 'GET', '/t/_doc/19')).json.found).toBe(true);
    expect((await http(node.url, 'GET', '/t/_doc/20')).json.found).toBe(false);
    const warning = node.logs.find((l) => String(l.msg).includes('torn or corrupt tail'));
    expect(warning).toMatchObject({ level: 40, reason: 'frame cut short' });
    // Writes go on after the cut, and survive the next crash.
    await http(node.url, 'PUT', '/t/_doc/new', { n: -1 });
    await node.kill();
    node = await node.restart();
    expect(await count(node)).toBe(21);
  });

  it('is truncated when its last frame fails the checksum (a bit flip)', async () => {
    node = await startTestNode();
    await indexWithTwoBatches(node);
    await node.kill();
    const f = translogFile(node);
    const bytes = readFileSync(f);
    bytes[bytes.length - 30]! ^= 0x01;
    writeFileSync(f, bytes);
    node = await node.restart();
    expect(await count(node)).toBe(20);
    expect(node.logs.find((l) => String(l.msg).includes('torn or corrupt tail'))).toMatchObject({
      reason: 'checksum mismatch',
    });
  });
});

describe('a bit-flipped segment file', () => {
  it('fails the shard with a clear reason: log, _cat/shards, health and search failures', async () => {
    node = await startTestNode();
    await indexWithTwoBatches(node);
    await http(node.url, 'PUT', '/ok', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await http(node.url, 'PUT', '/ok/_doc/1?refresh=true', { n: 1 });
    expect((await http(node.url, 'POST', '/t/_flush')).status).toBe(200);
    await node.kill();
    const dir = join(shardDir(node), 'index');
    const seg = readdirSync(dir).find((f) => f.endsWith('.seg'))!;
    const bytes = readFileSync(join(dir, seg));
    bytes[Math.floor(bytes.length / 3)]! ^= 0x20;
    writeFileSync(join(dir, seg), bytes);
    node = await node.restart();

    const logged = node.logs.find((l) => l.msg === 'shard failed to recover; it is FAILED');
    expect(logged).toMatchObject({ level: 50, index: 't', shard: 0 });
    expect(String(logged!.reason)).toMatch(/corrupt_index_exception: checksum failed/);
    expect(String(logged!.reason)).toContain(seg);

    const cat = await http(
      node.url,
      'GET',
      '/_cat/shards/t?format=json&h=index,shard,state,unassigned.reason',
    );
    expect(cat.json[0]).toMatchObject({ state: 'FAILED' });
    expect(cat.json[0]['unassigned.reason']).toMatch(/corrupt_index_exception/);
    expect((await http(node.url, 'GET', '/_cluster/health/t')).json.status).toBe('red');

    const search = await http(node.url, 'POST', '/t,ok/_search', { query: { match_all: {} } });
    expect(search.status, search.text).toBe(200);
    expect(search.json._shards).toMatchObject({ total: 2, successful: 1, failed: 1 });
    expect(search.json._shards.failures[0].index).toBe('t');
    expect(search.json._shards.failures[0].reason.reason).toMatch(/corrupt_index_exception/);
    // Only the healthy index answers; nothing comes from the damaged shard.
    expect(search.json.hits.hits.map((h: { _index: string }) => h._index)).toEqual(['ok']);
    const onlyBad = await http(node.url, 'POST', '/t/_search', { query: { match_all: {} } });
    expect(onlyBad.status).toBe(503);
    expect((await http(node.url, 'GET', '/t/_doc/1')).status).toBeGreaterThanOrEqual(500);
  });
});
