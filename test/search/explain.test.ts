import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/ex', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: { title: { type: 'text' }, tag: { type: 'keyword', store: true }, n: { type: 'long' } },
    },
    aliases: { only_b: { filter: { term: { tag: 'b' } } } },
  });
  expect(created.status).toBe(200);
  const docs = [
    { title: 'quick brown fox', tag: 'a', n: 1 },
    { title: 'quick quick dog', tag: 'b', n: 2 },
    { title: 'lazy dog sleeps all day', tag: 'b', n: 3 },
  ];
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', '/ex/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

interface Expl {
  value: number;
  description: string;
  details: Expl[];
}

const explain = (id: string, body: unknown, params = '', index = 'ex') =>
  http(node.url, 'POST', `/${index}/_explain/${id}${params}`, body);

/** Each hit's `_score` from `_search` with the same query. */
async function scores(query: unknown): Promise<Map<string, number>> {
  const r = await http(node.url, 'POST', '/ex/_search', { query });
  return new Map(r.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]));
}

describe('_explain', () => {
  it('explains match_all', async () => {
    const r = await http(node.url, 'GET', '/ex/_explain/1', { query: { match_all: {} } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      _index: 'ex',
      _id: '1',
      matched: true,
      explanation: { value: 1, description: '*:*', details: [] },
    });
  });

  it('explains BM25 on text and keyword terms, valued at the _score of _search', async () => {
    for (const query of [
      { match: { title: 'quick' } },
      { match: { title: 'quick dog' } },
      { term: { tag: { value: 'b', boost: 2 } } },
      { bool: { must: [{ match: { title: 'dog' } }], filter: [{ term: { tag: 'b' } }] } },
      { constant_score: { filter: { term: { tag: 'b' } }, boost: 3 } },
    ]) {
      const expected = await scores(query);
      expect(expected.size).toBeGreaterThan(0);
      for (const [id, score] of expected) {
        const r = await explain(id, { query });
        expect(r.status).toBe(200);
        expect(r.json.matched).toBe(true);
        expect(r.json.explanation.value).toBe(score);
      }
    }
    const r = await explain('2', { query: { match: { title: 'quick' } } });
    const e: Expl = r.json.explanation;
    expect(e.description).toMatch(/^weight\(title:quick in \d+\) \[PerFieldSimilarity\], result of:$/);
    const [score] = e.details;
    expect(score!.description).toBe('score(freq=2.0), computed as boost * idf * tf from:');
    const [boost, idf, tf] = score!.details;
    expect(boost).toEqual({ value: 1, description: 'boost', details: [] });
    expect(idf!.details.map((d) => [d.description, d.value])).toEqual([
      ['n, number of documents containing term', 2],
      ['N, total number of documents with field', 3],
    ]);
    expect(tf!.details.map((d) => d.description)).toEqual([
      'freq, occurrences of term within document',
      'k1, term saturation parameter',
      'b, length normalization parameter',
      'dl, length of field',
      'avgdl, average length of field',
    ]);
    const bool = await explain('1', { query: { match: { title: 'quick fox' } } });
    expect(bool.json.explanation.description).toBe('sum of:');
    expect(bool.json.explanation.details).toHaveLength(2);
    const cs = await explain('2', {
      query: { constant_score: { filter: { term: { tag: 'b' } }, boost: 3 } },
    });
    expect(cs.json.explanation).toEqual({ value: 3, description: 'ConstantScore(tag:b)^3.0', details: [] });
  });

  it('answers matched false for a document the query does not match', async () => {
    const r = await explain('3', { query: { term: { title: 'fox' } } });
    expect(r.status).toBe(200);
    expect(r.json.matched).toBe(false);
    expect(r.json.explanation).toEqual({ value: 0, description: 'no matching term', details: [] });
  });

  it('answers 404 for a missing document and index_not_found for a missing index', async () => {
    const r = await explain('nope', { query: { match_all: {} } });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ _index: 'ex', _id: 'nope', matched: false });
    const missing = await explain('1', { query: { match_all: {} } }, '', 'no_such_index');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });

  it('applies a filtering alias, and returns the source when asked', async () => {
    const viaAlias = await explain('1', { query: { match_all: {} } }, '', 'only_b');
    expect(viaAlias.json._index).toBe('ex');
    expect(viaAlias.json.matched).toBe(false);
    const r = await explain('2', { query: { match_all: {} } }, '?_source_includes=tag');
    expect(r.json.get).toEqual({ found: true, _source: { tag: 'b' } });
    const none = await explain('2', { query: { match_all: {} } }, '?_source=false');
    expect(none.json.get).toBeUndefined();
    const stored = await explain('2', { query: { match_all: {} } }, '?stored_fields=tag');
    expect(stored.json.get).toEqual({ found: true, fields: { tag: ['b'] } });
    const both = await explain('2', { query: { match_all: {} } }, '?stored_fields=tag,_source');
    expect(both.json.get).toEqual({
      found: true,
      _source: { title: 'quick quick dog', tag: 'b', n: 2 },
      fields: { tag: ['b'] },
    });
  });

  it('refuses a body without a query and queries it cannot explain', async () => {
    const bad = await explain('1', { match_all: {} });
    expect(bad.status).toBe(400);
    const missing = await http(node.url, 'POST', '/ex/_explain/1');
    expect(missing.status).toBe(400);
    expect(missing.json.error.type).toBe('action_request_validation_exception');
    const r = await explain('1', {
      query: { terms_set: { tag: { terms: ['a'], minimum_should_match_field: 'n' } } },
    });
    expect(r.status).toBe(501);
    expect(r.json.error.reason).toContain('explaining a [terms_set] query');
  });

  it('explains the other query types, valued at the _score of _search', async () => {
    for (const query of [
      { range: { n: { gte: 2 } } },
      { terms: { tag: ['a', 'b'] } },
      { exists: { field: 'tag' } },
      { prefix: { title: 'qu' } },
      { wildcard: { title: 'do?' } },
      { regexp: { title: 'la.*' } },
      { ids: { values: ['1', '2'] } },
      { match_phrase: { title: 'quick dog' } },
      { multi_match: { query: 'quick b', fields: ['title', 'tag'] } },
      { multi_match: { query: 'quick dog', fields: ['title^2', 'tag'], type: 'most_fields' } },
      { multi_match: { query: 'quick dog', fields: ['title', 'tag'], type: 'cross_fields' } },
      { dis_max: { queries: [{ match: { title: 'dog' } }, { term: { tag: 'b' } }], tie_breaker: 0.5 } },
      {
        function_score: {
          query: { match: { title: 'quick dog' } },
          functions: [
            { filter: { term: { tag: 'b' } }, weight: 2 },
            { field_value_factor: { field: 'n', factor: 1.5, modifier: 'sqrt' } },
            { linear: { n: { origin: 0, scale: 4 } } },
            { random_score: { seed: 3, field: '_seq_no' } },
            { script_score: { script: { source: '_score * params.k', params: { k: 2 } } } },
          ],
          score_mode: 'multiply',
          boost_mode: 'sum',
        },
      },
      {
        boosting: {
          positive: { match: { title: 'dog' } },
          negative: { term: { tag: 'b' } },
          negative_boost: 0.2,
        },
      },
      { query_string: { query: 'quick OR tag:b', default_field: 'title' } },
      { simple_query_string: { query: 'dog -lazy', fields: ['title'] } },
    ]) {
      const expected = await scores(query);
      expect(expected.size, JSON.stringify(query)).toBeGreaterThan(0);
      for (const [id, score] of expected) {
        const r = await explain(id, { query });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(r.json.matched).toBe(true);
        expect(r.json.explanation.value, `${JSON.stringify(query)} ${id}`).toBe(score);
      }
    }
    const range = await explain('3', { query: { range: { n: { gt: 2 } } } });
    expect(range.json.explanation).toEqual({
      value: 1,
      description: 'n:[3 TO 9223372036854775807]',
      details: [],
    });
    const fvf = await explain('2', {
      query: { function_score: { query: { term: { tag: 'b' } }, field_value_factor: { field: 'n' } } },
    });
    expect(fvf.json.explanation.description).toBe('function score, product of:');
    expect(fvf.json.explanation.details[1].details[0]).toEqual({
      value: 2,
      description: "field value function: none(doc['n'].value * factor=1.0)",
      details: [],
    });
  });

  it('takes the query from q=', async () => {
    const r = await http(node.url, 'GET', '/ex/_explain/2?q=title:quick');
    expect(r.status).toBe(200);
    expect(r.json.matched).toBe(true);
    expect(r.json.explanation.value).toBe((await scores({ match: { title: 'quick' } })).get('2'));
    const miss = await http(node.url, 'GET', '/ex/_explain/3?q=quick&df=title');
    expect(miss.json.matched).toBe(false);
  });
});

