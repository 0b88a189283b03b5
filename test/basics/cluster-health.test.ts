import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  // One node: `green` has no replicas, `yellow` keeps its two replicas unassigned.
  await http(node.url, 'PUT', '/health-green', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
  await http(node.url, 'PUT', '/health-yellow', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
});
afterAll(async () => {
  await node?.stop();
});

describe('cluster health', () => {
  it('counts only the named indices and keeps the response field order', async () => {
    const r = await http(node.url, 'GET', '/_cluster/health/health-green');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([
      'cluster_name',
      'status',
      'timed_out',
      'number_of_nodes',
      'number_of_data_nodes',
      'active_primary_shards',
      'active_shards',
      'relocating_shards',
      'initializing_shards',
      'unassigned_shards',
      'unassigned_primary_shards',
      'delayed_unassigned_shards',
      'number_of_pending_tasks',
      'number_of_in_flight_fetch',
      'task_max_waiting_in_queue_millis',
      'active_shards_percent_as_number',
    ]);
    expect(r.json).toMatchObject({
      status: 'green',
      active_primary_shards: 2,
      active_shards: 2,
      unassigned_shards: 0,
    });
    const both = await http(node.url, 'GET', '/_cluster/health/health-*');
    expect(both.json).toMatchObject({ status: 'yellow', active_shards: 3, unassigned_shards: 1 });
  });

  it('adds per-index and per-shard health with level=indices and level=shards', async () => {
    const cluster = await http(node.url, 'GET', '/_cluster/health');
    expect(cluster.json.indices).toBeUndefined();
    const indices = await http(node.url, 'GET', '/_cluster/health/health-yellow?level=indices');
    expect(indices.json.indices).toEqual({
      'health-yellow': {
        status: 'yellow',
        number_of_shards: 1,
        number_of_replicas: 1,
        active_primary_shards: 1,
        active_shards: 1,
        relocating_shards: 0,
        initializing_shards: 0,
        unassigned_shards: 1,
        unassigned_primary_shards: 0,
      },
    });
    // The level is matched in any case; anything else is Elasticsearch's 400.
    const upper = await http(node.url, 'GET', '/_cluster/health/health-yellow?level=INDICES');
    expect(Object.keys(upper.json.indices)).toEqual(['health-yellow']);
    const bad = await http(node.url, 'GET', '/_cluster/health?level=index');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'level parameter must be one of [cluster] or [indices] or [shards] but was [index]',
    });
    const shards = await http(node.url, 'GET', '/_cluster/health/health-green?level=shards');
    expect(Object.keys(shards.json.indices['health-green'].shards)).toEqual(['0', '1']);
    expect(shards.json.indices['health-green'].shards['0']).toEqual({
      status: 'green',
      primary_active: true,
      active_shards: 1,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 0,
      unassigned_primary_shards: 0,
    });
  });

  it('reads timeout as a time value and answers 408 with timed_out when the wait fails', async () => {
    const started = Date.now();
    const r = await http(node.url, 'GET', '/_cluster/health?wait_for_status=green&timeout=200ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.status).toBe(408);
    expect(r.json).toMatchObject({ status: 'yellow', timed_out: true });
    const ok = await http(
      node.url,
      'GET',
      '/_cluster/health/health-green?wait_for_status=green&timeout=200ms',
    );
    expect(ok.status).toBe(200);
    expect(ok.json.timed_out).toBe(false);
    const all = await http(
      node.url,
      'GET',
      '/_cluster/health/health-yellow?wait_for_active_shards=all&timeout=1ms',
    );
    expect(all.status).toBe(408);
    expect(all.json.timed_out).toBe(true);
    const relocating = await http(
      node.url,
      'GET',
      '/_cluster/health?wait_for_no_relocating_shards=true&timeout=1s',
    );
    expect(relocating.status).toBe(200);
  });

  it('waits for a missing index and then answers red and timed out', async () => {
    const r = await http(node.url, 'GET', '/_cluster/health/no-such-index?timeout=100ms');
    expect(r.status).toBe(408);
    expect(r.json).toMatchObject({ status: 'red', timed_out: true, active_shards: 0, unassigned_shards: 0 });
    const mixed = await http(node.url, 'GET', '/_cluster/health/health-green,no-such-index?timeout=100ms');
    expect(mixed.status).toBe(408);
    expect(mixed.json).toMatchObject({ status: 'red', timed_out: true, active_shards: 2 });
    // A wildcard that matches nothing is not a missing index.
    const wildcard = await http(node.url, 'GET', '/_cluster/health/nothing-*?timeout=100ms');
    expect(wildcard.status).toBe(200);
    expect(wildcard.json).toMatchObject({ status: 'green', timed_out: false, active_shards: 0 });
  });

  it('reads wait_for_status in any case, refuses an unknown status and waits for a node count', async () => {
    const upper = await http(
      node.url,
      'GET',
      '/_cluster/health/health-green?wait_for_status=GREEN&timeout=1s',
    );
    expect(upper.status).toBe(200);
    const bad = await http(node.url, 'GET', '/_cluster/health?wait_for_status=purple');
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
    expect(bad.json.error.reason).toBe(
      'No enum constant org.elasticsearch.cluster.health.ClusterHealthStatus.PURPLE',
    );
    for (const spec of ['1', '>=1', 'ge(1)', '<2', 'le(1)']) {
      const r = await http(
        node.url,
        'GET',
        `/_cluster/health?wait_for_nodes=${encodeURIComponent(spec)}&timeout=1s`,
      );
      expect(r.status, spec).toBe(200);
    }
    const two = await http(node.url, 'GET', '/_cluster/health?wait_for_nodes=2&timeout=50ms');
    expect(two.status).toBe(408);
    expect(two.json.timed_out).toBe(true);
  });
});
