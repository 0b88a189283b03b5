/**
 * Index metadata in the published cluster state of three real node processes: an index
 * created, mapped, re-set, aliased and deleted through any node is a change the master makes
 * and publishes, and every node then shows the same metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreedMaster, eventually, startTestCluster, type TestCluster } from '../support/cluster-process.ts';
import { http } from '../support/http.ts';

let cluster: TestCluster;
/** A node that is not the master, and the master. */
let follower: string;
let master: string;

beforeAll(async () => {
  cluster = await startTestCluster({ nodes: 3 });
  const masterId = await agreedMaster(cluster.nodes, 3);
  const nodes = (await http(cluster.nodes[0]!.url, 'GET', '/_nodes/_local')).json;
  const ids = await Promise.all(
    cluster.nodes.map(async (n) => Object.keys((await http(n.url, 'GET', '/_nodes/_local')).json.nodes)[0]),
  );
  expect(nodes.nodes).toBeDefined();
  master = cluster.nodes[ids.indexOf(masterId)]!.url;
  follower = cluster.nodes.find((_, i) => ids[i] !== masterId)!.url;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Every node's `metadata.indices[index]` from its own applied state. */
async function everyNodesMetadata(index: string): Promise<Record<string, unknown>[]> {
  return Promise.all(
    cluster.nodes.map(
      async (n) =>
        (await http(n.url, 'GET', `/_cluster/state/metadata/${index}`)).json.metadata.indices[index],
    ),
  );
}

describe('index metadata in the published cluster state', () => {
  it('creates an index through a node that is not the master, and every node shows it', async () => {
    const r = await http(follower, 'PUT', '/books', {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { properties: { title: { type: 'text' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'books' });
    // The node that asked answers once it has the index; the others follow the same state.
    const metas = await eventually('every node to know [books]', async () => {
      const m = await everyNodesMetadata('books');
      return m.every((x) => x !== undefined) ? m : undefined;
    });
    const uuids = new Set(
      metas.map((m) => (m as { settings: { index: { uuid: string } } }).settings.index.uuid),
    );
    expect(uuids.size).toBe(1);
    expect(metas[0]).toMatchObject({
      state: 'open',
      settings: { index: { number_of_shards: '2', number_of_replicas: '0', provided_name: 'books' } },
      mappings: { _doc: { properties: { title: { type: 'text' } } } },
    });
    // A second create of the same name, through another node, is refused by the master.
    const again = await http(master, 'PUT', '/books');
    expect(again.status).toBe(400);
    expect(again.json.error.type).toBe('resource_already_exists_exception');
  });

  it('publishes mapping, settings and alias changes made through any node', async () => {
    const [a, b, c] = cluster.nodes.map((n) => n.url) as [string, string, string];
    expect(
      (await http(a, 'PUT', '/books/_mapping', { properties: { year: { type: 'integer' } } })).status,
    ).toBe(200);
    expect((await http(b, 'PUT', '/books/_settings', { index: { refresh_interval: '5s' } })).status).toBe(
      200,
    );
    const aliases = await http(c, 'POST', '/_aliases', {
      actions: [{ add: { index: 'books', alias: 'library', is_write_index: true } }],
    });
    expect(aliases.status).toBe(200);
    await eventually('every node to apply the three changes', async () => {
      const metas = await everyNodesMetadata('books');
      return metas.every((m) => {
        const x = m as {
          mappings: { _doc: { properties: Record<string, unknown> } };
          settings: { index: { refresh_interval?: string } };
          aliases: string[];
        };
        return (
          'year' in x.mappings._doc.properties &&
          x.settings.index.refresh_interval === '5s' &&
          x.aliases.includes('library')
        );
      })
        ? true
        : undefined;
    });
    // The APIs that read metadata answer the same on every node.
    for (const n of cluster.nodes) {
      const mapping = (await http(n.url, 'GET', '/library/_mapping')).json;
      expect(mapping.books.mappings.properties).toEqual({
        title: { type: 'text' },
        year: { type: 'integer' },
      });
      const alias = (await http(n.url, 'GET', '/_alias/library')).json;
      expect(alias).toEqual({ books: { aliases: { library: { is_write_index: true } } } });
    }
    // A bad change is refused whole, by the master's validation, with Elasticsearch's error.
    const bad = await http(c, 'PUT', '/books/_settings', { index: { number_of_shards: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
  });

  it('takes a new field of a document indexed through any node into the published mapping', async () => {
    const r = await http(follower, 'PUT', '/books/_doc/1?refresh=true', { title: 'Dune', pages: 412 });
    expect(r.status).toBe(201);
    await eventually('every node to map [pages]', async () => {
      const metas = await everyNodesMetadata('books');
      return metas.every(
        (m) => 'pages' in (m as { mappings: { _doc: { properties: object } } }).mappings._doc.properties,
      )
        ? true
        : undefined;
    });
  });

  it('deletes an index through any node, everywhere', async () => {
    expect((await http(master, 'PUT', '/scratch', { settings: { number_of_replicas: 0 } })).status).toBe(200);
    const del = await http(follower, 'DELETE', '/scratch');
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ acknowledged: true });
    expect((await http(follower, 'GET', '/scratch')).status).toBe(404);
    await eventually('every node to forget [scratch]', async () => {
      const metas = await everyNodesMetadata('scratch');
      return metas.every((m) => m === undefined) ? true : undefined;
    });
    const missing = await http(master, 'DELETE', '/scratch');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });
});
