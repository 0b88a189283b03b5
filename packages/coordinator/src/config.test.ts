import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadClusterConfig, nodeConfig } from './config.ts';

function configFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'shoal-config-')), 'cluster.config.json');
  writeFileSync(path, text);
  return path;
}

describe('cluster config', () => {
  it('reads nodes with defaults, ports and data paths relative to the file', () => {
    const path = configFile(
      JSON.stringify({
        cluster_name: 'c',
        defaults: { host: '127.0.0.1', shard_workers: 3 },
        nodes: [
          { name: 'a', http_port: 9201 },
          { name: 'b', shard_worker_scheduling: 'normal' },
        ],
        settings: { 'action.auto_create_index': false },
      }),
    );
    const cluster = loadClusterConfig(path);
    expect(cluster.clusterName).toBe('c');
    expect(cluster.settings).toEqual({ 'action.auto_create_index': 'false' });
    expect(cluster.nodes.map((n) => [n.name, n.httpPort, n.transportPort, n.shardWorkers])).toEqual([
      ['a', 9201, 9300, 3],
      ['b', 9201, 9301, 3],
    ]);
    expect(cluster.nodes.map((n) => n.shardWorkerScheduling)).toEqual(['batch', 'normal']);
    expect(cluster.nodes[1]!.dataPath).toBe(join(path, '..', 'data', 'b'));
    expect(nodeConfig(cluster, { name: 'b', httpPort: '0', shardWorkers: '2' })).toMatchObject({
      name: 'b',
      httpPort: 0,
      shardWorkers: 2,
    });
  });

  it('says what is wrong with a file, a flag or a node name', () => {
    expect(() => loadClusterConfig('/nonexistent/cluster.config.json')).toThrow(
      /cannot read the cluster config \[\/nonexistent\/cluster.config.json\]/,
    );
    expect(() => loadClusterConfig(configFile('{'))).toThrow(/is not valid JSON/);
    expect(() => loadClusterConfig(configFile('{"nodes":[{"http_port":"9200"}]}'))).toThrow(
      /nodes\.0\.http_port: .*expected number/,
    );
    expect(() => loadClusterConfig(configFile('{"nodes":[{"prot":1}]}'))).toThrow(/Unrecognized key: "prot"/);
    expect(() => loadClusterConfig(configFile('{"nodes":[{"name":"x"},{"name":"x"}]}'))).toThrow(
      /names node \[x\] twice/,
    );
    const cluster = loadClusterConfig(configFile('{"nodes":[{"name":"a"}]}'));
    expect(() => nodeConfig(cluster, { name: 'z' })).toThrow(ConfigError);
    expect(() => nodeConfig(cluster, { name: 'z' })).toThrow('no node named [z]; it has [a]');
    expect(() => nodeConfig(cluster, { httpPort: '70000' })).toThrow(
      '--http-port must be a whole number from 0 to 65535, got [70000]',
    );
    expect(() => nodeConfig(cluster, { shardWorkers: 'two' })).toThrow('--workers must be a whole number');
    expect(() => loadClusterConfig(configFile('{"nodes":[{"shard_worker_scheduling":"fifo"}]}'))).toThrow(
      /nodes\.0\.shard_worker_scheduling: /,
    );
  });

  it('keeps 128 parsed searches unless a node entry or SHOAL_SEARCH_PARSE_CACHE says otherwise', () => {
    const cluster = loadClusterConfig(
      configFile('{"nodes":[{"name":"a"},{"name":"b","search_parse_cache":0}]}'),
    );
    expect(cluster.nodes.map((n) => n.searchParseCache)).toEqual([128, 0]);
    expect(() => loadClusterConfig(configFile('{"nodes":[{"search_parse_cache":-1}]}'))).toThrow(
      /nodes\.0\.search_parse_cache: /,
    );
    const saved = process.env.SHOAL_SEARCH_PARSE_CACHE;
    try {
      process.env.SHOAL_SEARCH_PARSE_CACHE = '16';
      expect(nodeConfig(cluster, { name: 'b' }).searchParseCache).toBe(16);
      process.env.SHOAL_SEARCH_PARSE_CACHE = 'many';
      expect(() => nodeConfig(cluster, {})).toThrow('SHOAL_SEARCH_PARSE_CACHE must be a whole number');
    } finally {
      if (saved === undefined) delete process.env.SHOAL_SEARCH_PARSE_CACHE;
      else process.env.SHOAL_SEARCH_PARSE_CACHE = saved;
    }
  });

  it('takes the shard worker scheduling policy from SHOAL_SHARD_WORKER_SCHEDULING', () => {
    const cluster = loadClusterConfig(configFile('{"nodes":[{"name":"a"}]}'));
    const saved = process.env.SHOAL_SHARD_WORKER_SCHEDULING;
    try {
      process.env.SHOAL_SHARD_WORKER_SCHEDULING = 'normal';
      expect(nodeConfig(cluster, {}).shardWorkerScheduling).toBe('normal');
      process.env.SHOAL_SHARD_WORKER_SCHEDULING = 'idle';
      expect(() => nodeConfig(cluster, {})).toThrow(
        'SHOAL_SHARD_WORKER_SCHEDULING must be one of [batch, normal], got [idle]',
      );
    } finally {
      if (saved === undefined) delete process.env.SHOAL_SHARD_WORKER_SCHEDULING;
      else process.env.SHOAL_SHARD_WORKER_SCHEDULING = saved;
    }
  });
});
