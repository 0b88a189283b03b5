// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson, rawHttp } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let client: Client;

const NDJSON = { 'content-type': 'application/x-ndjson' };

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
  // Elasticsearch's msearch/10_basic set-up, with a second shard in index_1.
  expect((await http(node.url, 'PUT', '/index_1', { settings: { number_of_shards: 2 } })).status).toBe(200);
  const bulk = await http(
    node.url,
    'POST',
    '/_bulk?refresh=true',
    ndjson([
      { index: { _index: 'index_1', _id: '1' } },
      { foo: 'bar', n: 1 },
      { index: { _index: 'index_1', _id: '2' } },
      { foo: 'baz', n: 2 },
      { index: { _index: 'index_1', _id: '3' } },
      { foo: 'foo', n: 3 },
      { index: { _index: 'index_2', _id: '1' } },
      { foo: 'foo', n: 4 },
      { index: { _index: 'routed', _id: '1', routing: '1' } },
      { foo: 'bar' },
    ]),
    NDJSON,
  );
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
});

const msearch = (lines: unknown[], path = '/_msearch', method = 'POST') =>
  http(node.url, method, path, ndjson(lines), NDJSON);

describe('_msearch: answers', () => {
  it('answers each search in its place, a missing index as that search’s error (msearch/10_basic)', async () => {
    const r = await msearch(
      [
        { index: 'index_*' },
        { query: { match: { foo: 'foo' } } },
        { index: 'index_2' },
        { query: { match_all: {} } },
        { index: 'index_1' },
        { query: { match: { foo: 'foo' } } },
        { index: 'index_3' },
        { query: { match_all: {} } },
        {},
        { query: { match_all: {} } },
      ],
      '/_msearch?rest_total_hits_as_int=true',
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['took', 'responses']);
    expect(typeof r.json.took).toBe('number');
    const [a, b, c, missing, all] = r.json.responses;
    expect(a.hits.total).toBe(2);
    expect(b.hits.total).toBe(1);
    expect(c.hits.total).toBe(1);
    expect(all.hits.total).toBe(5);
    for (const ok of [a, b, c, all]) {
      expect(ok.status).toBe(200);
      expect(Object.keys(ok).slice(0, 4)).toEqual(['took', 'timed_out', '_shards', 'hits']);
      expect(Object.keys(ok).at(-1)).toBe('status');
    }
    expect(missing).toEqual({
      error: {
        root_cause: [
          {
            type: 'index_not_found_exception',
            reason: 'no such index [index_3]',
            'resource.type': 'index_or_alias',
            'resource.id': 'index_3',
            index_uuid: '_na_',
            index: 'index_3',
          },
        ],
        type: 'index_not_found_exception',
        reason: 'no such index [index_3]',
        'resource.type': 'index_or_alias',
        'resource.id': 'index_3',
        index_uuid: '_na_',
        index: 'index_3',
      },
      status: 404,
    });
  });

  it('gives each search the hits, sort and source a `_search` would', async () => {
    const body = { query: { range: { n: { gte: 2 } } }, sort: [{ n: 'desc' }], size: 2 };
    const alone = await http(node.url, 'POST', '/index_*/_search', body);
    const r = await msearch([{ index: 'index_*' }, body]);
    const { status, took: _t, ...item } = r.json.responses[0];
    const { took: _t2, ...plain } = alone.json;
    expect(status).toBe(200);
    expect(item).toEqual(plain);
    expect(item.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1', '3']);
  });

  it('filters and indents the whole response as filter_path and pretty ask', async () => {
    const lines = [{ index: 'index_2' }, {}, { index: 'index_1' }, { size: 1, sort: ['n'] }];
    const filtered = await msearch(lines, '/_msearch?filter_path=responses.hits.hits._id,responses.status');
    expect(filtered.json).toEqual({
      responses: [
        { hits: { hits: [{ _id: '1' }] }, status: 200 },
        { hits: { hits: [{ _id: '1' }] }, status: 200 },
      ],
    });
    const pretty = await msearch(lines, '/_msearch?pretty');
    expect(pretty.text).toContain('\n  "responses" : [\n');
    expect(pretty.json.responses[1].hits.hits[0]._source).toEqual({ foo: 'bar', n: 1 });
  });

  it('takes the index of the path, GET as POST, `{}` and an empty line as empty headers', async () => {
    // An empty header index replaces the path's with every index.
    const text = `{}\n{"query":{"match_all":{}}}\n\n{"size":0}\n{"index":"index_2"}\n{}\n{"index":[]}\n{}\n`;
    for (const method of ['GET', 'POST']) {
      const r = await rawHttp(
        node.url,
        method,
        '/index_1/_msearch?rest_total_hits_as_int=true',
        text,
        NDJSON,
      );
      expect(r.status).toBe(200);
      expect(r.json.responses.map((x: { hits: { total: number } }) => x.hits.total)).toEqual([3, 3, 1, 5]);
    }
  });

  it('applies the URL’s options to every search unless its header sets them (Least impact smoke test)', async () => {
    const r = await msearch(
      [
        { index: 'index_*' },
        { query: { match: { foo: 'foo' } } },
        { index: 'index_2' },
        { query: { match_all: {} } },
        { index: 'index_3' },
        { query: { match_all: {} } },
        {},
        { query: { match_all: {} } },
        { index: 'index_3', ignore_unavailable: true },
        { query: { match_all: {} } },
        { index: 'index_3', ignore_unavailable: true, allow_no_indices: true },
        { query: { match_all: {} } },
      ],
      '/index_*/_msearch?rest_total_hits_as_int=true&max_concurrent_shard_requests=1&max_concurrent_searches=1' +
        '&ignore_unavailable=false&allow_no_indices=false&expand_wildcards=open&include_named_queries_score=false',
    );
    expect(r.status).toBe(200);
    const totals = r.json.responses.map((x: { hits?: { total: number } }) => x.hits?.total);
    expect(totals).toEqual([2, 1, undefined, 4, undefined, 0]);
    expect(r.json.responses[2].error.root_cause[0].type).toBe('index_not_found_exception');
    // The URL's allow_no_indices=false still holds for a search that ignores its missing index.
    expect(r.json.responses[4].status).toBe(404);
    expect(r.json.responses[4].error.type).toBe('index_not_found_exception');
    expect(r.json.responses[5].status).toBe(200);
  });

  it('routes with the URL’s or the header’s routing (msearch/40_routing)', async () => {
    const r = await msearch(
      [{}, { query: { match_all: {} } }, { routing: '1' }, {}],
      '/routed/_msearch?rest_total_hits_as_int=true&routing=1',
    );
    expect(r.json.responses.map((x: { hits: { total: number } }) => x.hits.total)).toEqual([1, 1]);
  });

  it('counts hits as each search asks, and writes typed keys for all of them (msearch/20_typed_keys)', async () => {
    const r = await msearch(
      [
        { index: 'index_*' },
        { query: { match: { foo: 'foo' } }, track_total_hits: 1, aggs: { most: { max: { field: 'n' } } } },
        { index: 'index_1' },
        { query: { match_all: {} } },
      ],
      '/_msearch?typed_keys=true',
    );
    expect(r.json.responses[0].hits.total).toEqual({ value: 1, relation: 'gte' });
    expect(r.json.responses[0].aggregations['max#most'].value).toBe(4);
    expect(r.json.responses[1].hits.total).toEqual({ value: 3, relation: 'eq' });
  });

  it('reports a search that fails on its shards in its place', async () => {
    const r = await msearch([
      { index: 'index_1' },
      { query: { query_string: { query: 'foo:(' } } },
      { index: 'index_1' },
      { indices_boost: [{ index_1: -1 }] },
      { index: 'index_2' },
      {},
    ]);
    expect(r.status).toBe(200);
    const [bad, boosted, fine] = r.json.responses;
    expect(bad.status).toBe(400);
    expect(bad.error.type).toBe('search_phase_execution_exception');
    expect(bad.error.failed_shards[0].reason.type).toBe('query_shard_exception');
    expect(boosted.status).toBe(400);
    expect(boosted.error.type).toBe('search_phase_execution_exception');
    expect(fine.status).toBe(200);
    expect(fine.hits.total.value).toBe(1);
  });

  it('searches a point in time named in a body', async () => {
    const pit = await http(node.url, 'POST', '/index_1/_pit?keep_alive=1m');
    expect(pit.status).toBe(200);
    const r = await msearch([
      {},
      { pit: { id: pit.json.id, keep_alive: '1m' }, sort: [{ n: 'asc' }], size: 2 },
      { index: 'index_2' },
      {},
    ]);
    expect(r.status).toBe(200);
    const [first, other] = r.json.responses;
    expect(first.status).toBe(200);
    expect(first.pit_id).toBe(pit.json.id);
    expect(first.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1', '2']);
    expect(other.hits.total.value).toBe(1);

    const named = await msearch([{ index: 'index_1' }, { pit: { id: pit.json.id } }]);
    expect(named.status).toBe(400);
    expect(named.json.error.type).toBe('action_request_validation_exception');
    expect(named.json.error.reason).toBe(
      'Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;',
    );
    const inPath = await msearch([{}, { pit: { id: pit.json.id } }], '/index_1/_msearch');
    expect(inPath.status).toBe(400);
    expect(inPath.json.error.reason).toMatch(/\[indices\] cannot be used with point in time/);
    await http(node.url, 'DELETE', '/_pit', { id: pit.json.id });
  });

  it('runs at most max_concurrent_searches at once and answers in request order', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 24; i++)
      lines.push({ index: 'index_*' }, { query: { range: { n: { gte: (i % 4) + 1 } } } });
    for (const max of [1, 3, 100]) {
      const r = await msearch(lines, `/_msearch?max_concurrent_searches=${max}`);
      expect(r.status).toBe(200);
      expect(r.json.responses.map((x: { hits: { total: { value: number } } }) => x.hits.total.value)).toEqual(
        Array.from({ length: 24 }, (_, i) => 4 - (i % 4)),
      );
    }
  });
});

