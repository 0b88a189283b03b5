import { describe, expect, it } from 'vitest';
import { deprecatedKeysIn, settingDeprecationWarnings } from './deprecated-in-use.ts';

describe('deprecated settings in use', () => {
  it('finds them flat or nested', () => {
    expect(
      deprecatedKeysIn({ 'node.local_storage': 'true', 'search.max_buckets': '1', 'ext.ilm.enabled': null }),
    ).toEqual(['node.local_storage']);
    expect(settingDeprecationWarnings({ ext: { rollup: { enabled: false } } }, 'cluster')).toEqual([
      '[ext.rollup.enabled] setting was deprecated and will be removed in a future release! See the breaking changes documentation for the next major version.',
    ]);
    expect(settingDeprecationWarnings('not settings', 'cluster')).toEqual([]);
  });
});
