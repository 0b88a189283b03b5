import { describe, expect, it } from 'vitest';
import {
  contentTypeNotSupported,
  documentParsing,
  featureNotEnabled,
  illegalArgument,
  indexNotFound,
  malformedJson,
  mapperParsing,
  methodNotAllowed,
  noHandlerFound,
  oauth2Error,
  queryShardException,
  searchContextMissing,
  searchPhaseExecution,
} from './catalogue.ts';
import { errorBody, toShoalError } from './error-body.ts';
import { ShoalError } from './shoal-error.ts';

/** Compare as serialised text, so key order counts. */
function wire(err: unknown, errorTrace = false): string {
  return JSON.stringify(errorBody(err, { errorTrace }).body);
}

describe('errorBody', () => {
  it('renders index_not_found_exception exactly as Elasticsearch (paging.md §2.2 #43)', () => {
    const meta = '"resource.type":"index_or_alias","resource.id":"foo","index_uuid":"_na_","index":"foo"';
    expect(wire(indexNotFound('foo'))).toBe(
      `{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index [foo]",${meta}}],` +
        `"type":"index_not_found_exception","reason":"no such index [foo]",${meta}},"status":404}`,
    );
    expect(errorBody(indexNotFound('foo')).status).toBe(404);
  });

  it('keeps a Java cause out of root_cause (mapper_parsing_exception caused by json_parse_exception)', () => {
    // Real payload (medcl/elasticsearch-analysis-mmseg#39): root_cause is the mapper_parsing_exception.
    const cause = new ShoalError('json_parse_exception', "Unexpected character ('c' (code 99))", 500);
    expect(wire(mapperParsing('failed to parse', cause))).toBe(
      '{"error":{"root_cause":[{"type":"mapper_parsing_exception","reason":"failed to parse"}],' +
        '"type":"mapper_parsing_exception","reason":"failed to parse",' +
        `"caused_by":{"type":"json_parse_exception","reason":"Unexpected character ('c' (code 99))"}},"status":400}`,
    );
  });

  it('walks root causes down through Elasticsearch exceptions', () => {
    const inner = mapperParsing(
      'failed to parse field [n] of type [long]',
      illegalArgument('For input string'),
    );
    const body = errorBody(documentParsing('[1:8] failed to parse', inner)).body as {
      error: { root_cause: unknown[] };
    };
    expect(body.error.root_cause).toEqual([
      { type: 'mapper_parsing_exception', reason: 'failed to parse field [n] of type [long]' },
    ]);
  });

  it('renders an all-shards IllegalArgumentException with the doubled caused_by of real responses', () => {
    // Real payload: influxdata/influxdb-comparisons#135 (search_phase_execution_exception, fielddata).
    const msg = 'Fielddata is disabled on text fields by default.';
    const err = searchPhaseExecution('query', [
      { shard: 0, index: 'cpu', node: 'a-7hFd9DRaaejFX2MNRMjg', reason: illegalArgument(msg) },
    ]);
    const iae = `{"type":"illegal_argument_exception","reason":"${msg}"}`;
    expect(wire(err)).toBe(
      `{"error":{"root_cause":[${iae}],"type":"search_phase_execution_exception","reason":"all shards failed",` +
        `"phase":"query","grouped":true,"failed_shards":[{"shard":0,"index":"cpu","node":"a-7hFd9DRaaejFX2MNRMjg",` +
        `"reason":${iae}}],"caused_by":{"type":"illegal_argument_exception","reason":"${msg}","caused_by":${iae}}},` +
        '"status":400}',
    );
  });

  it('groups identical shard failures and drops caused_by for Elasticsearch-typed causes', () => {
    const err = searchPhaseExecution('query', [
      { shard: -1, index: null, reason: searchContextMissing(12) },
      { shard: -1, index: null, reason: searchContextMissing(12) },
      { shard: -1, index: null, reason: searchContextMissing(13) },
    ]);
    const res = errorBody(err);
    expect(res.status).toBe(404);
    const e = (res.body as { error: Record<string, unknown> }).error;
    expect(e.root_cause).toEqual([
      { type: 'search_context_missing_exception', reason: 'No search context found for id [12]' },
      { type: 'search_context_missing_exception', reason: 'No search context found for id [13]' },
    ]);
    expect(e.failed_shards).toEqual([
      {
        shard: -1,
        index: null,
        reason: { type: 'search_context_missing_exception', reason: 'No search context found for id [12]' },
      },
      {
        shard: -1,
        index: null,
        reason: { type: 'search_context_missing_exception', reason: 'No search context found for id [13]' },
      },
    ]);
    expect('caused_by' in e).toBe(false);
  });

  it('takes the status of a 5xx shard failure over the first one, and 502..504 at once', () => {
    const q = queryShardException('No mapping found for [f] in order to sort on', 'i', 'u');
    const boom = new ShoalError('exception', 'boom', 500);
    const busy = new ShoalError('no_shard_available_action_exception', 'gone', 503);
    expect(searchPhaseExecution('query', [{ shard: 0, index: 'i', reason: q }]).status).toBe(400);
    expect(
      searchPhaseExecution('query', [
        { shard: 0, index: 'i', reason: q },
        { shard: 1, index: 'i', reason: boom },
      ]).status,
    ).toBe(500);
    expect(
      searchPhaseExecution('query', [
        { shard: 0, index: 'i', reason: busy },
        { shard: 1, index: 'i', reason: boom },
      ]).status,
    ).toBe(503);
    expect(searchPhaseExecution('query', []).status).toBe(503);
  });

  it('keeps shard-failure metadata in root causes (query_shard_exception index fields)', () => {
    const q = queryShardException('No mapping found for [f] in order to sort on', 'idx', 'U1');
    const e = (
      errorBody(searchPhaseExecution('query', [{ shard: 0, index: 'idx', reason: q }])).body as {
        error: { root_cause: unknown[] };
      }
    ).error;
    expect(e.root_cause).toEqual([
      {
        type: 'query_shard_exception',
        reason: 'No mapping found for [f] in order to sort on',
        index_uuid: 'U1',
        index: 'idx',
      },
    ]);
  });

  it('renders malformed JSON as x_content_parse_exception with the Jackson cause', () => {
    const res = errorBody(
      malformedJson(
        1,
        3,
        "Unexpected character ('q' (code 113)): was expecting double-quote to start field name",
      ),
    );
    expect(res.status).toBe(400);
    const e = (res.body as { error: Record<string, unknown> }).error;
    expect((e.root_cause as { type: string }[])[0]!.type).toBe('x_content_parse_exception');
    expect((e.caused_by as { type: string }).type).toBe('json_parse_exception');
    expect(e.reason).toMatch(/^\[1:3\] Unexpected character/);
  });

  it('uses the flat RestController bodies for routing and content-type errors', () => {
    expect(errorBody(noHandlerFound('/x?a=1', 'GET'))).toEqual({
      status: 400,
      body: { error: 'no handler found for uri [/x?a=1] and method [GET]' },
    });
    expect(errorBody(methodNotAllowed('/_search', 'PUT', ['GET', 'POST']))).toEqual({
      status: 405,
      body: {
        error: 'Incorrect HTTP method for uri [/_search] and method [PUT], allowed: [GET, POST]',
        status: 405,
      },
      headers: { Allow: 'GET,POST' },
    });
    expect(errorBody(contentTypeNotSupported(['text/plain'])).body).toEqual({
      error: 'Content-Type header [text/plain] is not supported',
      status: 406,
    });
  });

  it('writes body headers both in the body and as HTTP headers', () => {
    const e = new ShoalError(
      'security_exception',
      'missing authentication credentials for REST request [/]',
      401,
      {},
      undefined,
      {
        bodyHeaders: { 'WWW-Authenticate': ['Basic realm="security", charset="UTF-8"', 'ApiKey'] },
      },
    );
    const res = errorBody(e);
    expect(res.headers).toEqual({
      'WWW-Authenticate': ['Basic realm="security", charset="UTF-8"', 'ApiKey'],
    });
    expect(JSON.stringify(res.body)).toContain(
      '"header":{"WWW-Authenticate":["Basic realm=\\"security\\", charset=\\"UTF-8\\"","ApiKey"]}',
    );
  });

  it('adds stack_trace only with error_trace, last in each object', () => {
    const e = indexNotFound('x');
    const plain = errorBody(e).body as { error: Record<string, unknown> };
    expect('stack_trace' in plain.error).toBe(false);
    const traced = errorBody(e, { errorTrace: true }).body as { error: Record<string, unknown> };
    expect(Object.keys(traced.error).at(-1)).toBe('stack_trace');
    expect(traced.error.stack_trace).toMatch(/^index_not_found_exception: no such index \[x\]\n\tat /);
    expect((traced.error.root_cause as Record<string, unknown>[])[0]!.stack_trace).toBeTypeOf('string');
  });

  it('turns anything else into a 500 `exception`, and wire errors back into their own type', () => {
    expect(errorBody(new TypeError('x is undefined'))).toEqual({
      status: 500,
      body: {
        error: {
          root_cause: [{ type: 'exception', reason: 'x is undefined' }],
          type: 'exception',
          reason: 'x is undefined',
        },
        status: 500,
      },
    });
    expect(errorBody('weird').status).toBe(500);
    const back = toShoalError(JSON.parse(JSON.stringify(indexNotFound('a').toWire())));
    expect(back.type).toBe('index_not_found_exception');
    expect(errorBody(back).status).toBe(404);
  });

  it('carries shard failures across a thread boundary', () => {
    const err = searchPhaseExecution('fetch', [{ shard: 2, index: 'i', reason: illegalArgument('bad') }]);
    const back = ShoalError.fromWire(structuredClone(err.toWire()));
    expect(wire(back)).toBe(wire(err));
  });

  it("renders the token endpoint's OAuth2 errors as RFC 6749 bodies, also after crossing a thread", () => {
    const e = oauth2Error('invalid_grant', 'token has been invalidated');
    expect(wire(e)).toBe('{"error":"invalid_grant","error_description":"token has been invalidated"}');
    expect(errorBody(e).status).toBe(400);
    expect(wire(ShoalError.fromWire(e.toWire()))).toBe(wire(e));
  });

  it('names the switched-off feature of a feature_not_enabled_exception for clients', () => {
    const e = featureNotEnabled('security_tokens', 'security tokens are not enabled');
    const fields =
      '"type":"feature_not_enabled_exception","reason":"security tokens are not enabled","disabled.feature":"security_tokens"';
    expect(wire(e)).toBe(`{"error":{"root_cause":[{${fields}}],${fields}},"status":400}`);
  });
});