describe('_search with explain', () => {
  it('gives each hit its _shard, _node and the _explain explanation, valued at its _score', async () => {
    const nodes = await http(node.url, 'GET', '/_nodes/_local');
    const nodeId = Object.keys(nodes.json.nodes)[0];
    const query = { match: { title: 'quick dog' } };
    for (const [path, body] of [
      ['/ex/_search', { query, explain: true }],
      ['/ex/_search?explain=true', { query }],
      // Past the first page, through the fetch of a later page too.
      ['/ex/_search?explain=true&filter_path=hits.hits', { query, from: 1, size: 1 }],
    ] as const) {
      const r = await http(node.url, 'POST', path, body);
      expect(r.status).toBe(200);
      const hits = r.json.hits.hits as Record<string, unknown>[];
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        // SearchHit#toXContent: `_shard` and `_node` first, `_explanation` last.
        const keys = Object.keys(hit);
        expect(keys.slice(0, 4)).toEqual(['_shard', '_node', '_index', '_id']);
        expect(keys.at(-1)).toBe('_explanation');
        expect(hit._shard).toBe('[ex][0]');
        expect(hit._node).toBe(nodeId);
        const single = await explain(hit._id as string, { query });
        expect(hit._explanation).toEqual(single.json.explanation);
        expect(Math.fround((hit._explanation as Expl).value)).toBe(Math.fround(hit._score as number));
      }
    }
  });

  it('explains the hits of each search of an _msearch', async () => {
    const query = { match: { title: 'quick' } };
    const r = await http(node.url, 'POST', '/_msearch', ndjson([{ index: 'ex' }, { query, explain: true }]));
    expect(r.status).toBe(200);
    const hits = r.json.responses[0].hits.hits;
    expect(hits.length).toBe(2);
    for (const hit of hits) {
      const single = await explain(hit._id, { query });
      expect(hit._explanation).toEqual(single.json.explanation);
    }
  });

  it('explains through a filtering alias as the query ran there, and not without explain', async () => {
    const r = await http(node.url, 'POST', '/only_b/_search', { query: { match_all: {} }, explain: true });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['2', '3']);
    for (const hit of r.json.hits.hits) {
      const single = await explain(hit._id, { query: { match_all: {} } }, '', 'only_b');
      expect(hit._explanation).toEqual(single.json.explanation);
    }
    const plain = await http(node.url, 'POST', '/ex/_search', { query: { match_all: {} } });
    expect(plain.json.hits.hits[0]._explanation).toBeUndefined();
    expect(plain.json.hits.hits[0]._shard).toBeUndefined();
  });

  it('explains the hits of a point in time search on the PIT reader', async () => {
    const pit = await http(node.url, 'POST', '/ex/_pit?keep_alive=1m');
    expect(pit.status).toBe(200);
    const query = { match: { title: 'dog' } };
    try {
      const r = await http(node.url, 'POST', '/_search', {
        query,
        explain: true,
        pit: { id: pit.json.id, keep_alive: '1m' },
      });
      expect(r.status).toBe(200);
      expect(r.json.hits.hits.length).toBe(2);
      for (const hit of r.json.hits.hits) {
        expect(hit._shard).toBe('[ex][0]');
        const single = await explain(hit._id, { query });
        expect(hit._explanation).toEqual(single.json.explanation);
      }
    } finally {
      await http(node.url, 'DELETE', '/_pit', { id: pit.json.id });
    }
  });

  it('explains a point in time opened through a filtering alias as its queries run', async () => {
    const pit = await http(node.url, 'POST', '/only_b/_pit?keep_alive=1m');
    const query = { match: { title: 'quick dog' } };
    try {
      const r = await http(node.url, 'POST', '/_search', {
        query,
        explain: true,
        pit: { id: pit.json.id },
      });
      expect(r.json.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['2', '3']);
      for (const hit of r.json.hits.hits) {
        const single = await explain(hit._id, { query }, '', 'only_b');
        expect(hit._explanation).toEqual(single.json.explanation);
        expect(Math.fround(hit._explanation.value)).toBe(Math.fround(hit._score));
      }
    } finally {
      await http(node.url, 'DELETE', '/_pit', { id: pit.json.id });
    }
  });

  it('answers 501 for explain with scroll and for a query it cannot explain', async () => {
    const r = await http(node.url, 'POST', '/ex/_search?scroll=1m', {
      query: { match_all: {} },
      explain: true,
    });
    expect(r.status).toBe(501);
    expect(r.json.error.reason).toContain('explain with scroll');
    const unexplained = await http(node.url, 'POST', '/ex/_search', {
      query: { terms_set: { tag: { terms: ['a'], minimum_should_match_field: 'n' } } },
      explain: true,
    });
    expect(unexplained.status).toBe(501);
    expect(unexplained.json.error.reason).toContain('explaining a [terms_set] query');
  });
});
