import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/wv/_doc/1?refresh=true', { n: 1 });
});
afterAll(async () => {
  await node?.stop();
});

const INTERNAL =
  'internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead';

async function expectError(
  method: string,
  path: string,
  body: unknown,
  status: number,
  type: string,
  reason: string,
) {
  const r = await http(node.url, method, path, body);
  expect(r.status).toBe(status);
  expect(r.json.error.type).toBe(type);
  expect(r.json.error.reason).toBe(reason);
  return r;
}

async function docVersion(id: string): Promise<number | undefined> {
  const r = await http(node.url, 'GET', `/wv/_doc/${id}`);
  return r.json.found ? r.json._version : undefined;
}

describe('document write validation', () => {
  it('refuses internal versioning on index, delete and update, changing nothing', async () => {
    const v = 'action_request_validation_exception';
    await expectError(
      'DELETE',
      '/wv/_doc/1?version=1',
      undefined,
      400,
      v,
      `Validation Failed: 1: ${INTERNAL};`,
    );
    await expectError('PUT', '/wv/_doc/1?version=1', { n: 2 }, 400, v, `Validation Failed: 1: ${INTERNAL};`);
    await expectError(
      'POST',
      '/wv/_update/1?version=1',
      { doc: { n: 2 } },
      400,
      v,
      `Validation Failed: 1: ${INTERNAL};`,
    );
    expect(await docVersion('1')).toBe(1);
  });

  it('keeps external versioning working', async () => {
    const put = await http(node.url, 'PUT', '/wv/_doc/ext?version=5&version_type=external', { n: 1 });
    expect(put.status).toBe(201);
    expect(put.json._version).toBe(5);
    const gte = await http(node.url, 'PUT', '/wv/_doc/ext?version=5&version_type=external_gte', { n: 2 });
    expect(gte.json._version).toBe(5);
    const del = await http(node.url, 'DELETE', '/wv/_doc/ext?version=7&version_type=external');
    expect(del.json.result).toBe('deleted');
  });

  it('needs if_seq_no and if_primary_term together and non-negative', async () => {
    const v = 'action_request_validation_exception';
    await expectError(
      'PUT',
      '/wv/_doc/1?if_seq_no=0',
      { n: 3 },
      400,
      v,
      'Validation Failed: 1: ifSeqNo is set, but primary term is [0];',
    );
    await expectError(
      'DELETE',
      '/wv/_doc/1?if_primary_term=1',
      undefined,
      400,
      v,
      'Validation Failed: 1: ifSeqNo is unassigned, but primary term is [1];',
    );
    await expectError(
      'PUT',
      '/wv/_doc/1?if_seq_no=-1&if_primary_term=1',
      { n: 3 },
      400,
      'illegal_argument_exception',
      'sequence numbers must be non negative. got [-1].',
    );
    expect(await docVersion('1')).toBe(1);
  });

  it('needs a version for external versioning and a short id', async () => {
    await expectError(
      'PUT',
      '/wv/_doc/2?version_type=external',
      { n: 1 },
      400,
      'action_request_validation_exception',
      'Validation Failed: 1: illegal version value [-3] for version type [EXTERNAL];',
    );
    const id = 'x'.repeat(513);
    await expectError(
      'PUT',
      `/wv/_doc/${id}`,
      { n: 1 },
      400,
      'action_request_validation_exception',
      `Validation Failed: 1: id [${id}] is too long, must be no longer than 512 bytes but was: 513;`,
    );
    expect(await docVersion('2')).toBeUndefined();
  });

  it('checks op_type, timeout and wait_for_active_shards', async () => {
    await expectError(
      'PUT',
      '/wv/_create/3?op_type=index',
      { n: 1 },
      400,
      'illegal_argument_exception',
      "opType must be 'create', found: [index]",
    );
    await expectError(
      'PUT',
      '/wv/_doc/3?timeout=abc',
      { n: 1 },
      400,
      'illegal_argument_exception',
      'failed to parse setting [timeout] with value [abc] as a time value: unit is missing or unrecognized',
    );
    const w = await expectError(
      'PUT',
      '/wv/_doc/3?wait_for_active_shards=abc',
      { n: 1 },
      400,
      'illegal_argument_exception',
      'cannot parse ActiveShardCount[abc]',
    );
    expect(w.json.error.caused_by).toMatchObject({
      type: 'number_format_exception',
      reason: 'For input string: "abc"',
    });
    await expectError(
      'DELETE',
      '/wv/_doc/1?timeout=abc',
      undefined,
      400,
      'illegal_argument_exception',
      'failed to parse setting [timeout] with value [abc] as a time value: unit is missing or unrecognized',
    );
    expect(await docVersion('3')).toBeUndefined();
    const ok = await http(
      node.url,
      'PUT',
      '/wv/_create/3?op_type=create&timeout=1m&wait_for_active_shards=1',
      { n: 1 },
    );
    expect(ok.status).toBe(201);
  });

  it('positions an unknown _update field on its name', async () => {
    await expectError(
      'POST',
      '/wv/_update/1',
      { doc: { a: 5 }, doc_as_upsert: true, foo: 1 },
      400,
      'x_content_parse_exception',
      '[1:37] [UpdateRequest] unknown field [foo]',
    );
    expect(await docVersion('1')).toBe(1);
  });
});

