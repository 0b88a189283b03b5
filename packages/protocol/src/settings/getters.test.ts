import { describe, expect, it } from 'vitest';
import { getBool, getBytes, getInt, getList, getString, getTimeMs } from './getters.ts';

describe('getters', () => {
  it('read values with the declared defaults', () => {
    const flat = { 'index.number_of_shards': '3', 'index.refresh_interval': '-1' };
    expect(getInt(flat, 'index.number_of_shards')).toBe(3);
    expect(getInt(flat, 'index.max_result_window')).toBe(10000);
    expect(getInt(flat, 'index.number_of_routing_shards')).toBe(768);
    expect(getTimeMs(flat, 'index.refresh_interval')).toBe(-1);
    expect(getTimeMs({}, 'search.max_keep_alive')).toBe(86_400_000);
    expect(getBool({}, 'index.hidden')).toBe(false);
    expect(getBytes({}, 'index.translog.flush_threshold_size')).toBe(10 * 1024 ** 3);
    expect(getString({}, 'index.translog.durability')).toBe('request');
    expect(getList({}, 'index.query.default_field')).toEqual(['*']);
    expect(getInt({}, 'search.max_open_scroll_context')).toBe(500);
    expect(getString({}, 'action.auto_create_index')).toBe('true');
    expect(() => getInt({}, 'index.nope')).toThrow('setting [index.nope] is not declared');
  });
});
