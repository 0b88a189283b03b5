// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let client: Client;

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
});

describe('the official Elasticsearch client (7.13)', () => {
  it('creates an index, bulk-loads with the helper, searches, pages and sorts', async () => {
    await client.indices.create({
      index: 'people',
      body: {
        settings: { number_of_shards: 2 },
        mappings: {
          properties: { name: { type: 'keyword' }, age: { type: 'integer' }, bio: { type: 'text' } },
        },
      },
    });
    const people = Array.from({ length: 250 }, (_, i) => ({
      name: `person-${String(i).padStart(3, '0')}`,
      age: 20 + (i % 50),
      bio: i % 10 === 0 ? 'likes search engines' : 'likes gardening',
    }));
    const stats = await client.helpers.bulk({
      datasource: people,
      onDocument: (doc: (typeof people)[number]) => ({ index: { _index: 'people', _id: doc.name } }),
      refreshOnCompletion: 'people',
    });
    expect(stats.successful).toBe(250);
    expect(stats.failed).toBe(0);

    const { body: count } = await client.count({ index: 'people' });
    expect(count.count).toBe(250);

    const { body: page } = await client.search({
      index: 'people',
      body: {
        query: { match: { bio: 'search' } },
        sort: [{ age: 'desc' }, { name: 'asc' }],
        from: 2,
        size: 5,
      },
    });
    expect(page.hits.total).toEqual({ value: 25, relation: 'eq' });
    const expected = people
      .filter((p) => p.bio.includes('search'))
      .sort((a, b) => b.age - a.age || a.name.localeCompare(b.name))
      .slice(2, 7);
    expect(page.hits.hits.map((h: { _id: string }) => h._id)).toEqual(expected.map((p) => p.name));
    expect(page.hits.hits[0].sort).toEqual([expected[0]!.age, expected[0]!.name]);

    const { body: doc } = await client.get({ index: 'people', id: 'person-007' });
    expect(doc._source).toEqual(people[7]);
  });

  it('surfaces Elasticsearch errors as ResponseError with the body', async () => {
    await expect(client.search({ index: 'missing-index' })).rejects.toMatchObject({
      statusCode: 404,
      body: { error: { type: 'index_not_found_exception' } },
    });
    await expect(client.indices.create({ index: 'people' })).rejects.toMatchObject({
      statusCode: 400,
      body: { error: { type: 'resource_already_exists_exception' } },
    });
  });
});
