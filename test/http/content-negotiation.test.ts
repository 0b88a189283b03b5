/**
 * The media-type rules of Elasticsearch's REST layer, over real HTTP: which Accept and
 * Content-Type headers a request may carry, the errors for those it may not, and the
 * `X-elastic-product` header on every answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson, rawHttp } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/media');
  await http(node.url, 'PUT', '/media/_doc/1?refresh=true', { a: 1 });
});
afterAll(async () => {
  await node?.stop();
});

const VND = (v: number) => `application/vnd.elasticsearch+json;compatible-with=${v}`;

/** A request with exactly these headers: no Content-Type is added for the body. */
function raw(
  method: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<HttpResult> {
  return rawHttp(node.url, method, path, body, headers);
}

function expectMediaTypeError(r: HttpResult, reason: string, cause: string): void {
  expect(r.status).toBe(400);
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.headers['x-elastic-product']).toBe('Elasticsearch');
  expect(r.json).toEqual({
    error: {
      root_cause: [{ type: 'media_type_header_exception', reason }],
      type: 'media_type_header_exception',
      reason,
      caused_by: { type: 'status_exception', reason: cause },
    },
    status: 400,
  });
}

describe('the Accept header', () => {
  it('refuses a compatible-with version other than 7 or 8 in Elasticsearch error format', async () => {
    const accept = VND(9);
    const r = await http(node.url, 'GET', '/media/_doc/1', undefined, { accept });
    expectMediaTypeError(
      r,
      'Invalid media-type value on headers [Accept, Content-Type]',
      `Accept version must be either version 8 or 7, but found 9. Accept=${accept}`,
    );
  });

  it('refuses it on an unknown path too, before the route is looked up', async () => {
    const r = await http(node.url, 'GET', '/_nope/at/all', undefined, { accept: VND(9) });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('media_type_header_exception');
  });

  it('answers Smile requests with a JSON error it actually sends', async () => {
    for (const accept of ['application/smile', 'application/vnd.elasticsearch+smile;compatible-with=8']) {
      const r = await http(node.url, 'GET', '/media/_doc/1', undefined, { accept });
      expect(r.status, accept).toBe(501);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-elastic-product']).toBe('Elasticsearch');
      expect(r.json.status).toBe(501);
      expect(r.json.error.type).toBe('unsupported_operation_exception');
      expect(r.json.error.root_cause).toHaveLength(1);
    }
  });

  it('answers JSON to an Accept it cannot match, and 400 to one that does not parse', async () => {
    for (const accept of ['text/html', 'image/png', 'text/html,application/xhtml+xml;q=0.9', '*/*']) {
      const r = await http(node.url, 'GET', '/media/_doc/1', undefined, { accept });
      expect(r.status, accept).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.json._source).toEqual({ a: 1 });
    }
    const bad = await http(node.url, 'GET', '/media/_doc/1', undefined, { accept: 'garbage' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      type: 'media_type_header_exception',
      reason: 'Invalid media-type value on headers [Accept]',
      caused_by: { type: 'illegal_argument_exception', reason: 'invalid media-type [garbage]' },
    });
  });

  it('answers the compatible-with media type it was asked for', async () => {
    const r = await http(node.url, 'GET', '/media/_doc/1', undefined, { accept: VND(7) });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(VND(7));
  });
});

