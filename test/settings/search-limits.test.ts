import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

// The setup of Elasticsearch's search/30_limits.yml.
beforeAll(async () => {
  node = await startTestNode();
  await http(node.url, 'PUT', '/test_1', {
    settings: { 'index.max_docvalue_fields_search': 2, 'index.max_script_fields': 2 },
  });
  await http(node.url, 'PUT', '/test_1/_doc/1?refresh=true', { foo: 'bar', foo2: 'bar', foo3: 'bar' });
});
afterAll(async () => {
  await node?.stop();
});

const search = (body: unknown, query = '') => http(node.url, 'POST', `/test_1/_search${query}`, body);
const rootReason = (r: { json: { error: { root_cause: { reason: string }[] } } }) =>
  r.json.error.root_cause[0]!.reason;
const script = { script: { lang: 'painless', source: '1;' } };

describe('search limits set by index settings (search/30_limits.yml)', () => {
  it('index.max_script_fields refuses too many script_fields before any script runs', async () => {
    const r = await search({
      query: { match_all: {} },
      script_fields: { test1: script, test2: script, test3: script },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    expect(rootReason(r)).toBe(
      'Trying to retrieve too many script_fields. Must be less than or equal to: [2] but was [3]. This limit can be set by changing the [index.max_script_fields] index level setting.',
    );
    // Within the limit the scripts run.
    const within = await search({ script_fields: { test1: script } });
    expect(within.status, within.text).toBe(200);
  });

  it('index.max_docvalue_fields_search refuses too many docvalue_fields', async () => {
    const r = await search({ query: { match_all: {} }, docvalue_fields: ['foo', 'foo2', 'foo3'] });
    expect(r.status).toBe(400);
    expect(rootReason(r)).toBe(
      'Trying to retrieve too many docvalue_fields. Must be less than or equal to: [2] but was [3]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.',
    );
  });

  it('index.max_result_window and index.max_rescore_window bound the windows', async () => {
    expect(rootReason(await search({}, '?from=10000'))).toMatch(
      /^Result window is too large, from \+ size must be less than or equal to: \[10000\] but was \[10010\]\. See the scroll api/,
    );
    expect(rootReason(await search({}, '?scroll=5m&size=10010'))).toMatch(
      /^Batch size is too large, size must be less than or equal to: \[10000\] but was \[10010\]\./,
    );
    const rescore = await search({
      query: { match_all: {} },
      rescore: [
        {
          window_size: 10001,
          query: { rescore_query: { match_all: {} }, query_weight: 1, rescore_query_weight: 2 },
        },
      ],
    });
    expect(rootReason(rescore)).toMatch(
      /^Rescore window \[10001\] is too large\. It must be less than \[10000\]\./,
    );
    await http(node.url, 'PUT', '/test_1/_settings', {
      'index.max_script_fields': 5,
      'index.max_rescore_window': 20000,
    });
    expect((await search({ script_fields: { a: script, b: script, c: script } })).status).toBe(200);
  });
});
