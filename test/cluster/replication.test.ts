/**
 * Replicas that hold the data, on three real node processes: every write applied on a primary
 * reaches its replicas before it is acknowledged (`_shards` counts the copies), a replica added
 * later recovers the primary's documents while writes go on, and when the node holding a
 * primary is killed (SIGKILL) the master promotes its in-sync replica, allocates a new one, and
 * every acknowledged document is still there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http, ndjson } from '../support/http.ts';

let cluster: TestCluster;
let urls: string[];

interface CatShard {
  index: string;
  shard: string;
  prirep: string;
  state: string;
  docs: string | null;
  node: string | null;
}

beforeAll(async () => {
  cluster = await startTestCluster({ nodes: 3, security: false });
  urls = cluster.nodes.map((n) => n.url);
  await agreedMaster(cluster.nodes, 3);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

const NDJSON = { 'content-type': 'application/x-ndjson' };

/** The errors of a bulk's items (none expected). */
const itemErrors = (r: { json: { items: { index: { error?: unknown } }[] } }) =>
  r.json.items.flatMap((i) => (i.index.error ? [i.index.error] : []));

function bulkBody(from: number, to: number, extra: Record<string, unknown> = {}): string {
  const lines: unknown[] = [];
  for (let i = from; i < to; i++) lines.push({ index: { _id: String(i) } }, { n: i, ...extra });
  return ndjson(lines);
}

async function shardsOf(url: string, index: string): Promise<CatShard[]> {
  const r = await http(url, 'GET', `/_cat/shards/${index}?format=json&h=index,shard,prirep,state,docs,node`);
  return r.json as CatShard[];
}

/** The copies of `index` once every one is started and each shard's copies hold the same number of docs. */
function copiesInStep(url: string, index: string, copiesPerShard: number): Promise<CatShard[]> {
  return eventually(`every copy of [${index}] started and in step`, async () => {
    await http(url, 'POST', `/${index}/_refresh`);
    const rows = await shardsOf(url, index);
    if (rows.some((r) => r.state !== 'STARTED')) return undefined;
    const byShard = new Map<string, CatShard[]>();
    for (const r of rows) byShard.set(r.shard, [...(byShard.get(r.shard) ?? []), r]);
    for (const copies of byShard.values()) {
      if (copies.length !== copiesPerShard) return undefined;
      if (new Set(copies.map((c) => c.docs)).size !== 1) return undefined;
    }
    return rows;
  });
}

const primaryDocs = (rows: CatShard[]) =>
  rows.filter((r) => r.prirep === 'p').reduce((n, r) => n + Number(r.docs), 0);