describe('the Content-Type of a request body', () => {
  it('refuses browser-safelisted types with 406 and the flat error body', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const r = await raw('POST', '/media/_search', '{"query":{"match_all":{}}}', { 'content-type': type });
      expect(r.status, type).toBe(406);
      expect(r.headers['x-elastic-product']).toBe('Elasticsearch');
      expect(r.json).toEqual({ error: `Content-Type header [${type}] is not supported`, status: 406 });
    }
    const indexed = await raw('PUT', '/media/_doc/2', '{"a":2}', { 'content-type': 'text/plain' });
    expect(indexed.status).toBe(406);
    expect((await http(node.url, 'GET', '/media/_doc/2')).status).toBe(404);
  });

  it('refuses a body without a Content-Type with 406', async () => {
    const r = await raw('POST', '/media/_search', '{}', {});
    expect(r.status).toBe(406);
    expect(r.json).toEqual({ error: 'Content-Type header is missing', status: 406 });
  });

  it('accepts JSON with parameters, ndjson and the compatible-with types', async () => {
    const body = '{"query":{"match_all":{}}}';
    const searches: Record<string, string>[] = [
      { 'content-type': 'application/json; charset=UTF-8' },
      { 'content-type': 'application/json;charset=utf-8' },
      { 'content-type': VND(8), accept: VND(8) },
      { 'content-type': VND(7), accept: VND(7) },
      { 'content-type': 'application/vnd.elasticsearch+json; compatible-with=8', accept: VND(8) },
    ];
    for (const headers of searches) {
      const r = await raw('POST', '/media/_search', body, headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.json.hits.total.value).toBe(1);
    }
    const bulk = ndjson([{ index: { _index: 'media', _id: 'b1' } }, { a: 3 }]);
    const bulks: Record<string, string>[] = [
      { 'content-type': 'application/x-ndjson' },
      { 'content-type': 'application/vnd.elasticsearch+x-ndjson;compatible-with=8', accept: VND(8) },
    ];
    for (const headers of bulks) {
      const r = await raw('POST', '/_bulk', bulk, headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.json.errors).toBe(false);
    }
  });

  it('requires the same compatible-with version on Accept and Content-Type', async () => {
    const body = '{"query":{"match_all":{}}}';
    const alone = await raw('POST', '/media/_search', body, { 'content-type': VND(8) });
    expectMediaTypeError(
      alone,
      'Invalid media-type value on headers [Accept, Content-Type]',
      'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
        `compatible version. Accept=null, Content-Type=${VND(8)}`,
    );
    const differ = await raw('POST', '/media/_search', body, { 'content-type': VND(7), accept: VND(8) });
    expectMediaTypeError(
      differ,
      'Invalid media-type value on headers [Accept, Content-Type]',
      'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
        `compatible version and the compatible versions must match. Accept=${VND(8)}, Content-Type=${VND(7)}`,
    );
  });

  it('never refuses a request without a body for its Content-Type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', VND(7)]) {
      const r = await http(node.url, 'GET', '/media/_doc/1', undefined, { 'content-type': type });
      expect(r.status, type).toBe(200);
    }
  });

  it('answers an unknown path with a text body by its route error, not 406', async () => {
    const r = await raw('POST', '/_nope/at/all', 'x', { 'content-type': 'text/plain' });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('no handler found for uri [/_nope/at/all] and method [POST]');
  });
});

describe('X-elastic-product', () => {
  it('is on every answer: success, error, HEAD, unknown path and wrong method', async () => {
    const answers = await Promise.all([
      http(node.url, 'GET', '/'),
      http(node.url, 'HEAD', '/'),
      http(node.url, 'HEAD', '/media/_doc/missing'),
      http(node.url, 'GET', '/nope/_doc/1'),
      http(node.url, 'GET', '/_nope/at/all'),
      http(node.url, 'PATCH', '/_search'),
      http(node.url, 'POST', '/_search', '{"query": {'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 404, 400, 405, 400]);
    for (const r of answers) expect(r.headers['x-elastic-product']).toBe('Elasticsearch');
  });
});

describe('filter_path on errors', () => {
  it('answers the whole error body whatever the filter', async () => {
    const r = await http(node.url, 'GET', '/nope/_search?filter_path=hits');
    expect(r.status).toBe(404);
    expect(r.json.status).toBe(404);
    expect(r.json.error).toMatchObject({
      type: 'index_not_found_exception',
      reason: 'no such index [nope]',
      index: 'nope',
    });
    expect(r.json.error.root_cause[0].type).toBe('index_not_found_exception');
  });

  it('still filters a successful answer', async () => {
    const r = await http(node.url, 'GET', '/media/_search?filter_path=hits.total');
    expect(r.json).toEqual({ hits: { total: { value: expect.any(Number), relation: 'eq' } } });
  });
});