describe('bulk validation', () => {
  it('refuses the whole request for an unknown metadata key', async () => {
    const body = ndjson([
      { index: { _index: 'wv', _id: 'b1' } },
      { n: 1 },
      { index: { _index: 'wv', _id: 'b2', bar: 1 } },
      { n: 2 },
    ]);
    const r = await http(node.url, 'POST', '/_bulk', body, { 'content-type': 'application/x-ndjson' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Action/metadata line [3] contains an unknown parameter [bar]',
    });
    const typed = ndjson([{ index: { _index: 'wv', _type: '_doc', _id: 'b1' } }, { n: 1 }]);
    const t = await http(node.url, 'POST', '/_bulk', typed, { 'content-type': 'application/x-ndjson' });
    expect(t.json.error.reason).toBe('Action/metadata line [1] contains an unknown parameter [_type]');
    expect(await docVersion('b1')).toBeUndefined();
  });

  it('refuses the whole request when an item fails validation', async () => {
    const body = ndjson([
      { index: { _index: 'wv', _id: 'b1' } },
      { n: 1 },
      { delete: { _index: 'wv', _id: '1', version: 1 } },
    ]);
    const r = await http(node.url, 'POST', '/_bulk', body, { 'content-type': 'application/x-ndjson' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'action_request_validation_exception',
      reason: `Validation Failed: 1: ${INTERNAL};`,
    });
    expect(await docVersion('b1')).toBeUndefined();
    expect(await docVersion('1')).toBe(1);
  });
});

describe('_mget validation', () => {
  it('needs documents and refuses unknown keys', async () => {
    await expectError(
      'POST',
      '/wv/_mget',
      {},
      400,
      'action_request_validation_exception',
      'Validation Failed: 1: no documents to get;',
    );
    const top = await expectError(
      'POST',
      '/wv/_mget',
      { ids: ['1'], foo: ['x'] },
      400,
      'parsing_exception',
      'unknown key [foo] for a START_ARRAY, expected [docs] or [ids]',
    );
    expect(top.json.error).toMatchObject({ line: 1, col: 20 });
    await expectError(
      'POST',
      '/_mget',
      { docs: [{ _index: 'wv', _id: '1', foo: 'x' }] },
      400,
      'parse_exception',
      'failed to parse multi get request. unknown field [foo]',
    );
    const ok = await http(node.url, 'POST', '/_mget', { docs: [{ _index: 'wv', _id: '1' }] });
    expect(ok.json.docs[0]).toMatchObject({ _id: '1', found: true });
  });
});
