/**
 * Transforms at work, checkpoint by checkpoint: continuous `sync.time` checkpoints that
 * recompute only the buckets whose source documents changed, `_schedule_now`, a destination
 * that after random rounds of new and updated documents equals the pivot computed from
 * scratch, the retention policy, `docs_per_second` throttling, stopping mid-checkpoint (resumed
 * from its position, or after the checkpoint with `wait_for_checkpoint`), latest, unattended,
 * and a started transform that resumes after a node restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const USERS = ['ann', 'bob', 'cid', 'dee', 'eve'];

async function stats(id: string): Promise<HttpResult['json']> {
  return (await http(node.url, 'GET', `/_transform/${id}/_stats`)).json.transforms[0];
}

/** Waits until the transform has completed `checkpoint` and is idle again. */
async function waitForCheckpoint(id: string, checkpoint: number): Promise<HttpResult['json']> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const t = await stats(id);
    if (t.checkpointing.last.checkpoint >= checkpoint && t.state !== 'indexing') return t;
    if (t.state === 'failed') throw new Error(`transform failed: ${t.reason}`);
    if (Date.now() > deadline) throw new Error(`checkpoint ${checkpoint} not reached: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until a `_schedule_now` trigger has been handled (the trigger count moved and the run is over). */
async function waitForTrigger(id: string, before: number): Promise<HttpResult['json']> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const t = await stats(id);
    if (t.stats.trigger_count > before && t.state === 'started') return t;
    if (Date.now() > deadline) throw new Error(`trigger not handled: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function bulk(index: string, docs: { id: string; doc: Record<string, unknown> }[]): Promise<void> {
  const body = ndjson(docs.flatMap((d) => [{ index: { _id: d.id } }, d.doc]));
  const r = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, body, {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors).toBe(false);
}

async function destDocs(index: string): Promise<HttpResult['json'][]> {
  const r = await http(node.url, 'POST', `/${index}/_search`, { size: 100, sort: ['user'], version: true });
  return r.json.hits.hits;
}

beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/events', {
    mappings: { properties: { time: { type: 'date' }, user: { type: 'keyword' }, value: { type: 'long' } } },
  });
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

const CONTINUOUS = {
  source: { index: 'events' },
  dest: { index: 'by-user' },
  frequency: '1h',
  sync: { time: { field: 'time', delay: '0s' } },
  pivot: {
    group_by: { user: { terms: { field: 'user' } } },
    aggs: { total: { sum: { field: 'value' } }, events: { value_count: { field: 'value' } } },
  },
};

