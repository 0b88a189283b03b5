import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseCountRequest, parseSearchRequest } from './parse-search-request.ts';

function chain(e: ShoalError): string[] {
  const at = e.metadata.line !== undefined ? ` @${e.metadata.line}:${e.metadata.col}` : '';
  return [`${e.type}: ${e.reason}${at}`, ...(e.causedBy ? chain(e.causedBy) : [])];
}
function err(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
}

const search = (body: unknown, params: Record<string, string> = {}, opts = {}) =>
  parseSearchRequest(body, params, opts);

describe('parseSearchRequest: defaults and body', () => {
  it('fills Elasticsearch’s defaults', () => {
    expect(search(undefined)).toEqual({
      query: { type: 'match_all', boost: 1 },
      from: 0,
      size: 10,
      sort: undefined,
      trackTotalHits: 10000,
      trackScores: false,
      source: { enabled: true, includes: [], excludes: [] },
      version: false,
      seqNoPrimaryTerm: false,
      restTotalHitsAsInt: false,
    });
  });

  it('reads every body key it acts on', () => {
    const r = search({
      query: { term: { a: 'x' } },
      post_filter: { match_none: {} },
      from: '0',
      size: 3,
      sort: [{ a: 'desc' }],
      track_total_hits: false,
      track_scores: true,
      _source: ['a', 'b.*'],
      search_after: [1, 'x', null, 12345678901234567890n],
      version: true,
      seq_no_primary_term: true,
      timeout: '2s',
      terminate_after: 100,
      min_score: 0.5,
      explain: true,
      aggs: { t: { terms: { field: 'a' } } },
      highlight: { fields: { a: {} } },
      stored_fields: ['a'],
    });
    expect(r).toMatchObject({
      query: { type: 'term', field: 'a', value: 'x' },
      postFilter: { type: 'match_none' },
      from: 0,
      size: 3,
      sort: [{ kind: 'field', field: 'a', order: 'desc', missing: '_last' }],
      trackTotalHits: -1,
      trackScores: true,
      source: { enabled: true, includes: ['a', 'b.*'], excludes: [] },
      searchAfter: [1, 'x', null, 12345678901234567890n],
      version: true,
      seqNoPrimaryTerm: true,
      timeoutMs: 2000,
      terminateAfter: 100,
      minScore: 0.5,
      explain: true,
      aggs: [expect.objectContaining({ name: 't', type: 'terms', source: { field: 'a' } })],
      highlight: { global: {}, fields: [{ name: 'a', options: {} }] },
    });
  });

  it('accepts _source in all its forms', () => {
    expect(search({ _source: false }).source).toEqual({ enabled: false, includes: [], excludes: [] });
    expect(search({ _source: 'a.*' }).source).toEqual({ enabled: true, includes: ['a.*'], excludes: [] });
    expect(search({ _source: { includes: 'a', excludes: ['b'] } }).source).toEqual({
      enabled: true,
      includes: ['a'],
      excludes: ['b'],
    });
    const r = search({ _source: { include: ['a'] } });
    expect(r.source.includes).toEqual(['a']);
    expect(r.warnings).toEqual(['Deprecated field [include] used, expected [includes] instead']);
    expect(err(() => search({ _source: { includes: [1] } }))).toEqual([
      'parsing_exception: Unknown key for a VALUE_NUMBER in [includes]. @1:25',
    ]);
    expect(err(() => search({ _source: { fields: ['a'] } }))).toEqual([
      'parsing_exception: Unknown key for a START_ARRAY in [fields]. @1:22',
    ]);
    expect(err(() => search({ _source: 1 }))).toEqual([
      'parsing_exception: Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [VALUE_NUMBER] @1:12',
    ]);
  });

  it('rejects unknown keys and misplaced shapes', () => {
    expect(err(() => search({ foo: {} }))).toEqual([
      'parsing_exception: Unknown key for a START_OBJECT in [foo]. @1:8',
    ]);
    expect(err(() => search({ foo: 'x' }))).toEqual([
      'parsing_exception: Unknown key for a VALUE_STRING in [foo]. @1:8',
    ]);
    expect(err(() => search({ query: 'x' }))).toEqual([
      'parsing_exception: Unknown key for a VALUE_STRING in [query]. @1:10',
    ]);
    expect(err(() => search({ query: null }))).toEqual([
      'parsing_exception: Unknown key for a VALUE_NULL in [query]. @1:10',
    ]);
    expect(err(() => search({ search_after: 1 }))).toEqual([
      'parsing_exception: Unknown key for a VALUE_NUMBER in [search_after]. @1:17',
    ]);
    expect(err(() => search([1]))).toEqual([
      'parsing_exception: Expected [START_OBJECT] but found [START_ARRAY] @1:1',
    ]);
  });

  it('applies the setters’ checks', () => {
    expect(err(() => search({ from: -2 }))).toEqual([
      'illegal_argument_exception: [from] parameter cannot be negative but was [-2]',
    ]);
    expect(err(() => search({ size: -5 }))).toEqual([
      'illegal_argument_exception: [size] parameter cannot be negative, found [-5]',
    ]);
    expect(err(() => search({ track_total_hits: -2 }))).toEqual([
      'illegal_argument_exception: [track_total_hits] parameter must be positive or equals to -1, got -2',
    ]);
    expect(err(() => search({ terminate_after: -1 }))).toEqual([
      'illegal_argument_exception: terminateAfter must be > 0',
    ]);
    expect(err(() => search({ from: 'x' }))).toEqual(['number_format_exception: For input string: "x"']);
    expect(err(() => search({ timeout: '5' }))).toEqual([
      'illegal_argument_exception: failed to parse setting [timeout] with value [5] as a time value: unit is missing or unrecognized',
    ]);
  });

  it('checks search_after values', () => {
    expect(err(() => search({ search_after: [{ a: 1 }] }))).toEqual([
      'parsing_exception: Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [START_OBJECT] inside search_after. @1:18',
    ]);
    expect(err(() => search({ search_after: [] }))).toEqual([
      'illegal_argument_exception: Values must contains at least one value.',
    ]);
  });

  it('parses pit and slice with their errors', () => {
    expect(search({ pit: { id: 'abc', keep_alive: '1m' }, slice: { id: 0, max: 2 } })).toMatchObject({
      pit: { id: 'abc', keepAliveMs: 60000 },
      slice: { id: 0, max: 2 },
    });
    expect(err(() => search({ pit: { keep_alive: '1m' } }))).toEqual([
      'illegal_argument_exception: point in time id is not provided',
    ]);
    expect(err(() => search({ pit: { id: 'a' }, slice: { id: 2, max: 1 } }))).toEqual([
      'x_content_parse_exception: [1:41] [slice] failed to parse field [max]',
      'illegal_argument_exception: max must be greater than 1',
    ]);
    expect(err(() => search({ pit: { id: 'a' }, slice: { id: 5, max: 3 } }))).toEqual([
      'x_content_parse_exception: [1:41] [slice] failed to parse field [max]',
      'illegal_argument_exception: max must be greater than id',
    ]);
  });
});

