import { describe, expect, it } from 'vitest';
import { applyChanges, withoutExisting, withoutNulls } from './settings-changes.ts';

describe('settings changes', () => {
  const current = {
    'index.uuid': 'U',
    'index.creation_date': '1',
    'index.blocks.write': 'true',
    'index.blocks.read': 'true',
    'index.max_result_window': '500',
  };

  it('sets, resets by null, and resets a wildcard without touching what Shoal fills in', () => {
    expect(applyChanges(current, { 'index.max_result_window': '900', 'index.blocks.*': null })).toEqual({
      'index.uuid': 'U',
      'index.creation_date': '1',
      'index.max_result_window': '900',
    });
    expect(applyChanges(current, { 'index.*': null })).toEqual({
      'index.uuid': 'U',
      'index.creation_date': '1',
    });
  });

  it('keeps what an index has with preserve_existing, and drops nulls from a new index', () => {
    expect(
      withoutExisting({ 'index.max_result_window': '1', 'index.max_terms_count': '2' }, current),
    ).toEqual({
      'index.max_terms_count': '2',
    });
    expect(withoutNulls({ 'index.a': '1', 'index.b': null })).toEqual({ 'index.a': '1' });
  });
});