describe('continuous transforms', () => {
  let nextId = 0;
  const values = new Map<string, { user: string; value: number }>();

  it('recomputes only the buckets whose documents changed, checkpoint by checkpoint', async () => {
    const now = Date.now();
    const first = USERS.slice(0, 3).map((user, i) => ({
      id: `d${nextId++}`,
      doc: { time: now - 10_000, user, value: i + 1 },
    }));
    await bulk('events', first);
    for (const d of first) values.set(d.id, { user: d.doc.user, value: d.doc.value });

    expect((await http(node.url, 'PUT', '/_transform/by-user', CONTINUOUS)).status).toBe(200);
    expect((await http(node.url, 'POST', '/_transform/by-user/_start')).status).toBe(200);
    const one = await waitForCheckpoint('by-user', 1);
    expect(one.state).toBe('started');
    expect(one.stats.documents_indexed).toBe(3);
    expect(one.checkpointing.last.time_upper_bound_millis).toBeGreaterThan(now - 10_000);
    const before = await destDocs('by-user');
    expect(before.map((h) => [h._source.user, h._source.total, h._version])).toEqual([
      ['ann', 1, 1],
      ['bob', 2, 1],
      ['cid', 3, 1],
    ]);

    // Nothing changed: the trigger finds no changes and opens no checkpoint.
    const trigger = one.stats.trigger_count;
    expect((await http(node.url, 'POST', '/_transform/by-user/_schedule_now')).json).toEqual({
      acknowledged: true,
    });
    const idle = await waitForTrigger('by-user', trigger);
    expect(idle.checkpointing.last.checkpoint).toBe(1);
    expect(idle.checkpointing.last_search_time).toBeGreaterThan(0);

    // One new document for bob: only bob's bucket is read again and rewritten.
    await bulk('events', [{ id: `d${nextId++}`, doc: { time: Date.now(), user: 'bob', value: 10 } }]);
    values.set(`d${nextId - 1}`, { user: 'bob', value: 10 });
    await http(node.url, 'POST', '/_transform/by-user/_schedule_now');
    const two = await waitForCheckpoint('by-user', 2);
    expect(two.stats.documents_indexed).toBe(4);
    expect(two.stats.documents_processed).toBe(3 + 2);
    const after = await destDocs('by-user');
    expect(after.map((h) => [h._source.user, h._source.total, h._source.events, h._version])).toEqual([
      ['ann', 1, 1, 1],
      ['bob', 12, 2, 2],
      ['cid', 3, 1, 1],
    ]);
  });

  it('keeps the destination equal to the pivot from scratch over random rounds of new and updated documents', async () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let checkpoint = (await stats('by-user')).checkpointing.last.checkpoint;
    for (let round = 0; round < 4; round++) {
      const docs: { id: string; doc: Record<string, unknown> }[] = [];
      for (let i = 0; i < 1 + Math.floor(random() * 4); i++) {
        const user = USERS[Math.floor(random() * USERS.length)]!;
        docs.push({ id: `d${nextId++}`, doc: { time: Date.now(), user, value: Math.floor(random() * 100) } });
      }
      // An update keeps its user and moves its time forward, as a sync field is meant to.
      const ids = [...values.keys()];
      const updated = ids[Math.floor(random() * ids.length)]!;
      const old = values.get(updated)!;
      docs.push({
        id: updated,
        doc: { time: Date.now(), user: old.user, value: Math.floor(random() * 100) },
      });
      await bulk('events', docs);
      for (const d of docs) values.set(d.id, { user: String(d.doc.user), value: Number(d.doc.value) });
      await http(node.url, 'POST', '/_transform/by-user/_schedule_now');
      checkpoint++;
      await waitForCheckpoint('by-user', checkpoint);
      const scratch = await http(node.url, 'POST', '/_transform/_preview', {
        source: { index: 'events' },
        pivot: CONTINUOUS.pivot,
      });
      const dest = (await destDocs('by-user')).map((h) => h._source);
      expect(dest, `round ${round}`).toEqual(scratch.json.preview);
      const expected = new Map<string, number>();
      for (const v of values.values()) expected.set(v.user, (expected.get(v.user) ?? 0) + v.value);
      expect(Object.fromEntries(dest.map((d) => [d.user, d.total]))).toEqual(Object.fromEntries(expected));
    }
  });

  it('resumes a started transform after a node restart', async () => {
    const checkpoint = (await stats('by-user')).checkpointing.last.checkpoint;
    node = await node.restart();
    const resumed = await stats('by-user');
    expect(resumed.state).toMatch(/started|indexing/);
    expect(resumed.checkpointing.last.checkpoint).toBe(checkpoint);
    await bulk('events', [{ id: `d${nextId++}`, doc: { time: Date.now(), user: 'ann', value: 1000 } }]);
    await http(node.url, 'POST', '/_transform/by-user/_schedule_now');
    await waitForCheckpoint('by-user', checkpoint + 1);
    const ann = (await destDocs('by-user')).find((h) => h._source.user === 'ann');
    expect(ann?._source.total).toBeGreaterThanOrEqual(1001);

    const stop = await http(node.url, 'POST', '/_transform/by-user/_stop?wait_for_completion=true');
    expect(stop.json).toEqual({ acknowledged: true });
    expect((await stats('by-user')).state).toBe('stopped');
    const notes = await http(
      node.url,
      'POST',
      '/.transform-notifications-000002/_search?expand_wildcards=all',
      {
        size: 100,
        query: { term: { transform_id: 'by-user' } },
      },
    );
    const messages = notes.json.hits.hits.map((h: { _source: { message: string } }) => h._source.message);
    expect(messages).toContain('Created transform.');
    expect(messages).toContain('Started transform.');
    expect(messages).toContain('Finished indexing for transform checkpoint [1].');
  }, 90_000);
});

