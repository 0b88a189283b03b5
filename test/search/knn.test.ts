import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const HNSW = { type: 'hnsw', m: 16, ef_construction: 200 };
const Q = [-0.5, 90.0, -10, 14.8, -156.0];

async function createAndLoad(index: string, body: unknown, docs: Record<string, unknown>[]) {
  const created = await http(node.url, 'PUT', `/${index}`, body);
  expect(created.status).toBe(200);
  const lines = docs.flatMap((d, i) => [{ index: { _id: String(i + 1) } }, d]);
  const bulk = await http(node.url, 'POST', `/${index}/_bulk?refresh=true`, ndjson(lines));
  expect(bulk.json.errors).toBe(false);
}

beforeAll(async () => {
  node = await startTestNode();
  const vector = (similarity: string) => ({
    type: 'dense_vector',
    dims: 5,
    index: true,
    similarity,
    index_options: HNSW,
  });
  const docs = [
    {
      name: 'cow.jpg',
      vector: [230.0, 300.33, -34.8988, 15.555, -200.0],
      another_vector: [130.0, 115.0, -1.02, 15.555, -100.0],
    },
    { name: 'moose.jpg', vector: [-0.5, 100.0, -13, 14.8, -156.0], another_vector: [-0.5, 50.0, -1, 1, 120] },
    {
      name: 'rabbit.jpg',
      vector: [0.5, 111.3, -13.0, 14.8, -156.0],
      another_vector: [-0.5, 11.0, 0, 12, 111.0],
    },
  ];
  await createAndLoad(
    'vec',
    {
      settings: { number_of_shards: 2 },
      mappings: {
        properties: {
          name: { type: 'keyword' },
          vector: vector('l2_norm'),
          another_vector: vector('l2_norm'),
        },
      },
    },
    docs,
  );
  await createAndLoad(
    'mip',
    { mappings: { properties: { name: { type: 'keyword' }, vector: vector('max_inner_product') } } },
    docs.map(({ name, vector }) => ({ name, vector })),
  );
});
afterAll(async () => {
  await node?.stop();
});

const search = (index: string, body: unknown, params = '') =>
  http(node.url, 'POST', `/${index}/_search${params}`, body);
const ids = (r: { json: { hits: { hits: { _id: string }[] } } }) => r.json.hits.hits.map((h) => h._id);

