import { describe, expect, it } from 'vitest';
import { withShardDocTiebreaker } from './pit-search.ts';

describe('the implicit _shard_doc tiebreaker of a PIT search', () => {
  const age = { kind: 'field' as const, field: 'age', order: 'desc' as const, missing: '_last' as const };
  it('is appended to a sort, unless search_after lacks its value', () => {
    expect(withShardDocTiebreaker(undefined)).toBeUndefined();
    expect(withShardDocTiebreaker([age])).toEqual([age, { kind: 'shard_doc', order: 'asc' }]);
    expect(withShardDocTiebreaker([age], [24, 5])).toEqual([age, { kind: 'shard_doc', order: 'asc' }]);
    expect(withShardDocTiebreaker([age], [24])).toEqual([age]);
    const explicit = [{ kind: 'shard_doc' as const, order: 'desc' as const }];
    expect(withShardDocTiebreaker(explicit)).toBe(explicit);
  });
});
