/**
 * `GET /_cluster/state` on a single node: metric and index filters with the indices options of
 * ClusterStateRequest (lenient, open indices), the coordination metadata, and the node APIs
 * of a cluster of one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  for (const index of ['test_one', 'test_two', 'other']) {
    const r = await http(node.url, 'PUT', `/${index}`, { settings: { number_of_shards: 2 } });
    expect(r.status).toBe(200);
  }
});

afterAll(async () => {
  await node?.stop();
});

describe('_cluster/state on a cluster of one', () => {
  it('names its master, its one node and a configuration of that node', async () => {
    const s = (await http(node.url, 'GET', '/_cluster/state')).json;
    const id = s.master_node;
    expect(typeof id).toBe('string');
    expect(Object.keys(s.nodes)).toEqual([id]);
    expect(s.cluster_uuid).toBe(s.metadata.cluster_uuid);
    expect(s.metadata.cluster_coordination).toEqual({
      term: expect.any(Number),
      last_committed_config: [id],
      last_accepted_config: [id],
      voting_config_exclusions: [],
    });
    // The node's own system indices (the security index) are listed too, as Elasticsearch lists them.
    expect(Object.keys(s.metadata.indices).sort()).toEqual(['.security-7', 'other', 'test_one', 'test_two']);
    expect(s.routing_table.indices.test_one.shards['1'][0]).toMatchObject({
      primary: true,
      state: 'STARTED',
      node: id,
    });
    expect((await http(node.url, 'GET', '/')).json.cluster_uuid).toBe(s.cluster_uuid);
  });

  it('returns only the metrics asked for, and leaves unknown ones out', async () => {
    const v = (await http(node.url, 'GET', '/_cluster/state/version,master_node')).json;
    expect(Object.keys(v).sort()).toEqual([
      'cluster_name',
      'cluster_uuid',
      'master_node',
      'state_uuid',
      'version',
    ]);
    const unknown = await http(node.url, 'GET', '/_cluster/state/foo');
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.json).sort()).toEqual(['cluster_name', 'cluster_uuid']);
  });

  it('filters indices by name and wildcard, leniently unless told otherwise', async () => {
    const some = (await http(node.url, 'GET', '/_cluster/state/metadata,routing_table/test*')).json;
    expect(Object.keys(some.metadata.indices).sort()).toEqual(['test_one', 'test_two']);
    expect(Object.keys(some.routing_table.indices).sort()).toEqual(['test_one', 'test_two']);
    const missing = await http(node.url, 'GET', '/_cluster/state/metadata/foobla');
    expect(missing.status).toBe(200);
    expect(missing.json.metadata.indices).toEqual({});
    const strict = await http(node.url, 'GET', '/_cluster/state/metadata/foobla?ignore_unavailable=false');
    expect(strict.status).toBe(404);
    expect(strict.json.error.type).toBe('index_not_found_exception');
    const none = await http(node.url, 'GET', '/_cluster/state/metadata/not_there*?allow_no_indices=false');
    expect(none.status).toBe(404);
  });

  it('lists itself in _cat/nodes, _cat/master and _nodes', async () => {
    const s = (await http(node.url, 'GET', '/_cluster/state/master_node')).json;
    const cat = (await http(node.url, 'GET', '/_cat/nodes?format=json&h=name,master,node.role')).json;
    expect(cat).toEqual([{ name: 'node-1', master: '*', 'node.role': 'dim' }]);
    const master = (await http(node.url, 'GET', '/_cat/master?format=json')).json;
    expect(master).toEqual([{ id: s.master_node, host: '127.0.0.1', ip: '127.0.0.1', node: 'node-1' }]);
    const info = (await http(node.url, 'GET', '/_nodes/_local/http')).json;
    expect(info._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(Object.values(info.nodes)[0]).toMatchObject({
      name: 'node-1',
      http: { publish_address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
    });
    expect((await http(node.url, 'GET', '/_nodes/nobody')).json._nodes.total).toBe(0);
  });
});