describe('retention and throttling', () => {
  it('deletes destination documents older than the retention policy allows', async () => {
    await http(node.url, 'PUT', '/visits', {
      mappings: { properties: { time: { type: 'date' }, user: { type: 'keyword' } } },
    });
    await bulk('visits', [
      { id: '1', doc: { time: Date.now() - 3 * 3_600_000, user: 'gone' } },
      { id: '2', doc: { time: Date.now() - 60_000, user: 'kept' } },
    ]);
    await http(node.url, 'PUT', '/_transform/visits-retained', {
      source: { index: 'visits' },
      dest: { index: 'visits-by-user' },
      pivot: { group_by: { user: { terms: { field: 'user' } } }, aggs: { last: { max: { field: 'time' } } } },
      retention_policy: { time: { field: 'last', max_age: '1h' } },
    });
    await http(node.url, 'POST', '/_transform/visits-retained/_start');
    await waitForCheckpoint('visits-retained', 1);
    const t = await stats('visits-retained');
    expect(t.stats.documents_indexed).toBe(2);
    expect(t.stats.documents_deleted).toBe(1);
    expect((await destDocs('visits-by-user')).map((h) => h._source.user)).toEqual(['kept']);
  });

  it('waits between pages as docs_per_second asks', async () => {
    const docs = Array.from({ length: 20 }, (_, i) => ({
      id: String(i),
      doc: { time: Date.now(), user: `u${i}` },
    }));
    await http(node.url, 'PUT', '/many', {
      mappings: { properties: { time: { type: 'date' }, user: { type: 'keyword' } } },
    });
    await bulk('many', docs);
    await http(node.url, 'PUT', '/_transform/throttled', {
      source: { index: 'many' },
      dest: { index: 'many-by-user' },
      pivot: {
        group_by: { user: { terms: { field: 'user' } } },
        aggs: { n: { value_count: { field: 'time' } } },
      },
      settings: { max_page_search_size: 10, docs_per_second: 10 },
    });
    await http(node.url, 'POST', '/_transform/throttled/_start');
    // Between its two pages the checkpoint in progress shows how far it got.
    let progress: HttpResult['json'];
    for (let i = 0; i < 200 && progress === undefined; i++) {
      const s = await stats('throttled');
      if (s.checkpointing.next?.checkpoint_progress?.docs_processed === 10) progress = s.checkpointing.next;
      else if (s.checkpointing.last.checkpoint === 1) break;
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(progress?.checkpoint).toBe(1);
    expect(progress?.checkpoint_progress).toEqual({
      total_docs: 20,
      docs_remaining: 10,
      percent_complete: 50,
      docs_indexed: 10,
      docs_processed: 10,
    });
    const t = await waitForCheckpoint('throttled', 1);
    expect(t.stats.pages_processed).toBe(2);
    expect(t.stats.documents_indexed).toBe(20);
    // Two pages of 10 at 10 documents a second: at least a second between them.
    expect(t.stats.exponential_avg_checkpoint_duration_ms).toBeGreaterThanOrEqual(950);
  });
});

describe('stopping mid-checkpoint', () => {
  const throttled = (id: string, sync: boolean) => ({
    source: { index: 'many' },
    dest: { index: `${id}-dest` },
    pivot: {
      group_by: { user: { terms: { field: 'user' } } },
      aggs: { n: { value_count: { field: 'time' } } },
    },
    settings: { max_page_search_size: 10, docs_per_second: 10 },
    ...(sync ? { frequency: '1h', sync: { time: { field: 'time', delay: '0s' } } } : {}),
  });

  /** Waits until the first page of the checkpoint is written (the throttle then waits a second). */
  async function afterFirstPage(id: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const t = await stats(id);
      if (t.checkpointing.next?.checkpoint_progress?.docs_processed === 10) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the first page was not seen');
  }

  it('stops after the page in flight, keeps its position, and a start finishes the checkpoint', async () => {
    await http(node.url, 'PUT', '/_transform/halted', throttled('halted', false));
    await http(node.url, 'POST', '/_transform/halted/_start');
    await afterFirstPage('halted');
    const stop = await http(node.url, 'POST', '/_transform/halted/_stop?wait_for_completion=true');
    expect(stop.json).toEqual({ acknowledged: true });
    const halted = await stats('halted');
    expect(halted.state).toBe('stopped');
    expect(halted.checkpointing.last.checkpoint).toBe(0);
    expect(halted.checkpointing.next.checkpoint_progress.docs_processed).toBe(10);
    expect(halted.checkpointing.next.position.indexer_position).toBeDefined();
    await http(node.url, 'POST', '/_transform/halted/_start');
    const done = await waitForCheckpoint('halted', 1);
    expect(done.stats.documents_processed).toBe(20);
    expect(done.stats.documents_indexed).toBe(20);
    expect(done.stats.pages_processed).toBe(2);
  });

  it('with wait_for_checkpoint, finishes the checkpoint before stopping', async () => {
    await http(node.url, 'PUT', '/_transform/finishing', throttled('finishing', true));
    await http(node.url, 'POST', '/_transform/finishing/_start');
    await afterFirstPage('finishing');
    const stop = await http(
      node.url,
      'POST',
      '/_transform/finishing/_stop?wait_for_checkpoint=true&wait_for_completion=true',
    );
    expect(stop.json).toEqual({ acknowledged: true });
    const t = await stats('finishing');
    expect(t.state).toBe('stopped');
    expect(t.checkpointing.last.checkpoint).toBe(1);
    expect(t.stats.documents_indexed).toBe(20);
  });
});

describe('latest', () => {
  const at = (s: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, s)).toISOString();

  it('keeps the document with the highest sort value per key, whatever order the sync field gives', async () => {
    await http(node.url, 'PUT', '/orders', {
      mappings: {
        properties: {
          order_id: { type: 'keyword' },
          region: { type: 'keyword' },
          status: { type: 'keyword' },
          updated_at: { type: 'date' },
          ingested: { type: 'date' },
        },
      },
    });
    const order = (
      id: string,
      order_id: string,
      region: string,
      status: string,
      updated: number,
      ago: number,
    ) => ({
      id,
      doc: { order_id, region, status, updated_at: at(updated), ingested: Date.now() - ago },
    });
    await bulk('orders', [
      order('1', 'order-1', 'US', 'accepted', 5, 50_000),
      order('2', 'order-1', 'US', 'pending', 3, 40_000),
      order('3', 'order-2', 'EU', 'shipped', 8, 45_000),
      order('4', 'order-2', 'EU', 'processing', 1, 35_000),
      order('5', 'order-3', 'US', 'delivered', 2, 55_000),
    ]);
    const latest = { unique_key: ['order_id', 'region'], sort: 'updated_at' };
    const preview = await http(node.url, 'POST', '/_transform/_preview', {
      source: { index: 'orders' },
      latest,
    });
    expect(
      preview.json.preview.map((d: { order_id: string; status: string }) => [d.order_id, d.status]),
    ).toEqual([
      ['order-1', 'accepted'],
      ['order-2', 'shipped'],
      ['order-3', 'delivered'],
    ]);

    await http(node.url, 'PUT', '/_transform/orders-latest', {
      source: { index: 'orders' },
      dest: { index: 'orders-latest' },
      latest,
      frequency: '1h',
      sync: { time: { field: 'ingested', delay: '0s' } },
    });
    await http(node.url, 'POST', '/_transform/orders-latest/_start');
    await waitForCheckpoint('orders-latest', 1);
    // A late arrival older than what order-1 has, and a newer state of order-3.
    await bulk('orders', [
      order('6', 'order-1', 'US', 'late', 4, 0),
      order('7', 'order-3', 'US', 'returned', 9, 0),
    ]);
    await http(node.url, 'POST', '/_transform/orders-latest/_schedule_now');
    const t = await waitForCheckpoint('orders-latest', 2);
    expect(t.stats.documents_indexed).toBe(3 + 2);
    const docs = await http(node.url, 'POST', '/orders-latest/_search', {
      size: 10,
      sort: ['order_id.keyword'],
    });
    expect(docs.json.hits.hits.map((h: { _source: { status: string } }) => h._source.status)).toEqual([
      'accepted',
      'shipped',
      'returned',
    ]);
  });
});