describe('parseSearchRequest: URL parameters', () => {
  it('override the body', () => {
    const r = search(
      { from: 1, size: 2, _source: false, version: false, track_total_hits: 5 },
      {
        from: '3',
        size: '4',
        _source_includes: 'a,b',
        _source_excludes: 'c',
        version: 'true',
        track_total_hits: 'true',
        track_scores: '',
        timeout: '1m',
        terminate_after: '7',
        seq_no_primary_term: 'true',
      },
    );
    expect(r).toMatchObject({
      from: 3,
      size: 4,
      source: { enabled: true, includes: ['a', 'b'], excludes: ['c'] },
      version: true,
      trackTotalHits: 2147483647,
      trackScores: true,
      timeoutMs: 60000,
      terminateAfter: 7,
      seqNoPrimaryTerm: true,
    });
    expect(search({}, { _source: 'false' }).source.enabled).toBe(false);
    expect(search({}, { track_total_hits: '100' }).trackTotalHits).toBe(100);
  });

  it('append URL sort keys to the body’s', () => {
    expect(search({ sort: 'a' }, { sort: 'b:desc' }).sort).toEqual([
      { kind: 'field', field: 'a', order: 'asc', missing: '_last' },
      { kind: 'field', field: 'b', order: 'desc', missing: '_last' },
    ]);
    expect(search({}, { sort: '_score' }).sort).toBeUndefined();
  });

  it('treat size=-1 as unset, with a deprecation warning', () => {
    const r = search({}, { size: '-1' });
    expect(r.size).toBe(10);
    expect(r.warnings).toEqual([
      "Using search size of -1 is deprecated and will be removed in future versions. Instead, don't use the `size` parameter if you don't want to set it explicitly.",
    ]);
  });

  it('report malformed values', () => {
    expect(err(() => search({}, { from: 'x' }))).toEqual([
      'illegal_argument_exception: Failed to parse int parameter [from] with value [x]',
      'number_format_exception: For input string: "x"',
    ]);
    expect(err(() => search({}, { version: 'yes' }))).toEqual([
      'illegal_argument_exception: Failed to parse value [yes] as only [true] or [false] are allowed.',
    ]);
    expect(err(() => search({}, { size: '-5' }))).toEqual([
      'illegal_argument_exception: [size] parameter cannot be negative, found [-5]',
    ]);
  });

  it('turn q into the query, with its options', () => {
    expect(search({ query: { match_none: {} } }, { q: 'title:fox', default_operator: 'AND' }).query).toEqual({
      type: 'match',
      field: 'title',
      query: 'fox',
      operator: 'and',
      zeroTermsQuery: 'none',
      lenient: true,
      boost: 1,
    });
    expect(search({}, { q: 'fox', df: 'body', lenient: 'false' }).query).toMatchObject({
      type: 'match',
      field: 'body',
      lenient: false,
    });
    expect(err(() => search({}, { df: 'a', lenient: 'true' }, { path: '/idx/_search' }))).toEqual([
      "illegal_argument_exception: request [/idx/_search] contains parameters [df, lenient] but missing query string parameter 'q'.",
    ]);
    expect(err(() => search({}, { q: 'x', default_operator: 'xor' }))).toEqual([
      'illegal_argument_exception: No enum constant org.elasticsearch.index.query.Operator.XOR',
    ]);
  });

  it('report a q syntax error after every other check', () => {
    expect(err(() => search({}, { q: 'a:', from: '-1' }))[0]).toBe(
      'illegal_argument_exception: [from] parameter cannot be negative but was [-1]',
    );
    expect(err(() => search({}, { q: 'a:' }))[0]).toBe('query_shard_exception: Failed to parse query [a:]');
  });

  it('check rest_total_hits_as_int', () => {
    expect(search({}, { rest_total_hits_as_int: 'true' })).toMatchObject({
      trackTotalHits: 2147483647,
      restTotalHitsAsInt: true,
    });
    expect(search({ track_total_hits: false }, { rest_total_hits_as_int: 'true' }).trackTotalHits).toBe(-1);
    expect(err(() => search({ track_total_hits: 100 }, { rest_total_hits_as_int: 'true' }))).toEqual([
      'illegal_argument_exception: [rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got 100',
    ]);
  });
});

