import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const blocked = (index: string, block: string) => `index [${index}] blocked by: [${block}];`;
const WRITE = 'FORBIDDEN/8/index write (api)';
const READ = 'FORBIDDEN/7/index read (api)';
const READ_ONLY = 'FORBIDDEN/5/index read-only (api)';
const METADATA = 'FORBIDDEN/9/index metadata (api)';
const ALLOW_DELETE =
  'TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block';

async function setBlock(index: string, block: string, value: boolean | null) {
  const r = await http(node.url, 'PUT', `/${index}/_settings`, { [`index.blocks.${block}`]: value });
  expect(r.status).toBe(200);
}

function expectBlocked(
  r: { status: number; json: { error: { type: string; reason: string } } },
  status: number,
  reason: string,
) {
  expect(r.status).toBe(status);
  expect(r.json.error.type).toBe('cluster_block_exception');
  expect(r.json.error.reason).toBe(reason);
}

describe('index blocks', () => {
  it('index.blocks.write refuses document writes, item by item in a bulk, and nothing else', async () => {
    await http(node.url, 'PUT', '/w', { mappings: { properties: { n: { type: 'long' } } } });
    await http(node.url, 'PUT', '/other', {});
    await http(node.url, 'PUT', '/w/_doc/1?refresh=true', { n: 1 });
    await setBlock('w', 'write', true);
    expectBlocked(await http(node.url, 'PUT', '/w/_doc/2', { n: 2 }), 403, blocked('w', WRITE));
    expectBlocked(await http(node.url, 'DELETE', '/w/_doc/1'), 403, blocked('w', WRITE));
    expectBlocked(await http(node.url, 'POST', '/w/_update/1', { doc: { n: 3 } }), 403, blocked('w', WRITE));
    const bulk = await http(
      node.url,
      'POST',
      '/_bulk',
      ndjson([
        { index: { _index: 'w', _id: '3' } },
        { n: 3 },
        { index: { _index: 'other', _id: '1' } },
        { n: 1 },
      ]),
    );
    expect(bulk.json.errors).toBe(true);
    expect(bulk.json.items[0].index.status).toBe(403);
    expect(bulk.json.items[0].index.error).toEqual({
      type: 'cluster_block_exception',
      reason: blocked('w', WRITE),
    });
    expect(bulk.json.items[1].index.status).toBe(201);
    // Reads, mappings and settings still work.
    expect((await http(node.url, 'GET', '/w/_doc/1')).json.found).toBe(true);
    expect((await http(node.url, 'POST', '/w/_search', {})).json.hits.total.value).toBe(1);
    expect(
      (await http(node.url, 'PUT', '/w/_mapping', { properties: { t: { type: 'keyword' } } })).status,
    ).toBe(200);
    await setBlock('w', 'write', false);
    expect((await http(node.url, 'PUT', '/w/_doc/2', { n: 2 })).status).toBe(201);
  });

  it('index.blocks.read refuses searches, counts and gets', async () => {
    await http(node.url, 'PUT', '/r/_doc/1?refresh=true', { a: 1 });
    await setBlock('r', 'read', true);
    expectBlocked(await http(node.url, 'POST', '/r/_search', {}), 403, blocked('r', READ));
    expectBlocked(await http(node.url, 'POST', '/r/_count', {}), 403, blocked('r', READ));
    expectBlocked(await http(node.url, 'GET', '/r/_doc/1'), 403, blocked('r', READ));
    expectBlocked(await http(node.url, 'POST', '/r/_pit?keep_alive=1m'), 403, blocked('r', READ));
    // Writes still go in.
    expect((await http(node.url, 'PUT', '/r/_doc/2', { a: 2 })).status).toBe(201);
    await setBlock('r', 'read', null);
    expect((await http(node.url, 'POST', '/r/_search?rest_total_hits_as_int=true', {})).status).toBe(200);
  });

  it('index.blocks.read_only refuses writes and metadata changes, even deletion, until it is lifted', async () => {
    await http(node.url, 'PUT', '/ro/_doc/1?refresh=true', { a: 1 });
    await setBlock('ro', 'read_only', true);
    expectBlocked(await http(node.url, 'PUT', '/ro/_doc/2', { a: 2 }), 403, blocked('ro', READ_ONLY));
    expectBlocked(
      await http(node.url, 'PUT', '/ro/_mapping', { properties: { b: { type: 'keyword' } } }),
      403,
      blocked('ro', READ_ONLY),
    );
    expectBlocked(
      await http(node.url, 'PUT', '/ro/_settings', { 'index.max_result_window': 5 }),
      403,
      blocked('ro', READ_ONLY),
    );
    expectBlocked(
      await http(node.url, 'POST', '/_aliases', { actions: [{ add: { index: 'ro', alias: 'ro-alias' } }] }),
      403,
      blocked('ro', READ_ONLY),
    );
    expectBlocked(await http(node.url, 'DELETE', '/ro'), 403, blocked('ro', READ_ONLY));
    expectBlocked(await http(node.url, 'POST', '/ro/_forcemerge'), 403, blocked('ro', READ_ONLY));
    expect((await http(node.url, 'POST', '/ro/_refresh')).status).toBe(200);
    expect((await http(node.url, 'POST', '/ro/_flush')).status).toBe(200);
    expect((await http(node.url, 'POST', '/ro/_search', {})).json.hits.total.value).toBe(1);
    // Lifting the block is always allowed, even together with another setting.
    const lift = await http(node.url, 'PUT', '/ro/_settings', {
      'index.blocks.read_only': false,
      'index.max_result_window': 5,
    });
    expect(lift.status).toBe(200);
    expect((await http(node.url, 'PUT', '/ro/_doc/2', { a: 2 })).status).toBe(201);
  });

  it('index.blocks.read_only_allow_delete answers 429 to writes but lets the index be deleted', async () => {
    await http(node.url, 'PUT', '/flood/_doc/1', { a: 1 });
    await setBlock('flood', 'read_only_allow_delete', true);
    expectBlocked(
      await http(node.url, 'PUT', '/flood/_doc/2', { a: 2 }),
      429,
      blocked('flood', ALLOW_DELETE),
    );
    expect((await http(node.url, 'DELETE', '/flood')).status).toBe(200);
  });

  it('index.blocks.metadata refuses mapping and settings reads and writes', async () => {
    await http(node.url, 'PUT', '/meta', {});
    await setBlock('meta', 'metadata', true);
    expectBlocked(await http(node.url, 'GET', '/meta/_settings'), 403, blocked('meta', METADATA));
    expectBlocked(await http(node.url, 'GET', '/meta/_mapping'), 403, blocked('meta', METADATA));
    expectBlocked(await http(node.url, 'GET', '/meta'), 403, blocked('meta', METADATA));
    expectBlocked(
      await http(node.url, 'PUT', '/meta/_settings', { 'index.max_result_window': 5 }),
      403,
      blocked('meta', METADATA),
    );
    // A new field needs a mapping update, which the block refuses; known fields index fine.
    expectBlocked(await http(node.url, 'PUT', '/meta/_doc/1', { fresh: 1 }), 403, blocked('meta', METADATA));
    await setBlock('meta', 'metadata', false);
    expect((await http(node.url, 'GET', '/meta/_settings')).status).toBe(200);
  });

  it('several blocked indices are named in one error', async () => {
    await http(node.url, 'PUT', '/b1/_doc/1', { a: 1 });
    await http(node.url, 'PUT', '/b2/_doc/1', { a: 1 });
    await setBlock('b1,b2', 'read', true);
    expectBlocked(
      await http(node.url, 'POST', '/b1,b2/_search', {}),
      403,
      blocked('b1', READ) + blocked('b2', READ),
    );
    await http(node.url, 'PUT', '/b1,b2/_settings', { 'index.blocks.*': null });
    expect((await http(node.url, 'POST', '/b1,b2/_search', {})).status).toBe(200);
  });
});

