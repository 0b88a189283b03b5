/**
 * Aliases with a `filter`, `routing`, `index_routing` or `search_routing`, as Elasticsearch
 * applies them: reads through a filtered alias see only the documents its filter matches
 * (search, count, scroll, PIT), writes through a routing alias are routed by it, and searches
 * through it read only the routed shards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRoutingNumShards, shardForRouting } from '../../packages/protocol/src/index.ts';
import { http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const SHARDS = 2;
const routingNumShards = defaultRoutingNumShards(SHARDS);
const shardOf = (routing: string) => shardForRouting(routing, SHARDS, routingNumShards);

/** Documents of two tenants, spread over both shards of `docs` by their ids. */
const DOCS = Array.from({ length: 24 }, (_, i) => ({
  id: `d${i}`,
  tenant: i % 3 === 0 ? 'acme' : 'globex',
  n: i,
  text: i % 2 === 0 ? 'red fox' : 'red red hound',
}));

// biome-ignore lint/suspicious/noExplicitAny: response shapes
const ids = (r: { json: any }) => (r.json.hits.hits as { _id: string }[]).map((h) => h._id).sort();
const expected = (tenants: string[]) =>
  DOCS.filter((d) => tenants.includes(d.tenant))
    .map((d) => d.id)
    .sort();

