import { createIndexMapping } from '@shoal/engine';
import { describe, expect, it } from 'vitest';
import { checkNewMapping, checkRoutingPartition, defaultTierPreference } from './new-index-checks.ts';

describe('new index checks', () => {
  it('prefer the content tier unless the request routes the index itself', () => {
    expect(defaultTierPreference({})).toEqual({
      'index.routing.allocation.include._tier_preference': 'data_content',
    });
    expect(defaultTierPreference({ 'index.routing.allocation.require.box': 'hot' })).toEqual({});
    expect(defaultTierPreference({ 'index.routing.allocation.include._tier_preference': null })).toEqual({});
  });

  it('keep a routing partition below the routing shards, with routing required by the mapping', () => {
    const index = { name: 'p', uuid: 'u' };
    expect(() => checkRoutingPartition({ 'index.routing_partition_size': '4' }, 8, index)).not.toThrow();
    expect(() => checkRoutingPartition({ 'index.routing_partition_size': '8' }, 8, index)).toThrow(
      'routing partition size [8] should be a positive number less than the number of routing shards [8] for [[p/u]]',
    );
    const settings = { 'index.routing_partition_size': '2' };
    const unrouted = createIndexMapping({ properties: { a: { type: 'long' } } }, { indexName: 'p' });
    expect(() => checkNewMapping('p', settings, unrouted, true)).toThrow(
      'mapping type [_doc] must have routing required for partitioned index [p]',
    );
    expect(() => checkNewMapping('p', settings, unrouted, false)).not.toThrow();
    const routed = createIndexMapping({ _routing: { required: true } }, { indexName: 'p' });
    expect(() => checkNewMapping('p', settings, routed, true)).not.toThrow();
  });
});
