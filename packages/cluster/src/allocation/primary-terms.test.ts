import { describe, expect, it } from 'vitest';
import { primaryTermOf, withPrimaryTerms } from './primary-terms.ts';
import type { RoutingTable, ShardRouting } from './routing-table.ts';

const copy = (primary: boolean, allocationId: string | null, node: string | null): ShardRouting => ({
  shard: 0,
  primary,
  state: allocationId === null ? 'UNASSIGNED' : 'STARTED',
  node,
  allocationId,
});

const table = (copies: ShardRouting[], primaryTerms?: number[]): RoutingTable => ({
  indices: { i: { uuid: 'u', shards: [copies], ...(primaryTerms ? { primaryTerms } : {}) } },
});

describe('primary terms', () => {
  it('start at 1 and stay while the primary keeps its allocation', () => {
    const t = table([copy(true, 'a', 'n1'), copy(false, 'b', 'n2')]);
    expect(withPrimaryTerms({ indices: {} }, t)).toBe(t);
    expect(primaryTermOf(t.indices.i, 0)).toBe(1);
    expect(withPrimaryTerms(t, t)).toBe(t);
  });

  it('rise by one when a replica is promoted, and again when the primary is reassigned', () => {
    const before = table([copy(true, 'a', 'n1'), copy(false, 'b', 'n2')]);
    const promoted = withPrimaryTerms(before, table([copy(true, 'b', 'n2'), copy(false, null, null)]));
    expect(promoted.indices.i!.primaryTerms).toEqual([2]);
    // Lost with no replica (no allocation), then placed again: one more.
    const lost = withPrimaryTerms(promoted, table([copy(true, null, null), copy(false, null, null)], [2]));
    expect(lost.indices.i!.primaryTerms).toEqual([2]);
    const back = withPrimaryTerms(lost, table([copy(true, 'c', 'n3'), copy(false, null, null)], [2]));
    expect(back.indices.i!.primaryTerms).toEqual([3]);
  });

  it('start again at 1 for a new index of the same name', () => {
    const old = table([copy(true, 'a', 'n1')], [5]);
    const fresh: RoutingTable = { indices: { i: { uuid: 'v', shards: [[copy(true, 'z', 'n1')]] } } };
    expect(primaryTermOf(withPrimaryTerms(old, fresh).indices.i, 0)).toBe(1);
  });
});