describe('dense_vector fields and knn search', () => {
  it('finds the k nearest across shards, alone, with several fields, and with a query', async () => {
    const knn = { field: 'vector', query_vector: Q, k: 2, num_candidates: 3 };
    const only = await search('vec', { fields: ['name'], knn });
    expect(only.status).toBe(200);
    expect(ids(only)).toEqual(['2', '3']);
    expect(only.json.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(only.json.hits.hits[0].fields.name).toEqual(['moose.jpg']);
    // l2_norm scores 1 / (1 + d²): moose is at distance √109.
    expect(only.json.hits.hits[0]._score).toBeCloseTo(1 / 110, 6);

    const multi = await search('vec', {
      knn: [
        knn,
        { field: 'another_vector', query_vector: [-0.5, 11.0, 0, 12, 111.0], k: 2, num_candidates: 3 },
      ],
    });
    expect(ids(multi)).toEqual(['3', '2']);

    const withQuery = await search('vec', { knn, query: { term: { name: 'cow.jpg' } } });
    expect(ids(withQuery)).toEqual(['1', '2', '3']);
    expect(withQuery.json.hits.total.value).toBe(3);
  });

  it('filters before choosing the neighbours, and keeps only docs within `similarity`', async () => {
    const base = { field: 'vector', query_vector: Q, k: 2, num_candidates: 3 };
    const one = await search('vec', { knn: { ...base, filter: { term: { name: 'rabbit.jpg' } } } });
    expect(ids(one)).toEqual(['3']);
    expect(one.json.hits.total.value).toBe(1);
    const none = await search('vec', {
      knn: { ...base, filter: [{ term: { name: 'rabbit.jpg' } }, { term: { _id: '2' } }] },
    });
    expect(none.json.hits.total.value).toBe(0);
    const near = await search('vec', { knn: { ...base, k: 3, similarity: 11 } });
    expect(ids(near)).toEqual(['2']);
  });

  it('scores max_inner_product as Elasticsearch does', async () => {
    const r = await search('mip', { knn: { field: 'vector', query_vector: Q, k: 3, num_candidates: 3 } });
    expect(ids(r)).toEqual(['1', '3', '2']);
    const scores = r.json.hits.hits.map((h: { _score: number }) => h._score);
    expect(scores[0]).toBeCloseTo(58694.902, 1);
    expect(scores[1]).toBeCloseTo(34702.79, 1);
    expect(scores[2]).toBeCloseTo(33686.29, 1);
  });

  it('runs the knn query clause: k per shard, size on top', async () => {
    const r = await search('mip', { query: { knn: { field: 'vector', query_vector: Q, k: 2 } }, size: 1 });
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(2);
    expect(ids(r)).toEqual(['1']);
    const inBool = await search('vec', {
      query: {
        bool: {
          must: [{ term: { name: 'moose.jpg' } }, { knn: { field: 'vector', query_vector: Q, k: 3 } }],
        },
      },
    });
    expect(ids(inBool)).toEqual(['2']);
  });

  it('checks vectors at index time', async () => {
    const dims = await http(node.url, 'PUT', '/vec/_doc/bad', { vector: [1, 2, 3] });
    expect(dims.status).toBe(400);
    expect(dims.json.error.type).toBe('document_parsing_exception');
    expect(JSON.stringify(dims.json.error)).toContain(
      'different number of dimensions [3] than defined in the mapping [5]',
    );
    const created = await http(node.url, 'PUT', '/cos', {
      mappings: { properties: { v: { type: 'dense_vector', dims: 2, similarity: 'cosine' } } },
    });
    expect(created.status).toBe(200);
    const zero = await http(node.url, 'PUT', '/cos/_doc/1', { v: [0, 0] });
    expect(zero.status).toBe(400);
    expect(JSON.stringify(zero.json.error)).toContain('does not support vectors with zero magnitude');
    const mapping = await http(node.url, 'GET', '/cos/_mapping');
    expect(mapping.json.cos.mappings.properties.v).toMatchObject({
      type: 'dense_vector',
      dims: 2,
      similarity: 'cosine',
    });
    const badDims = await http(node.url, 'PUT', '/bad_dims', {
      mappings: { properties: { v: { type: 'dense_vector', dims: 5000 } } },
    });
    expect(badDims.status).toBe(400);
  });

  it('answers bad requests with Elasticsearch’s errors', async () => {
    const knn = { field: 'vector', query_vector: Q, k: 2, num_candidates: 3 };
    const dims = await search('vec', { knn: { ...knn, query_vector: [1, 2] } });
    expect(dims.status).toBe(400);
    expect(dims.json.error.root_cause[0].type).toBe('query_shard_exception');
    expect(dims.json.error.root_cause[0].reason).toContain('different number of dimensions [2]');
    const fewer = await search('vec', { knn: { ...knn, k: 5 } });
    expect(fewer.status).toBe(400);
    expect(JSON.stringify(fewer.json.error)).toContain('[num_candidates] cannot be less than [k]');
    const type = await search('vec', { knn }, '?search_type=query_then_fetch');
    expect(type.status).toBe(400);
    expect(type.json.error.root_cause[0].reason).toBe(
      'cannot set [search_type] when using [knn] search, since the search type is determined automatically',
    );
    const term = await search('vec', { query: { term: { vector: 1 } } });
    expect(term.status).toBe(400);
    expect(term.json.error.root_cause[0].reason).toContain(
      "Field [vector] of type [dense_vector] doesn't support term queries",
    );
    const sort = await search('vec', { sort: ['vector'] });
    expect(sort.status).toBe(400);
    const missing = await search('vec', { knn: { ...knn, field: 'nope' } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.root_cause[0].reason).toBe(
      'failed to create query: field [nope] does not exist in the mapping',
    );
    const notVector = await search('vec', { knn: { ...knn, field: 'name' } });
    expect(notVector.status).toBe(400);
  });

  it('gives scripts the vector functions and the field’s vector', async () => {
    const moose = [-0.5, 100.0, -13, 14.8, -156.0];
    const dot = moose.reduce((a, x, i) => a + x * Q[i]!, 0);
    const norm = (v: number[]) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
    const scored = async (source: string) => {
      const r = await search('vec', {
        query: {
          script_score: {
            query: { term: { name: 'moose.jpg' } },
            script: { source, params: { q: Q } },
          },
        },
      });
      expect(r.status).toBe(200);
      return r.json.hits.hits[0]._score as number;
    };
    expect(await scored("cosineSimilarity(params.q, 'vector') + 1.0")).toBeCloseTo(
      dot / (norm(moose) * norm(Q)) + 1,
      5,
    );
    expect(await scored("1 / (1 + l2norm(params.q, 'vector'))")).toBeCloseTo(1 / (1 + Math.sqrt(109)), 5);
    expect(await scored("l1norm(params.q, doc['vector'])")).toBeCloseTo(13, 4);
    expect(await scored("doc['vector'].magnitude")).toBeCloseTo(norm(moose), 3);
    expect(await scored("doc['vector'].vectorValue[1]")).toBeCloseTo(100, 5);
    const bad = await search('mip', {
      query: { script_score: { query: { match_all: {} }, script: { source: "doc['vector'].value" } } },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.error)).toContain("use 'vectorValue' or 'magnitude' instead");
  });
});
