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
      'Failed to parse value [10ms] for setting [index.translog.sync_interval] must be >= 100ms',
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
