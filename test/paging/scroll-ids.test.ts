/**
 * Which page a scroll id gets: every continuation on a live scroll goes on from where the
 * scroll stands and advances it, whichever of the scroll's ids is presented (Elasticsearch's
 * `scroll/10_basic` continues twice with the first id). A page the node could not write out
 * (its client left first) is the only one answered again.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/cluster-process.ts';
import { basicAuth, http, TEST_AUTH } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';
import { bulk, clearScroll, createIndex, type Hit, ids, type Json, search } from './paging-support.ts';

let node: TestNode;

/** The test superuser's credentials, for requests written by hand on a socket. */
const AUTH_HEADER = `authorization: ${basicAuth(TEST_AUTH.username, TEST_AUTH.password)}\r\n`;
let url: string;

const COUNT = 37;
const docs = Array.from(
  { length: COUNT },
  (_, i) => [`d${i}`, { n: i, pad: 'x'.repeat(i % 5) }] as [string, Json],
);
const allIds = docs.map(([id]) => id);

beforeAll(async () => {
  node = await startTestNode();
  url = node.url;
  for (const shards of [1, 3]) {
    await createIndex(url, `s${shards}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { n: { type: 'integer' } } },
    });
    await bulk(url, `s${shards}`, docs);
  }
});
afterAll(async () => {
  await node?.stop();
});

async function next(id: string, query = ''): Promise<{ hits: Hit[]; id: string }> {
  const r = await http(url, 'POST', `/_search/scroll${query}`, { scroll_id: id, scroll: '1m' });
  expect(r.status, r.text).toBe(200);
  // filter_path leaves out an empty page's hits.
  return { hits: r.json.hits?.hits ?? [], id: r.json._scroll_id };
}

/**
 * The ways a scroll is read: each sort goes through another path on the node (`_doc` and field
 * sorts are rendered by the shards, a score sort and `filter_path` are fetched and rendered by
 * the coordinator).
 */
const shapes: { name: string; body: Record<string, unknown>; query?: string }[] = [
  { name: 'sorted by _doc', body: { sort: ['_doc'] } },
  { name: 'sorted by a field', body: { sort: [{ n: 'desc' }] } },
  { name: 'sorted by score', body: { query: { match_all: {} } } },
  {
    name: 'through filter_path',
    body: { sort: [{ n: 'asc' }] },
    query: '?filter_path=_scroll_id,hits.hits._id',
  },
];

describe.each([1, 3])('a scroll over %i shard(s)', (shards) => {
  describe.each(shapes)('$name', ({ body, query = '' }) => {
    for (const size of [1, 5, 10]) {
      it(`walked with its first id only (size ${size}), returns every document once, then empty pages`, async () => {
        const first = await search(
          url,
          `/s${shards}/_search?scroll=1m&size=${size}${query ? `&${query.slice(1)}` : ''}`,
          body,
        );
        expect(first.status, first.text).toBe(200);
        const firstId = first.json._scroll_id as string;
        const seen = [...ids(first.json.hits.hits)];
        for (let guard = 0; guard < COUNT + 2; guard++) {
          const page = await next(firstId, query);
          if (page.hits === undefined || page.hits.length === 0) break;
          seen.push(...ids(page.hits));
        }
        expect(seen.sort()).toEqual([...allIds].sort());
        // Past the end, every call is an empty page, whichever id it presents.
        for (let i = 0; i < 3; i++) expect((await next(firstId, query)).hits ?? []).toEqual([]);
        await clearScroll(url, firstId);
      });
    }

    it('walked with each newest id, returns every document once, then empty pages', async () => {
      const first = await search(
        url,
        `/s${shards}/_search?scroll=1m&size=4${query ? `&${query.slice(1)}` : ''}`,
        body,
      );
      let id = first.json._scroll_id as string;
      const seen = [...ids(first.json.hits.hits)];
      for (let guard = 0; guard < COUNT; guard++) {
        const page = await next(id, query);
        id = page.id;
        if (page.hits === undefined || page.hits.length === 0) break;
        seen.push(...ids(page.hits));
      }
      expect(seen.sort()).toEqual([...allIds].sort());
      expect((await next(id, query)).hits ?? []).toEqual([]);
      await clearScroll(url, id);
    });
  });

  it('ids of one scroll presented in any order all advance the same scroll', async () => {
    const first = await search(url, `/s${shards}/_search?scroll=1m&size=3`, { sort: [{ n: 'asc' }] });
    const presented = [first.json._scroll_id as string];
    const seen: number[] = first.json.hits.hits.map((h: Hit) => h._source!.n);
    for (let i = 0; seen.length < COUNT; i++) {
      // The oldest, the newest and one in between, in turn.
      const id = presented[[0, presented.length - 1, presented.length >> 1][i % 3]!]!;
      const page = await next(id);
      presented.push(page.id);
      seen.push(...page.hits.map((h: Hit) => h._source!.n as number));
    }
    expect(seen).toEqual(Array.from({ length: COUNT }, (_, i) => i));
    await clearScroll(url, first.json._scroll_id);
  });

  it('continuations sent at once read each page once', async () => {
    const first = await search(url, `/s${shards}/_search?scroll=1m&size=2`, { sort: ['_doc'] });
    const id = first.json._scroll_id as string;
    const pages = await Promise.all(Array.from({ length: 10 }, () => next(id)));
    const seen = [...ids(first.json.hits.hits), ...pages.flatMap((p) => ids(p.hits))];
    expect(seen).toHaveLength(22);
    expect(new Set(seen).size).toBe(22);
    await clearScroll(url, id);
  });
});

describe('the scroll/10_basic sequence', () => {
  it('continues with the first id twice: the next two documents, then an empty page', async () => {
    await createIndex(url, 'ts', {
      settings: { number_of_shards: 1 },
      mappings: { properties: { foo: { type: 'integer' } } },
    });
    await bulk(url, 'ts', [
      ['42', { foo: 1 }],
      ['43', { foo: 2 }],
      ['44', { foo: 3 }],
    ]);
    const first = await search(url, '/ts/_search?scroll=1m&size=1', { sort: ['foo'] });
    expect(ids(first.json.hits.hits)).toEqual(['42']);
    const a = first.json._scroll_id as string;
    const got = [];
    for (let i = 0; i < 4; i++) got.push(ids((await next(a)).hits));
    expect(got).toEqual([['43'], ['44'], [], []]);
    await clearScroll(url, a);
  });
});

/** Sends a scroll continuation on a raw socket and closes it without reading the answer. */
function abandonedContinuation(id: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ scroll_id: id, scroll: '1m' });
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /_search/scroll HTTP/1.1\r\nhost: ${hostname}\r\n${AUTH_HEADER}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        () => {
          socket.destroy();
          resolve();
        },
      );
    });
    socket.on('error', reject);
  });
}

/**
 * Reads the first bytes of a large continuation's answer, stops reading (the kernel's buffers
 * then fill far below the answer's size, so the node cannot write it out), and cuts the
 * connection.
 */
function cutContinuation(id: string): Promise<number> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ scroll_id: id, scroll: '1m' });
  return new Promise((resolve, reject) => {
    let received = 0;
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /_search/scroll HTTP/1.1\r\nhost: ${hostname}\r\n${AUTH_HEADER}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.once('data', (chunk) => {
      received += chunk.length;
      socket.pause();
      setTimeout(() => {
        socket.destroy();
        resolve(received);
      }, 500);
    });
    socket.on('error', reject);
  });
}

/** Polls until the node has seen the client go (its 'close' comes after ours). */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
}

describe('a page that was not delivered', () => {
  it('is answered again when its client left before the answer, and only then', async () => {
    const first = await search(url, '/s3/_search?scroll=1m&size=5', { sort: [{ n: 'asc' }] });
    const id = first.json._scroll_id as string;
    expect(ids(first.json.hits.hits)).toEqual(allIds.slice(0, 5));
    await abandonedContinuation(id);
    await settle();
    // The page d5..d9 never reached a client: the next call answers it.
    expect(ids((await next(id)).hits)).toEqual(allIds.slice(5, 10));
    // That one was delivered: the next call goes on.
    expect(ids((await next(id)).hits)).toEqual(allIds.slice(10, 15));
    await clearScroll(url, id);
  });

  it('is answered again when its client cut the answer off before its end', async () => {
    await createIndex(url, 'big', { settings: { number_of_shards: 2 } });
    // Pages of about 16 MB: more than the loopback socket buffers hold.
    const text = 'y'.repeat(64 * 1024);
    for (let b = 0; b < 4; b++) {
      await bulk(
        url,
        'big',
        Array.from(
          { length: 200 },
          (_, i) => [`b${b * 200 + i}`, { n: b * 200 + i, text }] as [string, Json],
        ),
      );
    }
    const first = await search(url, '/big/_search?scroll=1m&size=250&filter_path=_scroll_id,hits.hits._id', {
      sort: [{ n: 'asc' }],
    });
    const id = first.json._scroll_id as string;
    const received = await cutContinuation(id);
    expect(received).toBeGreaterThan(0);
    await settle();
    const again = await http(url, 'POST', '/_search/scroll?filter_path=hits.hits._id', {
      scroll_id: id,
      scroll: '1m',
    });
    expect(ids(again.json.hits.hits)).toEqual(Array.from({ length: 250 }, (_, i) => `b${250 + i}`));
    const after = await http(url, 'POST', '/_search/scroll?filter_path=hits.hits._id', {
      scroll_id: id,
      scroll: '1m',
    });
    expect(ids(after.json.hits.hits)).toEqual(Array.from({ length: 250 }, (_, i) => `b${500 + i}`));
    await clearScroll(url, id);
  });

  it('a first page that never reached its client frees its scroll', async () => {
    const before = await http(url, 'GET', '/_nodes/stats/indices/search');
    const open = (r: typeof before) =>
      Object.values(r.json.nodes as Record<string, { indices: { search: { scroll_current: number } } }>)[0]!
        .indices.search.scroll_current;
    const openBefore = open(before);
    const { hostname, port } = new URL(url);
    const body = JSON.stringify({ sort: ['_doc'] });
    const sendAndHangUp = () =>
      new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /s3/_search?scroll=1m&size=2 HTTP/1.1\r\nhost: ${hostname}\r\n${AUTH_HEADER}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
            () => {
              socket.destroy();
              resolve();
            },
          );
        });
        socket.on('error', reject);
      });
    // The client hangs up as soon as its request is sent; whether the node sees it go before or
    // after its small answer is handed to the kernel is up to the network stack. Only an answer
    // that never went out leaves no scroll behind, so the test tries a few times: a node that
    // never frees an undelivered page fails every try.
    let freed = false;
    for (let attempt = 0; attempt < 5 && !freed; attempt++) {
      await sendAndHangUp();
      try {
        await eventually(
          'the undelivered scroll freed',
          async () =>
            open(await http(url, 'GET', '/_nodes/stats/indices/search')) === openBefore ? true : undefined,
          10_000,
        );
        freed = true;
      } catch {
        // The answer went out before the node saw the client go: its scroll stays, as delivered.
        expect((await http(url, 'DELETE', '/_search/scroll/_all')).status).toBe(200);
      }
    }
    expect(freed).toBe(true);
  });
});