describe('settings', () => {
  it('starts unattended without checks and retries until the source exists; dates_as_epoch_millis keeps keys as numbers', async () => {
    const put = await http(node.url, 'PUT', '/_transform/unattended?defer_validation=true', {
      source: { index: 'arrives-later' },
      dest: { index: 'arrives-later-by-day' },
      pivot: {
        group_by: { day: { date_histogram: { field: 'time', calendar_interval: '1d' } } },
        aggs: { n: { value_count: { field: 'time' } } },
      },
      settings: { unattended: true, dates_as_epoch_millis: true },
    });
    expect(put.status).toBe(200);
    expect((await http(node.url, 'POST', '/_transform/unattended/_start')).json).toEqual({
      acknowledged: true,
    });
    const waiting = await stats('unattended');
    expect(waiting.state).not.toBe('failed');
    await http(node.url, 'PUT', '/arrives-later', { mappings: { properties: { time: { type: 'date' } } } });
    await bulk('arrives-later', [{ id: '1', doc: { time: '2024-03-01T10:00:00Z' } }]);
    await http(node.url, 'POST', '/_transform/unattended/_schedule_now');
    await waitForCheckpoint('unattended', 1);
    const docs = await http(node.url, 'POST', '/arrives-later-by-day/_search', {});
    expect(docs.json.hits.hits.map((h: { _source: unknown }) => h._source)).toEqual([
      { day: Date.UTC(2024, 2, 1), n: 1 },
    ]);
    const got = await http(node.url, 'GET', '/_transform/unattended');
    expect(got.json.transforms[0].settings).toEqual({ dates_as_epoch_millis: true, unattended: true });
  });
});