describe('write replication', () => {
  it('applies every write on the replicas before acknowledging it, and says so in _shards', async () => {
    const created = await http(urls[0]!, 'PUT', '/rep', {
      settings: { number_of_shards: 2, number_of_replicas: 1 },
    });
    expect(created.status).toBe(200);
    const green = await http(urls[1]!, 'GET', '/_cluster/health/rep?wait_for_status=green&timeout=20s');
    expect(green.json.status).toBe('green');

    const bulk = await http(urls[1]!, 'POST', '/rep/_bulk?refresh=true', bulkBody(0, 200), NDJSON);
    expect(bulk.json.errors).toBe(false);
    for (const item of bulk.json.items) {
      expect(item.index._shards).toEqual({ total: 2, successful: 2, failed: 0 });
    }
    const one = await http(urls[2]!, 'PUT', '/rep/_doc/solo?refresh=true', { n: -1 });
    expect(one.json._shards).toEqual({ total: 2, successful: 2, failed: 0 });
    // An update and a delete reach the replicas too; a noop reaches no copy.
    const upd = await http(urls[0]!, 'POST', '/rep/_update/5?refresh=true', { doc: { n: 500 } });
    expect(upd.json).toMatchObject({ result: 'updated', _shards: { total: 2, successful: 2, failed: 0 } });
    const del = await http(urls[0]!, 'DELETE', '/rep/_doc/6?refresh=true');
    expect(del.json).toMatchObject({ result: 'deleted', _shards: { total: 2, successful: 2, failed: 0 } });
    const noop = await http(urls[0]!, 'POST', '/rep/_update/5', { doc: { n: 500 } });
    expect(noop.json).toMatchObject({ result: 'noop', _shards: { total: 0, successful: 0, failed: 0 } });

    const rows = await copiesInStep(urls[0]!, 'rep', 2);
    expect(primaryDocs(rows)).toBe(200);
    // A refresh reaches every copy (reads go to replicas too).
    const refreshed = await http(urls[2]!, 'POST', '/rep/_refresh');
    expect(refreshed.json._shards).toEqual({ total: 4, successful: 4, failed: 0 });
    // Each shard's primary and replica are on different nodes and hold the same documents.
    for (const s of ['0', '1']) {
      const copies = rows.filter((r) => r.shard === s);
      expect(new Set(copies.map((c) => c.node)).size).toBe(2);
    }
    // Reads go to replicas too (a node reads its own copies first): every node sees the same.
    for (const url of urls) {
      const r = await http(url, 'POST', '/rep/_search?size=0', { query: { range: { n: { gte: 100 } } } });
      expect(r.json.hits.total.value).toBe(101);
    }
  });

  it('waits for as many active copies as wait_for_active_shards asks, or says why not', async () => {
    await http(urls[0]!, 'PUT', '/waits', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
    await http(urls[0]!, 'GET', '/_cluster/health/waits?wait_for_status=green&timeout=20s');
    const all = await http(urls[1]!, 'PUT', '/waits/_doc/1?wait_for_active_shards=all', { a: 1 });
    expect(all.status).toBe(201);
    expect(all.json._shards).toEqual({ total: 2, successful: 2, failed: 0 });
    const three = await http(urls[1]!, 'PUT', '/waits/_doc/2?wait_for_active_shards=3&timeout=200ms', {
      a: 2,
    });
    expect(three.status).toBe(503);
    expect(three.json.error).toMatchObject({
      type: 'unavailable_shards_exception',
      reason:
        '[waits][0] Not enough active copies to meet shard count of [3] (have 2, needed 3). Timeout: [200ms]',
    });
    expect((await http(urls[1]!, 'GET', '/waits/_doc/2')).json.found).toBe(false);
    // The index's own default, when the request names none.
    await http(urls[0]!, 'PUT', '/waits/_settings', { index: { 'write.wait_for_active_shards': '3' } });
    // The setting is acknowledged once committed; the primary's node applies it right after.
    let attempt = 0;
    const byIndex = await eventually('the index default applied', async () => {
      const r = await http(urls[2]!, 'PUT', `/waits/_doc/early-${attempt++}?timeout=200ms`, { a: 3 });
      return r.json.error ? r : undefined;
    });
    expect(byIndex.json.error.type).toBe('unavailable_shards_exception');
    expect((await http(urls[2]!, 'PUT', '/waits/_doc/3?wait_for_active_shards=1', { a: 3 })).status).toBe(
      201,
    );
  });

  it('recovers a new replica from its primary while writes go on', async () => {
    expect(
      (await http(urls[0]!, 'PUT', '/late', { settings: { number_of_shards: 1, number_of_replicas: 0 } }))
        .status,
    ).toBe(200);
    const first = await http(urls[0]!, 'POST', '/late/_bulk', bulkBody(0, 300), NDJSON);
    expect(first.json.errors).toBe(false);
    const more = (async () => {
      // Writes during the recovery: new documents, and rewrites of documents it copies.
      for (let i = 0; i < 10; i++) {
        const r = await http(
          urls[2]!,
          'POST',
          '/late/_bulk',
          bulkBody(i * 30, i * 30 + 30, { round: i }),
          NDJSON,
        );
        expect(itemErrors(r)).toEqual([]);
        const n = await http(urls[2]!, 'POST', '/late/_bulk', bulkBody(300 + i * 5, 305 + i * 5), NDJSON);
        expect(itemErrors(n)).toEqual([]);
      }
    })();
    const put = await http(urls[1]!, 'PUT', '/late/_settings', { index: { number_of_replicas: 1 } });
    expect(put.status).toBe(200);
    await more;
    const green = await http(urls[1]!, 'GET', '/_cluster/health/late?wait_for_status=green&timeout=20s');
    expect(green.json.status).toBe('green');
    const rows = await copiesInStep(urls[0]!, 'late', 2);
    expect(rows.map((r) => Number(r.docs))).toEqual([350, 350]);
    // Each copy, read on its own, has the rewritten versions, not the ones the recovery copied.
    for (const r of rows) {
      const found = await http(urls[0]!, 'POST', `/late/_search?preference=_only_nodes:${r.node}`, {
        size: 0,
        query: { term: { round: 9 } },
      });
      expect(found.json.hits.total.value).toBe(30);
      expect(found.json._shards).toMatchObject({ total: 1, successful: 1, failed: 0 });
    }
  });
});

describe('failover', () => {
  it('promotes the replica when the primary node is killed, and loses no acknowledged write', async () => {
    const master = (await http(urls[0]!, 'GET', '/_cat/master?format=json')).json[0].node as string;
    const before = await shardsOf(urls[0]!, 'rep');
    // A node holding a primary of [rep] that is not the master (the master is lost more slowly).
    const victimName =
      before.find((r) => r.prirep === 'p' && r.node !== master)?.node ??
      before.find((r) => r.prirep === 'p')!.node!;
    const victimIndex = cluster.names.indexOf(victimName);
    const victim = cluster.nodes[victimIndex]!;
    const witness = urls[(victimIndex + 1) % 3]!;
    const lostPrimaries = before.filter((r) => r.prirep === 'p' && r.node === victimName).length;
    expect(lostPrimaries).toBeGreaterThan(0);

    // A writer that keeps going through the kill; what it is told was written must survive.
    const acked: string[] = [];
    /** The primary term each acknowledged write was given. */
    const terms: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing && i < 400; i++) {
        const r = await http(witness, 'PUT', `/rep/_doc/w${i}`, { w: i });
        if (r.status === 200 || r.status === 201) {
          acked.push(`w${i}`);
          terms.push(r.json._primary_term);
        }
      }
    })();
    await eventually('a few writes before the kill', async () => (acked.length >= 5 ? true : undefined));
    await victim.kill();
    // Searches go on at once: a copy on the lost node is replaced by another copy of its shard.
    for (let i = 0; i < 3; i++) {
      const r = await http(witness, 'POST', '/rep/_search?size=0', {
        query: { range: { n: { gte: 0, lte: 199 } } },
      });
      expect(r.json._shards).toMatchObject({ total: 2, successful: 2, failed: 0 });
      expect(r.json.hits.total.value).toBe(198);
    }

    const yellow = await eventually('[rep] to have every primary active again', async () => {
      const h = (await http(witness, 'GET', '/_cluster/health/rep')).json;
      return h.number_of_nodes === 2 && h.active_primary_shards === 2 ? h : undefined;
    });
    expect(['yellow', 'green']).toContain(yellow.status);
    // Writes go on through the promoted primary, under its new term.
    await eventually('a write acknowledged by a promoted primary', async () =>
      terms.includes(2) ? true : undefined,
    );
    writing = false;
    await writer;

    // Two nodes are left: a new replica of each shard is placed on the other one and recovers.
    const green = await http(witness, 'GET', '/_cluster/health/rep?wait_for_status=green&timeout=20s');
    expect(green.json).toMatchObject({ status: 'green', number_of_nodes: 2, active_shards: 4 });
    const rows = await copiesInStep(witness, 'rep', 2);
    expect(primaryDocs(rows)).toBe(200 + acked.length);
    // The promoted shards' primary term went up; each shard's two copies are in sync.
    const meta = (await http(witness, 'GET', '/_cluster/state/metadata/rep')).json.metadata.indices.rep;
    const promoted = before.filter((r) => r.prirep === 'p' && r.node === victimName).map((r) => r.shard);
    for (const shard of ['0', '1']) {
      expect(meta.primary_terms[shard]).toBe(promoted.includes(shard) ? 2 : 1);
      expect(meta.in_sync_allocations[shard]).toHaveLength(2);
    }
    const found = await http(witness, 'POST', '/rep/_search', {
      size: 0,
      query: { ids: { values: acked } },
    });
    expect(found.json.hits.total.value).toBe(acked.length);
    expect(acked.length).toBeGreaterThan(5);
  });
});