describe('_msearch: requests refused whole, as Elasticsearch refuses them', () => {
  const refused = async (r: Awaited<ReturnType<typeof http>>, type: string, reason: string) => {
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe(type);
    expect(r.json.error.reason).toBe(reason);
    expect(r.json.responses).toBeUndefined();
  };

  it('needs every line to end with a newline, the last one too', async () => {
    const text = '{"index":"index_1"}\n{"query":{"match_all":{}}}';
    await refused(
      await rawHttp(node.url, 'POST', '/_msearch', text, NDJSON),
      'illegal_argument_exception',
      'The msearch request must be terminated by a newline [\n]',
    );
  });

  it('needs a body', async () => {
    await refused(
      await rawHttp(node.url, 'POST', '/_msearch', undefined, {}),
      'parse_exception',
      'request body or source parameter is required',
    );
  });

  it('refuses an unknown header key and a header or body that does not parse', async () => {
    await refused(
      await msearch([{ index: 'index_1', size: 3 }, {}]),
      'illegal_argument_exception',
      'key [size] is not supported in the metadata section',
    );
    const broken = await rawHttp(node.url, 'POST', '/_msearch', '{"index":"index_1"}\n{"query":\n', NDJSON);
    expect(broken.status).toBe(400);
    expect(broken.json.error.type).toMatch(/^x_content_/);
    const empty = await rawHttp(node.url, 'POST', '/_msearch', '{}\n\n', NDJSON);
    expect(empty.status).toBe(400);
    expect(empty.json.error.type).toBe('parsing_exception');
    expect(empty.json.error.reason).toBe('Expected [START_OBJECT] but found [null]');
  });

  it('refuses a malformed search before running any (a later one’s error included)', async () => {
    await refused(
      await msearch([{ index: 'index_1' }, {}, { index: 'index_2' }, { query: { nope: {} } }]),
      'parsing_exception',
      'unknown query [nope]',
    );
  });

  it('gathers the searches’ validation problems into one error', async () => {
    await refused(
      await msearch([
        { index: 'index_1' },
        { from: 5, search_after: [1], sort: [{ n: 'asc' }] },
        { index: 'index_1' },
        { slice: { id: 0, max: 2 } },
      ]),
      'action_request_validation_exception',
      'Validation Failed: 1: [from] parameter must be set to 0 when [search_after] is used;' +
        '2: [slice] can only be used with [scroll] or [point-in-time] requests;',
    );
    await refused(
      await http(node.url, 'POST', '/_msearch', '\n', NDJSON),
      'action_request_validation_exception',
      'Validation Failed: 1: no requests added;',
    );
  });

  it('refuses rest_total_hits_as_int with inexact totals (msearch/10_basic)', async () => {
    await refused(
      await msearch(
        [{ index: 'index_*' }, { query: { match_all: {} }, track_total_hits: 10 }],
        '/_msearch?rest_total_hits_as_int=true',
      ),
      'illegal_argument_exception',
      '[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got 10',
    );
  });

  it('checks its own parameters and the search parameters it passes on', async () => {
    const one = [{ index: 'index_1' }, {}];
    const cases: [string, unknown[], string][] = [
      ['max_concurrent_searches=0', one, 'maxConcurrentSearchRequests must be positive'],
      [
        'max_concurrent_searches=x',
        one,
        'Failed to parse int parameter [max_concurrent_searches] with value [x]',
      ],
      ['search_type=scan', one, 'No search type for [scan]'],
      ['pre_filter_shard_size=0', one, 'preFilterShardSize must be >= 1'],
      ['max_concurrent_shard_requests=0', one, 'maxConcurrentShardRequests must be >= 1'],
      [
        '',
        [{ index: 'index_1', search_type: 'query_and_fetch' }, {}],
        'No search type for [query_and_fetch]',
      ],
    ];
    for (const [query, lines, reason] of cases) {
      await refused(await msearch(lines, `/_msearch?${query}`), 'illegal_argument_exception', reason);
    }
    const dfs = await msearch(
      [{ index: 'index_1', search_type: 'dfs_query_then_fetch' }, {}],
      '/_msearch?search_type=query_then_fetch&pre_filter_shard_size=1',
    );
    expect(dfs.json.responses[0].hits.total.value).toBe(3);
  });
});