describe('the add and remove index block APIs (indices.blocks/10_basic.yml)', () => {
  it('PUT /{index}/_block/write blocks writes until DELETE lifts it', async () => {
    await http(node.url, 'PUT', '/test_index', {});
    const add = await http(node.url, 'PUT', '/test_index/_block/write');
    expect(add.status).toBe(200);
    expect(add.json).toEqual({
      acknowledged: true,
      shards_acknowledged: true,
      indices: [{ name: 'test_index', blocked: true }],
    });
    const got = await http(node.url, 'GET', '/test_index/_settings/index.blocks.write?flat_settings=true');
    expect(got.json.test_index.settings).toEqual({ 'index.blocks.write': 'true' });
    expectBlocked(
      await http(node.url, 'POST', '/test_index/_doc', { foo: 'bar' }),
      403,
      blocked('test_index', WRITE),
    );
    expect((await http(node.url, 'POST', '/test_index/_search', {})).status).toBe(200);
    const remove = await http(node.url, 'DELETE', '/test_index/_block/write');
    expect(remove.json).toEqual({ acknowledged: true, indices: [{ name: 'test_index', unblocked: true }] });
    expect((await http(node.url, 'POST', '/test_index/_doc', { foo: 'bar' })).status).toBe(201);
  });

  it('refuses unknown blocks, the disk block and wildcards', async () => {
    const unknown = await http(node.url, 'PUT', '/test_index/_block/everything');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toBe('No block found with name everything');
    const disk = await http(node.url, 'PUT', '/test_index/_block/read_only_allow_delete');
    expect(disk.json.error.reason).toBe(
      'Validation Failed: 1: read_only_allow_delete block is for internal use only;',
    );
    const wildcard = await http(node.url, 'PUT', '/test_*/_block/write');
    expect(wildcard.json.error.reason).toBe('Wildcard expressions or all indices are not allowed');
    expect((await http(node.url, 'PUT', '/nope/_block/write')).status).toBe(404);
  });
});

describe('ingest pipelines named by the index', () => {
  it('fail documents as a missing pipeline does, since Shoal has no ingest pipelines', async () => {
    await http(node.url, 'PUT', '/piped', { settings: { 'index.default_pipeline': 'enrich-me' } });
    const r = await http(node.url, 'PUT', '/piped/_doc/1', { a: 1 });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'pipeline with id [enrich-me] does not exist',
    });
    await http(node.url, 'PUT', '/piped/_settings', { 'index.default_pipeline': '_none' });
    expect((await http(node.url, 'PUT', '/piped/_doc/1', { a: 1 })).status).toBe(201);
  });
});