describe('parseSearchRequest: request validation', () => {
  it('collects every problem in the 8.x order', () => {
    expect(
      err(() =>
        search(
          {
            from: 5,
            size: 0,
            track_total_hits: 10,
            rescore: { query: { rescore_query: { match_all: {} } } },
            search_after: [1],
            collapse: { field: 'f' },
          },
          { scroll: '1m', request_cache: 'true' },
          { hasPit: true },
        ),
      ),
    ).toEqual([
      'action_request_validation_exception: Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;' +
        '2: using [from] is not allowed in a scroll context;3: [size] cannot be [0] in a scroll context;' +
        '4: using [rescore] is not allowed in a scroll context;5: [search_after] cannot be used in a scroll context;' +
        '6: cannot use `collapse` in a scroll context;7: [from] parameter must be set to 0 when [search_after] is used;' +
        '8: [request_cache] cannot be used in a scroll context;9: using [point in time] is not allowed in a scroll context;',
    ]);
  });

  it('checks slice and _shard_doc against pit and scroll', () => {
    expect(err(() => search({ slice: { id: 0, max: 2 }, sort: ['_shard_doc'] }))).toEqual([
      'action_request_validation_exception: Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;' +
        '2: [_shard_doc] sort field cannot be used without [point in time];',
    ]);
    expect(search({ slice: { id: 0, max: 2 }, sort: ['_shard_doc'], pit: { id: 'x' } }).sort).toEqual([
      { kind: 'shard_doc', order: 'asc' },
    ]);
    expect(search({ slice: { id: 0, max: 2 } }, { scroll: '1m' })).toMatchObject({
      scrollKeepAliveMs: 60000,
      trackTotalHits: 2147483647,
    });
  });

  it('lets the caller say a scroll or pit is in play', () => {
    expect(err(() => search({ size: 0 }, {}, { hasScroll: true }))).toEqual([
      'action_request_validation_exception: Validation Failed: 1: [size] cannot be [0] in a scroll context;',
    ]);
    expect(() => search({ sort: ['_shard_doc'] }, {}, { hasPit: true })).not.toThrow();
  });

  it('reports a bad scroll keep-alive', () => {
    expect(err(() => search({}, { scroll: '5' }))).toEqual([
      'illegal_argument_exception: failed to parse setting [scroll] with value [5] as a time value: unit is missing or unrecognized',
    ]);
  });
});