describe('_msearch: routes', () => {
  it('is no longer a 405', async () => {
    const r = await msearch([{}, {}]);
    expect(r.status).toBe(200);
  });

  it('_msearch/template renders each body line, and a template that fails fails only its search', async () => {
    const lines = [
      { index: 'index_1' },
      { source: { query: { match_all: {} }, size: '{{n}}' }, params: { n: 1 } },
      {},
      { source: { query: { match: { text: '{{{broken}}"' } } }, params: {} },
      { index: 'index_1' },
      { id: 'no_such_template', params: {} },
    ];
    const body = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const r = await http(node.url, 'POST', '/_msearch/template', body, {
      'content-type': 'application/x-ndjson',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.responses).toHaveLength(3);
    expect(r.json.responses[0].hits.hits).toHaveLength(1);
    expect(r.json.responses[0].status).toBe(200);
    expect(r.json.responses[1].status).toBe(400);
    expect(r.json.responses[1].error.type).toBe('general_script_exception');
    expect(r.json.responses[2].status).toBe(404);
  });
});

describe('_msearch: the official client (7.13)', () => {
  it('msearch sends header and body pairs and reads each response', async () => {
    const { body } = await client.msearch({
      body: [{ index: 'index_1' }, { query: { match: { foo: 'foo' } } }, { index: 'nope' }, {}],
    });
    expect(body.responses[0].hits.hits.map((h: { _id: string }) => h._id)).toEqual(['3']);
    expect(body.responses[1].status).toBe(404);
  });

  it('helpers.msearch batches searches and resolves each one, or rejects it with its error', async () => {
    const m = client.helpers.msearch({ operations: 3, flushInterval: 50 });
    try {
      const found = await Promise.all(
        [1, 2, 3, 4].map((n) => m.search({ index: 'index_*' }, { query: { term: { n } } })),
      );
      // The helper adds `documents` (the hits' sources) to each result; its 7.13 typings do not say so.
      const documents = found.map((r) => (r as unknown as { documents: { n: number }[] }).documents);
      expect(documents.map((docs) => docs.map((d) => d.n))).toEqual([[1], [2], [3], [4]]);
      await expect(m.search({ index: 'nope' }, { query: { match_all: {} } })).rejects.toMatchObject({
        meta: { body: { status: 404, error: { type: 'index_not_found_exception' } } },
      });
    } finally {
      m.stop();
    }
  });
});
