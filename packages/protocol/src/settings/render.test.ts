import { describe, expect, it } from 'vitest';
import { renderSettings, renderSettingsWithDefaults } from './render.ts';

describe('renderSettings', () => {
  const stored = {
    'index.creation_date': '1700000000000',
    'index.number_of_replicas': '1',
    'index.number_of_shards': '1',
    'index.provided_name': 'test',
    'index.routing.allocation.include._tier_preference': 'data_content',
    'index.uuid': 'U',
    'index.version.created': '8500003',
  };

  it('nests in the key order Elasticsearch prints', () => {
    const out = renderSettings(stored, { flat: false, includeDefaults: false });
    expect(JSON.stringify(out)).toBe(
      '{"index":{"routing":{"allocation":{"include":{"_tier_preference":"data_content"}}},"number_of_shards":"1",' +
        '"provided_name":"test","creation_date":"1700000000000","number_of_replicas":"1","uuid":"U",' +
        '"version":{"created":"8500003"}}}',
    );
  });

  it('writes the flat form sorted', () => {
    const out = renderSettings(stored, { flat: true, includeDefaults: false });
    expect(Object.keys(out)).toEqual(Object.keys(stored).sort());
  });

  it('adds defaults for unset settings', () => {
    const out = renderSettingsWithDefaults(stored, { flat: true, includeDefaults: true });
    expect(out.settings['index.uuid']).toBe('U');
    expect(out.defaults?.['index.max_result_window']).toBe('10000');
    expect(out.defaults?.['index.query.default_field']).toEqual(['*']);
    expect(out.defaults?.['index.number_of_routing_shards']).toBe('1024');
    expect(out.defaults).not.toHaveProperty('index.number_of_shards');
    const nested = renderSettings(stored, { flat: false, includeDefaults: false, onlyDefaults: true });
    expect((nested.index as Record<string, unknown>).refresh_interval).toBe('1s');
    expect((nested.index as Record<string, unknown>).uuid).toBeUndefined();
    const all = renderSettings(stored, { flat: true, includeDefaults: true });
    expect(all['index.uuid']).toBe('U');
    expect(all['index.refresh_interval']).toBe('1s');
  });
});
