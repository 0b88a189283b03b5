import { describe, expect, it } from 'vitest';
import { normalizeSettings } from './normalize.ts';

describe('normalizeSettings', () => {
  it('accepts the three index forms', () => {
    const expected = { 'index.number_of_shards': '3' };
    expect(normalizeSettings({ index: { number_of_shards: 3 } }, 'index')).toEqual(expected);
    expect(normalizeSettings({ 'index.number_of_shards': 3 }, 'index')).toEqual(expected);
    expect(normalizeSettings({ number_of_shards: 3 }, 'index')).toEqual(expected);
  });

  it('stores strings, lists of strings and null resets', () => {
    expect(
      normalizeSettings(
        {
          index: { hidden: true, query: { default_field: ['a', 'b'] }, refresh_interval: null },
          'blocks.write': false,
        },
        'index',
      ),
    ).toEqual({
      'index.hidden': 'true',
      'index.query.default_field': ['a', 'b'],
      'index.refresh_interval': null,
      'index.blocks.write': 'false',
    });
    expect(normalizeSettings({ search: { max_keep_alive: '1h' } }, 'cluster')).toEqual({
      'search.max_keep_alive': '1h',
    });
  });

  it('refuses a key given twice', () => {
    expect(() =>
      normalizeSettings({ 'index.number_of_shards': 1, index: { number_of_shards: 2 } }, 'index'),
    ).toThrow('duplicate settings key [index.number_of_shards]');
  });
});