describe('parseCountRequest', () => {
  it('reads the body query, else q, else match_all', () => {
    expect(parseCountRequest({ query: { match_none: {} } }, { q: 'ignored' }).query).toEqual({
      type: 'match_none',
    });
    expect(parseCountRequest(undefined, { q: 'f:x' }).query).toMatchObject({
      type: 'match',
      field: 'f',
      query: 'x',
    });
    expect(parseCountRequest(undefined, {})).toEqual({ query: { type: 'match_all', boost: 1 } });
    expect(parseCountRequest({}, {}).query).toEqual({ type: 'match_all', boost: 1 });
  });

  it('reads min_score and terminate_after, leaving out their defaults', () => {
    expect(parseCountRequest(undefined, { min_score: '1.5', terminate_after: '10' })).toEqual({
      query: { type: 'match_all', boost: 1 },
      minScore: 1.5,
      terminateAfter: 10,
    });
    expect(parseCountRequest(undefined, { min_score: '-1', terminate_after: '0' })).toEqual({
      query: { type: 'match_all', boost: 1 },
    });
  });

  it('reports its own errors', () => {
    expect(err(() => parseCountRequest({ size: 0 }, {}))).toEqual([
      'parsing_exception: request does not support [size] @1:2',
    ]);
    expect(err(() => parseCountRequest({ query: { bool: { must: 'x' } } }, {}))).toEqual([
      'parsing_exception: Failed to parse @1:26',
      "x_content_parse_exception: [1:26] [bool] must doesn't support values of type: VALUE_STRING",
    ]);
    expect(err(() => parseCountRequest({ query: { foo: {} } }, {}))[0]).toBe(
      'parsing_exception: unknown query [foo] @1:17',
    );
    expect(err(() => parseCountRequest(undefined, { df: 'x' }, { path: '/i/_count' }))).toEqual([
      "illegal_argument_exception: request [/i/_count] contains parameters [df] but missing query string parameter 'q'.",
    ]);
    expect(err(() => parseCountRequest(undefined, { terminate_after: '-1' }))).toEqual([
      'illegal_argument_exception: terminateAfter must be > 0',
    ]);
    expect(err(() => parseCountRequest(undefined, { min_score: 'x' }))[0]).toBe(
      'illegal_argument_exception: Failed to parse float parameter [min_score] with value [x]',
    );
  });
});

