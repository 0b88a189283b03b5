import { describe, expect, it } from 'vitest';
import { shardInfoJson } from './shard-info.ts';

describe('_shards of a write response', () => {
  it('counts the copies, and lists each failed replica as Elasticsearch does', () => {
    expect(shardInfoJson({ total: 2, successful: 2, failures: [] })).toEqual({
      total: 2,
      successful: 2,
      failed: 0,
    });
    const failed = shardInfoJson({
      total: 3,
      successful: 2,
      failures: [
        {
          index: 'i',
          shard: 1,
          node: 'n2',
          reason: { type: 'node_not_connected_exception', reason: '[node-2] connection closed', status: 500 },
        },
      ],
    });
    expect(failed).toEqual({
      total: 3,
      successful: 2,
      failed: 1,
      failures: [
        {
          _index: 'i',
          _shard: 1,
          _node: 'n2',
          reason: { type: 'node_not_connected_exception', reason: '[node-2] connection closed' },
          status: 'INTERNAL_SERVER_ERROR',
          primary: false,
        },
      ],
    });
  });

  it('says a noop reached no copy', () => {
    expect(shardInfoJson({ total: 2, successful: 2, failures: [] }, true)).toEqual({
      total: 0,
      successful: 0,
      failed: 0,
    });
  });
});