beforeAll(async () => {
  node = await startTestNode();
  const created = await http(node.url, 'PUT', '/docs', {
    settings: { number_of_shards: SHARDS, number_of_replicas: 0 },
    mappings: { properties: { tenant: { type: 'keyword' }, n: { type: 'long' }, text: { type: 'text' } } },
  });
  expect(created.status).toBe(200);
  const lines = DOCS.flatMap(({ id, ...doc }) => [{ index: { _id: id } }, doc]);
  const bulk = await http(node.url, 'POST', '/docs/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
  const aliases = await http(node.url, 'POST', '/_aliases', {
    actions: [
      { add: { index: 'docs', alias: 'acme', filter: { term: { tenant: 'acme' } } } },
      { add: { index: 'docs', alias: 'globex', filter: { term: { tenant: 'globex' } } } },
      { add: { index: 'docs', alias: 'everyone' } },
    ],
  });
  expect(aliases.status).toBe(200);
  // Both tenants must live on both shards for the tests to mean anything.
  const perShard = await http(node.url, 'GET', '/_cat/shards/docs?format=json&h=shard,docs');
  expect(perShard.json.map((r: { docs: string }) => Number(r.docs) > 0)).toEqual([true, true]);
});
afterAll(async () => {
  await node?.stop();
});

describe('reads through a filtered alias', () => {
  it('_search returns exactly the documents of the tenant, as a term query on the index does', async () => {
    for (const tenant of ['acme', 'globex']) {
      const viaAlias = await http(node.url, 'POST', `/${tenant}/_search`, { size: 100 });
      expect(viaAlias.status).toBe(200);
      expect(viaAlias.json._shards.total).toBe(SHARDS);
      const direct = await http(node.url, 'POST', '/docs/_search', {
        size: 100,
        query: { term: { tenant } },
      });
      expect(ids(viaAlias)).toEqual(expected([tenant]));
      expect(ids(viaAlias)).toEqual(ids(direct));
      expect(viaAlias.json.hits.total).toEqual({ value: expected([tenant]).length, relation: 'eq' });
    }
  });

  it('does not change scores: the filter is a non-scoring clause beside the query', async () => {
    const query = { match: { text: 'red hound' } };
    const viaAlias = await http(node.url, 'POST', '/acme/_search', { size: 100, query });
    const direct = await http(node.url, 'POST', '/docs/_search', {
      size: 100,
      query: { bool: { must: [query], filter: [{ term: { tenant: 'acme' } }] } },
    });
    expect(viaAlias.status).toBe(200);
    const scored = (r: typeof direct) =>
      (r.json.hits.hits as { _id: string; _score: number }[]).map((h) => [h._id, h._score]);
    expect(scored(viaAlias)).toEqual(scored(direct));
    expect(viaAlias.json.hits.max_score).toBe(direct.json.hits.max_score);
  });

  it('aggregations see only the documents of the alias', async () => {
    const r = await http(node.url, 'POST', '/acme/_search', {
      size: 0,
      aggs: { tenants: { terms: { field: 'tenant' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.tenants.buckets).toEqual([
      { key: 'acme', doc_count: expected(['acme']).length },
    ]);
  });

  it('_count counts only the documents of the alias', async () => {
    const r = await http(node.url, 'GET', '/acme/_count');
    expect(r.status).toBe(200);
    expect(r.json.count).toBe(expected(['acme']).length);
    const q = await http(node.url, 'POST', '/globex/_count', { query: { range: { n: { lt: 10 } } } });
    expect(q.json.count).toBe(DOCS.filter((d) => d.tenant === 'globex' && d.n < 10).length);
  });

  it('a scroll through the alias walks only its documents', async () => {
    const seen: string[] = [];
    let r = await http(node.url, 'POST', '/globex/_search?scroll=1m', { size: 5, sort: ['n'] });
    expect(r.status).toBe(200);
    expect(r.json.hits.total.value).toBe(expected(['globex']).length);
    while (r.json.hits.hits.length > 0) {
      seen.push(...r.json.hits.hits.map((h: { _id: string }) => h._id));
      r = await http(node.url, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: r.json._scroll_id });
      expect(r.status).toBe(200);
    }
    expect(seen.sort()).toEqual(expected(['globex']));
    await http(node.url, 'DELETE', '/_search/scroll', { scroll_id: r.json._scroll_id });
  });

  it('a PIT opened through the alias keeps its filter for every search on it', async () => {
    const opened = await http(node.url, 'POST', '/acme/_pit?keep_alive=1m');
    expect(opened.status).toBe(200);
    const id = opened.json.id;
    const r = await http(node.url, 'POST', '/_search', { size: 100, pit: { id } });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(expected(['acme']));
    const q = await http(node.url, 'POST', '/_search', {
      size: 100,
      pit: { id },
      query: { range: { n: { gte: 12 } } },
    });
    expect(ids(q)).toEqual(
      DOCS.filter((d) => d.tenant === 'acme' && d.n >= 12)
        .map((d) => d.id)
        .sort(),
    );
    // The filter recorded at open time stays, even when the alias changes afterwards.
    await http(node.url, 'POST', '/_aliases', {
      actions: [{ add: { index: 'docs', alias: 'acme', filter: { term: { tenant: 'globex' } } } }],
    });
    try {
      const again = await http(node.url, 'POST', '/_search', { size: 100, pit: { id } });
      expect(ids(again)).toEqual(expected(['acme']));
      const now = await http(node.url, 'POST', '/acme/_search', { size: 100 });
      expect(ids(now)).toEqual(expected(['globex']));
    } finally {
      await http(node.url, 'POST', '/_aliases', {
        actions: [{ add: { index: 'docs', alias: 'acme', filter: { term: { tenant: 'acme' } } } }],
      });
      await http(node.url, 'DELETE', '/_pit', { id });
    }
  });

  it('two filtered aliases of one index match what either filter matches', async () => {
    const r = await http(node.url, 'POST', '/acme,globex/_search', { size: 100 });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(expected(['acme', 'globex']));
    const c = await http(node.url, 'POST', '/acme,globex/_count', { query: { range: { n: { lt: 6 } } } });
    expect(c.json.count).toBe(6);
  });

  it('an index reached by its own name too is not filtered', async () => {
    for (const target of ['acme,docs', 'acme,do*', 'acme,everyone', '_all', '*']) {
      const r = await http(node.url, 'POST', `/${target}/_search`, { size: 100 });
      expect(r.status).toBe(200);
      expect(ids(r)).toEqual(expected(['acme', 'globex']));
    }
  });

  it('a wildcard that matches the alias name goes through its filter', async () => {
    const r = await http(node.url, 'POST', '/acm*/_search', { size: 100 });
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(expected(['acme']));
  });

  it('a single-document GET through a filtered alias is not filtered', async () => {
    const globexDoc = DOCS.find((d) => d.tenant === 'globex')!;
    const r = await http(node.url, 'GET', `/acme/_doc/${globexDoc.id}`);
    expect(r.status).toBe(200);
    expect(r.json.found).toBe(true);
    expect(r.json._index).toBe('docs');
  });
});

describe('validation of an alias filter', () => {
  it('refuses an unknown query type, applying nothing', async () => {
    const r = await http(node.url, 'POST', '/_aliases', {
      actions: [
        { add: { index: 'docs', alias: 'fine' } },
        { add: { index: 'docs', alias: 'broken', filter: { no_such_query: { tenant: 'acme' } } } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect(r.json.error.reason).toBe('failed to parse filter for alias [broken]');
    expect(r.json.error.caused_by.type).toBe('parsing_exception');
    expect(r.json.error.caused_by.reason).toContain('unknown query [no_such_query]');
    const got = await http(node.url, 'GET', '/_alias/fine,broken');
    expect(got.status).toBe(404);
  });

  it('refuses a filter that does not parse against the index mapping', async () => {
    const r = await http(node.url, 'PUT', '/docs/_alias/bad_number', {
      filter: { term: { n: 'not a number' } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect(r.json.error.reason).toBe('failed to parse filter for alias [bad_number]');
    expect(r.json.error.caused_by.type).toBe('number_format_exception');
    expect((await http(node.url, 'HEAD', '/_alias/bad_number')).status).toBe(404);
  });

  it('refuses an index_routing with several values', async () => {
    const r = await http(node.url, 'PUT', '/docs/_alias/two_routings', { index_routing: 'a,b' });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect(r.json.error.reason).toBe(
      'alias [two_routings] has several index routing values associated with it',
    );
  });

  it('refuses an invalid filter in the aliases of a new index, creating nothing', async () => {
    const r = await http(node.url, 'PUT', '/other', {
      mappings: { properties: { n: { type: 'long' } } },
      aliases: { other_alias: { filter: { term: { n: 'x' } } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('failed to parse filter for alias [other_alias]');
    expect((await http(node.url, 'HEAD', '/other')).status).toBe(404);
  });
});

describe('routing aliases', () => {
  const ROUTING = 'r1';
  const routedShard = shardOf(ROUTING);

  beforeAll(async () => {
    const r = await http(node.url, 'PUT', '/routed', {
      settings: { number_of_shards: SHARDS, number_of_replicas: 0 },
      aliases: { by_r1: { routing: ROUTING }, by_r1_search: { search_routing: `${ROUTING},zz` } },
    });
    expect(r.status).toBe(200);
  });

  it('documents written through the alias go to the routed shard', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => [{ index: { _id: `b${i}` } }, { n: i }]).flat();
    const bulk = await http(node.url, 'POST', '/by_r1/_bulk?refresh=true', ndjson(lines));
    expect(bulk.json.errors).toBe(false);
    const one = await http(node.url, 'PUT', '/by_r1/_doc/single?refresh=true', { n: 100 });
    expect(one.status).toBe(201);
    const created = await http(node.url, 'PUT', '/by_r1/_create/created?refresh=true', { n: 101 });
    expect(created.status).toBe(201);
    const shards = await http(node.url, 'GET', '/_cat/shards/routed?format=json&h=shard,docs');
    const docsOf = (shard: number) =>
      Number(shards.json.find((r: { shard: string }) => Number(r.shard) === shard).docs);
    expect(docsOf(routedShard)).toBe(12);
    expect(docsOf(1 - routedShard)).toBe(0);
    const onShard = await http(node.url, 'GET', `/routed/_search?routing=${ROUTING}&size=100`);
    expect(onShard.json.hits.total.value).toBe(12);
    // Stored with the alias's routing: a GET on the index must name it.
    const got = await http(node.url, 'GET', `/routed/_doc/single?routing=${ROUTING}`);
    expect(got.json.found).toBe(true);
    expect(got.json._routing).toBe(ROUTING);
  });

  it('GET, update and delete through the alias use its routing', async () => {
    const got = await http(node.url, 'GET', '/by_r1/_doc/b3');
    expect(got.status).toBe(200);
    expect(got.json.found).toBe(true);
    const updated = await http(node.url, 'POST', '/by_r1/_update/b3?refresh=true', { doc: { n: 33 } });
    expect(updated.status).toBe(200);
    expect(updated.json.result).toBe('updated');
    const deleted = await http(node.url, 'DELETE', '/by_r1/_doc/b4?refresh=true');
    expect(deleted.status).toBe(200);
    expect(deleted.json.result).toBe('deleted');
  });

  it('searches through the alias read only the routed shard', async () => {
    const r = await http(node.url, 'GET', '/by_r1/_search?size=100');
    expect(r.status).toBe(200);
    expect(r.json._shards.total).toBe(1);
    expect(r.json.hits.total.value).toBe(11);
    const c = await http(node.url, 'GET', '/by_r1/_count');
    expect(c.json._shards.total).toBe(1);
    expect(c.json.count).toBe(11);
    const pit = await http(node.url, 'POST', '/by_r1/_pit?keep_alive=1m');
    expect(pit.json._shards.total).toBe(1);
    await http(node.url, 'DELETE', '/_pit', { id: pit.json.id });
  });

  it('search_routing values are intersected with ?routing=', async () => {
    const both = await http(node.url, 'GET', '/by_r1_search/_search');
    const expectedShards = new Set([ROUTING, 'zz'].map(shardOf)).size;
    expect(both.json._shards.total).toBe(expectedShards);
    const narrowed = await http(node.url, 'GET', `/by_r1_search/_search?routing=${ROUTING},other`);
    expect(narrowed.json._shards.total).toBe(1);
    expect(narrowed.json.hits.total.value).toBe(11);
  });

  it('the index reached by its own name too is searched on every shard', async () => {
    const r = await http(node.url, 'GET', '/by_r1,routed/_search');
    expect(r.json._shards.total).toBe(SHARDS);
  });

  it('a request routing that differs from the alias index routing is refused', async () => {
    const msg = `Alias [by_r1] has index routing associated with it [${ROUTING}], and was provided with routing value [other], rejecting operation`;
    const put = await http(node.url, 'PUT', '/by_r1/_doc/x?routing=other', { n: 1 });
    expect(put.status).toBe(400);
    expect(put.json.error.type).toBe('illegal_argument_exception');
    expect(put.json.error.reason).toBe(msg);
    const get = await http(node.url, 'GET', '/by_r1/_doc/b1?routing=other');
    expect(get.status).toBe(400);
    expect(get.json.error.reason).toBe(msg);
    const del = await http(node.url, 'DELETE', '/by_r1/_doc/b1?routing=other');
    expect(del.status).toBe(400);
    const bulk = await http(
      node.url,
      'POST',
      '/_bulk',
      ndjson([{ index: { _index: 'by_r1', _id: 'y', routing: 'other' } }, { n: 1 }]),
    );
    expect(bulk.json.errors).toBe(true);
    expect(bulk.json.items[0].index.status).toBe(400);
    expect(bulk.json.items[0].index.error.reason).toBe(msg);
    // The same routing as the alias's is accepted.
    const same = await http(node.url, 'PUT', `/by_r1/_doc/z?routing=${ROUTING}`, { n: 1 });
    expect(same.status).toBe(201);
  });
});
