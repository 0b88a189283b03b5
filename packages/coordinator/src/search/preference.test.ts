import { describe, expect, it } from 'vitest';
import { preferredShards } from './preference.ts';

describe('preferredShards', () => {
  it('keeps the shard numbers of _shards:, up to a bar', () => {
    expect(preferredShards('_shards:2,0')).toEqual(new Set([0, 2]));
    expect(preferredShards('_shards:1|_local')).toEqual(new Set([1]));
    expect(preferredShards('_shards:1|custom')).toEqual(new Set([1]));
  });

  it('keeps every shard for copy preferences and custom strings', () => {
    for (const p of [undefined, '', '_local', '_only_local', '_onlyLocal', '_prefer_nodes:a', 'abc']) {
      expect(preferredShards(p)).toBeUndefined();
    }
  });

  it('fails as Preference.parse and Integer.parseInt fail', () => {
    expect(() => preferredShards('_primary')).toThrow('no Preference for [_primary]');
    expect(() => preferredShards('_shards:0|_nope')).toThrow('no Preference for [_nope]');
    expect(() => preferredShards('_shards:x')).toThrow('For input string: "x"');
    expect(() => preferredShards('_shards:0,,1')).toThrow('For input string: ""');
    expect(() => preferredShards('_shards:99999999999')).toThrow('For input string: "99999999999"');
  });
});
