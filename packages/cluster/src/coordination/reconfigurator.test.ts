import { describe, expect, it } from 'vitest';
import { reconfigure } from './reconfigurator.ts';

const run = (
  live: string[],
  current: string[],
  opts: { retired?: string[]; master?: string; autoShrink?: boolean } = {},
) =>
  reconfigure({
    live: new Set(live),
    retired: new Set(opts.retired ?? []),
    masterId: opts.master ?? live[0]!,
    current,
    autoShrink: opts.autoShrink ?? true,
  });

describe('reconfigure', () => {
  it('grows to every live master-eligible node, rounded down to an odd size', () => {
    expect(run(['a', 'b', 'c'], ['a'])).toEqual(['a', 'b', 'c']);
    expect(run(['a', 'b', 'c', 'd'], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(run(['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps the master in a shrunk configuration', () => {
    expect(run(['d', 'a', 'b', 'c'], ['a', 'b', 'c'], { master: 'd' })).toEqual(['a', 'b', 'd']);
  });

  it('never shrinks below three once it had three, when nodes die', () => {
    expect(run(['a', 'b'], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(run(['a', 'b', 'c'], ['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'b', 'c']);
  });

  it('drops excluded nodes, down to a single node', () => {
    expect(run(['a', 'b', 'c'], ['a', 'b', 'c'], { retired: ['b', 'c'] })).toEqual(['a']);
    expect(run(['a', 'b', 'c'], ['a', 'b', 'c'], { retired: ['c'] })).toEqual(['a']);
    // Only b is live and not excluded, and {b} has a live quorum.
    expect(run(['b', 'c'], ['a', 'b', 'c'], { retired: ['c'], master: 'b' })).toEqual(['b']);
  });

  it('keeps the current configuration when the new one has no live quorum', () => {
    // Both live nodes excluded: the only candidate left, c, is not live.
    expect(run(['a', 'b'], ['a', 'b', 'c'], { retired: ['a', 'b'] })).toEqual(['a', 'b', 'c']);
    // Every node excluded: nothing to choose, the current configuration stays.
    expect(run(['a'], ['a'], { retired: ['a'] })).toEqual(['a']);
  });

  it('with auto-shrink off, never shrinks by itself', () => {
    expect(run(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd', 'e'], { autoShrink: false })).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });
});
