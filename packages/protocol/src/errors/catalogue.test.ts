import { describe, expect, it } from 'vitest';
import {
  actionNotFound,
  circuitBreaking,
  documentMissing,
  indexNotFound,
  invalidIndexName,
  noShardAvailable,
  notImplemented,
  rejectedExecution,
  requestBodyRequired,
  resourceAlreadyExists,
  searchContextMissing,
  timeoutException,
  tooManyScrollContexts,
  unavailableShards,
  unrecognizedParameters,
} from './catalogue.ts';
import { errorBody } from './error-body.ts';
import type { ShoalError } from './shoal-error.ts';

/** The `error` object without root_cause, as serialised text (key order counts). */
function top(e: ShoalError): string {
  const { root_cause: _, ...rest } = (errorBody(e).body as { error: Record<string, unknown> }).error;
  return JSON.stringify(rest);
}

describe('catalogue', () => {
  it('resource_already_exists_exception (index create)', () => {
    const e = resourceAlreadyExists('test', 'YrRLgh9BQxCLYxsfLWlUCQ');
    expect(e.status).toBe(400);
    expect(top(e)).toBe(
      '{"type":"resource_already_exists_exception","reason":"index [test/YrRLgh9BQxCLYxsfLWlUCQ] already exists",' +
        '"index_uuid":"YrRLgh9BQxCLYxsfLWlUCQ","index":"test"}',
    );
  });

  it('document_missing_exception (update of a missing document)', () => {
    const e = documentMissing('1', 'test', 'U', 0);
    expect(e.status).toBe(404);
    expect(top(e)).toBe(
      '{"type":"document_missing_exception","reason":"[1]: document missing","index_uuid":"U","shard":"0","index":"test"}',
    );
  });

  it('invalid_index_name_exception', () => {
    expect(top(invalidIndexName('Foo', 'must be lowercase'))).toBe(
      '{"type":"invalid_index_name_exception","reason":"Invalid index name [Foo], must be lowercase","index_uuid":"_na_","index":"Foo"}',
    );
  });

  it('index_not_found_exception with the auto-create detail', () => {
    expect(indexNotFound('x', '[action.auto_create_index] is [false]').reason).toBe(
      'no such index [x] and [action.auto_create_index] is [false]',
    );
  });

  it('search context errors', () => {
    expect([searchContextMissing(42n).reason, searchContextMissing(42n).status]).toEqual([
      'No search context found for id [42]',
      404,
    ]);
    const t = tooManyScrollContexts(500);
    expect([t.type, t.status]).toEqual(['too_many_scroll_contexts_exception', 429]);
    expect(t.reason).toBe(
      'Trying to create too many scroll contexts. Must be less than or equal to: [500]. This limit can be set by changing the [search.max_open_scroll_context] setting.',
    );
  });

  it('statuses of the availability and load errors', () => {
    expect(timeoutException('x').status).toBe(429);
    expect(rejectedExecution('x').status).toBe(429);
    expect(noShardAvailable('x').status).toBe(503);
    expect(unavailableShards('i', 'U', 2, 'Primary shard is not active').reason).toBe(
      '[i][2] Primary shard is not active',
    );
    expect(circuitBreaking('x', 10, 5).status).toBe(429);
    expect(circuitBreaking('x', 10, 5, 'PERMANENT').status).toBe(500);
    expect(top(circuitBreaking('[parent] Data too large', 10, 5))).toBe(
      '{"type":"circuit_breaking_exception","reason":"[parent] Data too large","bytes_wanted":10,"bytes_limit":5,"durability":"TRANSIENT"}',
    );
    expect(actionNotFound('indices:x').reason).toBe('No handler for action [indices:x]');
  });

  it('request body and not-implemented errors', () => {
    expect(top(requestBodyRequired())).toBe('{"type":"parse_exception","reason":"request body is required"}');
    const n = notImplemented('the [geo_shape] query');
    expect([n.status, n.reason]).toEqual([501, 'the [geo_shape] query is not implemented in Shoal']);
  });

  it('unrecognized URL parameters with suggestions', () => {
    expect(unrecognizedParameters('/_search', ['sizee'], ['size', 'from', 'sort']).reason).toBe(
      'request [/_search] contains unrecognized parameter: [sizee] -> did you mean [size]?',
    );
    expect(unrecognizedParameters('/_search', ['a', 'zz'], ['size']).reason).toBe(
      'request [/_search] contains unrecognized parameters: [a], [zz]',
    );
  });
});
