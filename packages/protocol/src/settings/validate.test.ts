import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { normalizeSettings } from './normalize.ts';
import { clusterUpdateCheck, updatableCheck, validateSettings } from './validate.ts';

function failure(f: () => unknown): ShoalError {
  try {
    f();
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('validateSettings', () => {
  it('accepts valid settings and groups', () => {
    expect(
      validateSettings(
        normalizeSettings(
          {
            number_of_shards: 3,
            number_of_replicas: 0,
            refresh_interval: '-1',
            'analysis.analyzer.my.type': 'standard',
            'routing.allocation.include._tier_preference': 'data_content',
            translog: { durability: 'ASYNC', flush_threshold_size: '512mb' },
            auto_expand_replicas: '0-all',
          },
          'index',
        ),
        'index',
      ),
    ).toEqual([]);
  });

  it('names unknown settings like Elasticsearch', () => {
    expect(failure(() => validateSettings({ 'index.foo': '1' }, 'index')).reason).toBe(
      'unknown setting [index.foo] please check that any required plugins are installed, or check the breaking changes documentation for removed settings',
    );
    expect(failure(() => validateSettings({ 'index.number_of_shard': '1' }, 'index')).reason).toBe(
      'unknown setting [index.number_of_shard] did you mean [index.number_of_shards]?',
    );
  });

  it('gives Elasticsearch value errors', () => {
    const reason = (s: Record<string, string>) => failure(() => validateSettings(s, 'index')).reason;
    expect(reason({ 'index.number_of_shards': '0' })).toBe(
      'Failed to parse value [0] for setting [index.number_of_shards] must be >= 1',
    );
    expect(reason({ 'index.number_of_shards': '2000' })).toBe(
      'Failed to parse value [2000] for setting [index.number_of_shards] must be <= 1024',
    );
    expect(reason({ 'index.max_result_window': '0' })).toBe(
      'Failed to parse value [0] for setting [index.max_result_window] must be >= 1',
    );
    const nan = failure(() => validateSettings({ 'index.number_of_replicas': 'two' }, 'index'));
    expect(nan.reason).toBe('Failed to parse value [two] for setting [index.number_of_replicas]');
    expect(nan.causedBy?.reason).toBe('For input string: "two"');
    expect(reason({ 'index.hidden': 'yes' })).toBe(
      'Failed to parse value [yes] as only [true] or [false] are allowed.',
    );
    expect(reason({ 'index.refresh_interval': '5' })).toBe(
      'failed to parse setting [index.refresh_interval] with value [5] as a time value: unit is missing or unrecognized',
    );
    expect(reason({ 'index.translog.sync_interval': '10ms' })).toBe(
      'failed to parse value [10ms] for setting [index.translog.sync_interval], must be >= [100ms]',
    );
    expect(reason({ 'index.translog.durability': 'sometimes' })).toBe(
      'No enum constant org.elasticsearch.index.translog.Translog.Durability.SOMETIMES',
    );
    expect(reason({ 'index.translog.flush_threshold_size': '12' })).toMatch(
      /as a size in bytes: unit is missing/,
    );
    expect(reason({ 'index.auto_expand_replicas': '5' })).toBe(
      'failed to parse [index.auto_expand_replicas] from value: [5] at index -1',
    );
    expect(reason({ 'index.uuid': 'x' })).toBe(
      'private index setting [index.uuid] can not be set explicitly',
    );
    expect(failure(() => validateSettings({ 'index.hidden': 'x' }, 'index')).type).toBe(
      'illegal_argument_exception',
    );
  });

  it('checks routing shards against shards', () => {
    const reason = (s: Record<string, string>) => failure(() => validateSettings(s, 'index')).reason;
    expect(reason({ 'index.number_of_shards': '5', 'index.number_of_routing_shards': '3' })).toBe(
      'index.number_of_routing_shards [3] must be >= index.number_of_shards [5]',
    );
    expect(reason({ 'index.number_of_shards': '2', 'index.number_of_routing_shards': '5' })).toBe(
      'the number of source shards [2] must be a factor of [5]',
    );
    expect(
      validateSettings({ 'index.number_of_shards': '5', 'index.number_of_routing_shards': '5' }, 'index'),
    ).toEqual([]);
  });

  it('warns for deprecated settings', () => {
    expect(validateSettings({ 'ext.ilm.enabled': 'false' }, 'node')).toEqual([
      '[ext.ilm.enabled] setting was deprecated and will be removed in a future release! See the breaking changes documentation for the next major version.',
    ]);
  });
});

describe('updatableCheck', () => {
  it('refuses static settings on open indices', () => {
    expect(
      failure(() =>
        updatableCheck({ 'index.number_of_shards': '2' }, { open: true, index: 'idx', uuid: 'U' }),
      ).reason,
    ).toBe("Can't update non dynamic settings [[index.number_of_shards]] for open indices [[idx/U]]");
    expect(() =>
      updatableCheck({ 'index.number_of_replicas': '2' }, { open: true, index: 'idx', uuid: 'U' }),
    ).not.toThrow();
    expect(() =>
      updatableCheck({ 'index.codec': 'best_compression' }, { open: false, index: 'i', uuid: 'U' }),
    ).not.toThrow();
    expect(
      failure(() => updatableCheck({ 'index.number_of_shards': '2' }, { open: false, index: 'i', uuid: 'U' }))
        .reason,
    ).toBe('final index setting [index.number_of_shards], not updateable');
  });
});

describe('clusterUpdateCheck', () => {
  it('uses the persistent/transient texts', () => {
    const reason = (u: Record<string, string | null>) =>
      failure(() => clusterUpdateCheck(u, 'persistent')).reason;
    expect(reason({ 'foo.bar': '1' })).toBe('persistent setting [foo.bar], not recognized');
    expect(reason({ 'search.keep_alive_interval': '5m' })).toBe(
      'persistent setting [search.keep_alive_interval], not dynamically updateable',
    );
    expect(reason({ 'search.default_keep_alive': '2m', 'search.max_keep_alive': '1m' })).toBe(
      'Default keep alive setting for request [search.default_keep_alive] should be smaller than max keep alive [search.max_keep_alive], was (2m > 1m)',
    );
    expect(
      clusterUpdateCheck(
        { 'search.max_keep_alive': '1m', 'search.default_keep_alive': '1m', 'foo.*': null },
        'transient',
      ),
    ).toEqual([]);
    expect(reason({ 'cluster.routing.allocation.enable': 'some' })).toBe(
      'Illegal allocation.enable value [some]',
    );
  });
});

describe('the index settings of Elasticsearch 8', () => {
  const reason = (s: Record<string, string | string[]>) => failure(() => validateSettings(s, 'index')).reason;

  it('accepts what real clients and templates send', () => {
    const warnings = validateSettings(
      normalizeSettings(
        {
          codec: 'best_compression',
          routing_partition_size: 1,
          'soft_deletes.retention_lease.period': '6h',
          load_fixed_bitset_filters_eagerly: false,
          'shard.check_on_startup': 'checksum',
          'search.idle.after': '60s',
          max_refresh_listeners: 10,
          'analyze.max_token_count': 500,
          default_pipeline: '_none',
          gc_deletes: '30s',
          lifecycle: { name: 'logs', rollover_alias: 'logs', indexing_complete: true, origination_date: 1 },
          priority: 100,
          routing: {
            allocation: {
              include: { _name: 'node-1', _ip: '10.0.*' },
              total_shards_per_node: 2,
              enable: 'primaries',
            },
            rebalance: { enable: 'none' },
          },
          'unassigned.node_left.delayed_timeout': '5m',
          translog: { flush_threshold_age: '10m', generation_threshold_size: '1mb' },
          merge: {
            policy: { segments_per_tier: 5, max_merged_segment: '1gb', deletes_pct_allowed: 30 },
            scheduler: { max_thread_count: 1 },
          },
          query_string: { lenient: true },
          mapping: { total_fields: { limit: 2000 }, depth: { limit: 5 }, nested_objects: { limit: 100 } },
          blocks: { read_only_allow_delete: false },
          store: { type: 'mmapfs', preload: ['nvd', 'dvd'] },
          'search.slowlog.threshold.query.warn': '10s',
          'indexing.slowlog.threshold.index.info': '-1',
          'requests.cache.enable': false,
          'write.wait_for_active_shards': 'all',
          mode: 'standard',
          sort: {
            field: ['a', 'b'],
            order: ['asc', 'desc'],
            missing: ['_last', '_first'],
            mode: ['min', 'max'],
          },
          max_ngram_diff: 3,
          max_shingle_diff: 5,
          max_script_fields: 10,
          similarity: { my: { type: 'BM25', b: 0.5 } },
        },
        'index',
      ),
      'index',
    );
    expect(warnings).toEqual([]);
  });

  it('gives Elasticsearch value errors for the new kinds', () => {
    expect(reason({ 'index.mapping.depth.limit': '0' })).toBe(
      'Failed to parse value [0] for setting [index.mapping.depth.limit] must be >= 1',
    );
    expect(reason({ 'index.merge.policy.segments_per_tier': '1' })).toBe(
      'Failed to parse value [1] for setting [index.merge.policy.segments_per_tier] must be >= 2.0',
    );
    expect(reason({ 'index.merge.policy.deletes_pct_allowed': '60' })).toBe(
      'Failed to parse value [60] for setting [index.merge.policy.deletes_pct_allowed] must be <= 50.0',
    );
    expect(reason({ 'index.translog.flush_threshold_age': '2h' })).toBe(
      'failed to parse value [2h] for setting [index.translog.flush_threshold_age], must be <= [1h]',
    );
    expect(reason({ 'index.translog.flush_threshold_size': '10b' })).toBe(
      'failed to parse value [10b] for setting [index.translog.flush_threshold_size], must be >= [56b]',
    );
    expect(reason({ 'index.write.wait_for_active_shards': 'most' })).toBe(
      'cannot parse ActiveShardCount[most]',
    );
    expect(reason({ 'index.routing.allocation.enable': 'some' })).toBe(
      'Illegal allocation.enable value [some]',
    );
    expect(reason({ 'index.shard.check_on_startup': 'fix' })).toBe(
      'unknown value for [index.shard.check_on_startup] must be one of [true, false, checksum] but was: fix',
    );
    expect(reason({ 'index.sort.order': ['up'] })).toBe('Illegal sort order:up');
    expect(reason({ 'index.sort.mode': ['avg'] })).toBe(
      'Illegal index sort mode:[AVG], must be one of [MAX, MIN]',
    );
    expect(reason({ 'index.sort.missing': ['last'] })).toBe(
      'Illegal missing value:[last], must be one of [_last, _first]',
    );
    expect(reason({ 'index.routing.allocation.require._ip': 'nohost' })).toBe(
      'invalid IP address [nohost] for [_ip]',
    );
    expect(reason({ 'index.similarity.BM25.type': 'BM25' })).toBe(
      'illegal value for [index.similarity.BM25] cannot redefine built-in similarity',
    );
    expect(reason({ 'index.routing.allocation.include._tier_preference': 'data_lukewarm' })).toBe(
      'invalid tier names found in [data_lukewarm] allowed values are [data_content, data_hot, data_warm, data_cold, data_frozen]',
    );
    expect(reason({ 'index.routing_path': ['host'] })).toBe(
      '[index.routing_path] requires [index.mode=time_series]',
    );
  });

  it('answers 400 for index modes Shoal lacks, and warns of deprecated settings', () => {
    const mode = failure(() => validateSettings({ 'index.mode': 'time_series' }, 'index'));
    expect(mode.status).toBe(400);
    expect(mode.reason).toBe(
      '[index.mode=time_series] indices are not supported by Shoal; [index.mode] must be [standard]',
    );
    expect(validateSettings({ 'index.data_path': '/tmp' }, 'index')).toEqual([
      '[index.data_path] setting was deprecated and will be removed in a future release! See the breaking changes documentation for the next major version.',
    ]);
  });

  it('lets a static setting change on an open index with reopen', () => {
    const target = { open: true, index: 'i', uuid: 'u' };
    expect(() => updatableCheck({ 'index.codec': 'best_compression' }, target)).toThrow(
      "Can't update non dynamic settings [[index.codec]] for open indices [[i/u]]",
    );
    expect(() =>
      updatableCheck({ 'index.codec': 'best_compression' }, target, { reopen: true }),
    ).not.toThrow();
    expect(() => updatableCheck({ 'index.number_of_shards': '2' }, target, { reopen: true })).toThrow(
      'final index setting [index.number_of_shards], not updateable',
    );
    expect(() => updatableCheck({ 'index.blocks.*': null }, target)).not.toThrow();
  });
});
