import { describe, expect, it } from 'vitest';
import { checkNodeSettings, NodeSettingsError } from './node-settings.ts';

describe('checkNodeSettings', () => {
  it('returns the deprecation messages of the deprecated settings in use', () => {
    expect(checkNodeSettings({ 'ext.sql.enabled': 'true', 'search.max_buckets': '100' })).toEqual([
      '[ext.sql.enabled] setting was deprecated and will be removed in a future release! See the breaking changes documentation for the next major version.',
    ]);
    expect(checkNodeSettings({ 'ext.watcher.use_ilm_index_management': 'false' })).toEqual([]);
  });

  it('refuses unknown settings, bad values and node.local_storage=false', () => {
    expect(() => checkNodeSettings({ 'search.max_bucket': '1' })).toThrow(
      'unknown setting [search.max_bucket] did you mean [search.max_buckets]?',
    );
    expect(() => checkNodeSettings({ 'ext.ilm.enabled': 'yes' })).toThrow(NodeSettingsError);
    expect(() => checkNodeSettings({ 'node.local_storage': 'false' })).toThrow(
      '[node.local_storage] may not be false',
    );
  });
});