describe('parseSearchRequest: SearchRequest-level parameters', () => {
  it('takes both search types Elasticsearch knows', () => {
    expect(search(undefined, { search_type: 'query_then_fetch' }).size).toBe(10);
    expect(search(undefined, { search_type: 'dfs_query_then_fetch' }).size).toBe(10);
  });

  it('refuses any other search type, the removed ones included', () => {
    for (const t of ['query_and_fetch', 'dfs_query_and_fetch', 'scan', 'count', 'QUERY_THEN_FETCH', '']) {
      expect(err(() => search(undefined, { search_type: t }))).toEqual([
        `illegal_argument_exception: No search type for [${t}]`,
      ]);
    }
  });

  it('refuses a pre_filter_shard_size below 1, and one that is not an int', () => {
    expect(search(undefined, { pre_filter_shard_size: '1' }).size).toBe(10);
    expect(err(() => search(undefined, { pre_filter_shard_size: '0' }))).toEqual([
      'illegal_argument_exception: preFilterShardSize must be >= 1',
    ]);
    expect(err(() => search(undefined, { pre_filter_shard_size: '-3' }))).toEqual([
      'illegal_argument_exception: preFilterShardSize must be >= 1',
    ]);
    expect(err(() => search(undefined, { pre_filter_shard_size: 'x' }))).toEqual([
      'illegal_argument_exception: Failed to parse int parameter [pre_filter_shard_size] with value [x]',
      'number_format_exception: For input string: "x"',
    ]);
  });

  it('refuses max_concurrent_shard_requests below 1 and batched_reduce_size below 2', () => {
    expect(err(() => search(undefined, { max_concurrent_shard_requests: '0' }))).toEqual([
      'illegal_argument_exception: maxConcurrentShardRequests must be >= 1',
    ]);
    expect(err(() => search(undefined, { batched_reduce_size: '1' }))).toEqual([
      'illegal_argument_exception: batchedReduceSize must be >= 2',
    ]);
    expect(search(undefined, { batched_reduce_size: '2', max_concurrent_shard_requests: '1' }).size).toBe(10);
  });

  it('checks them in RestSearchAction’s order, after the body and before `q`', () => {
    expect(err(() => search(undefined, { search_type: 'x', pre_filter_shard_size: '0' }))).toEqual([
      'illegal_argument_exception: preFilterShardSize must be >= 1',
    ]);
    expect(err(() => search(undefined, { search_type: 'x', allow_partial_search_results: 'maybe' }))).toEqual(
      ['illegal_argument_exception: Failed to parse value [maybe] as only [true] or [false] are allowed.'],
    );
    expect(err(() => search(undefined, { search_type: 'x', df: 'f' }))).toEqual([
      'illegal_argument_exception: No search type for [x]',
    ]);
    expect(err(() => search({ size: 'a' }, { search_type: 'x' }))[0]).toMatch(/^number_format_exception/);
  });
});

describe('parseSearchRequest: indices_boost', () => {
  it('reads the array form without a warning', () => {
    const r = search({ indices_boost: [{ a: 2 }, { 'b*': 1.5 }] });
    expect(r.indicesBoost).toEqual([
      { index: 'a', boost: 2 },
      { index: 'b*', boost: 1.5 },
    ]);
    expect(r.warnings).toBeUndefined();
  });

  it('reads the 7.x object form, numeric strings included, with its deprecation warning', () => {
    const r = search({ indices_boost: { a: 2, b: '0.1' } });
    expect(r.indicesBoost).toEqual([
      { index: 'a', boost: 2 },
      { index: 'b', boost: Math.fround(0.1) },
    ]);
    expect(r.warnings).toEqual([
      'Object format in indices_boost is deprecated, please use array format instead',
    ]);
  });

  it('refuses an object form value that is not a scalar or a number', () => {
    expect(err(() => search({ indices_boost: { a: [1] } }))).toEqual([
      'parsing_exception: Unknown key for a START_ARRAY in [a]. @1:23',
    ]);
    expect(err(() => search({ indices_boost: { a: true } }))[0]).toMatch(
      /^x_content_parse_exception: .*Current token \(VALUE_TRUE\) not numeric/,
    );
  });
});
