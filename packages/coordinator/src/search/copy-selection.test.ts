import { describe, expect, it } from 'vitest';
import type { ShardCopy, ShardRunner } from '../shards/shard-table.ts';
import { type CopySelector, chooseCopy } from './copy-selection.ts';

const worker = {} as ShardRunner;
const copy = (node: string, over: Partial<ShardCopy> = {}): ShardCopy => ({
  index: 'i',
  indexUuid: 'u',
  shardId: 0,
  primary: node === 'n1',
  key: 'u/0',
  state: 'STARTED',
  node,
  remote: node !== 'n1',
  allocationId: `a-${node}`,
  worker,
  ...over,
});

function selector(localId = 'n1'): CopySelector {
  let turn = 0;
  return {
    localId,
    nodeIdOf: (name) => ({ 'node-2': 'n2', 'node-3': 'n3' })[name],
    turn: () => turn++,
  };
}

/** The primary on this node (n1), replicas on n2 and n3. */
const copies = [copy('n1'), copy('n2'), copy('n3')];
const nodesOf = (picks: (ShardCopy | undefined)[]) => picks.map((c) => c?.node);

describe('choosing the copy a read goes to', () => {
  it('prefers a copy on this node, else takes the started copies in turn', () => {
    expect(chooseCopy(copies, undefined, selector())?.node).toBe('n1');
    const remote = [copy('n2'), copy('n3'), copy('n4', { state: 'INITIALIZING' })];
    const sel = selector();
    expect(nodesOf([1, 2, 3, 4].map(() => chooseCopy(remote, undefined, sel)))).toEqual([
      'n2',
      'n3',
      'n2',
      'n3',
    ]);
  });

  it('reads only started copies, and none when none is started', () => {
    const some = [copy('n1', { state: 'UNASSIGNED', worker: undefined }), copy('n2')];
    expect(chooseCopy(some, undefined, selector())?.node).toBe('n2');
    expect(chooseCopy([copy('n2', { state: 'INITIALIZING' })], undefined, selector())).toBeUndefined();
  });

  it('honours _only_local, _local, _only_nodes and _prefer_nodes (by id or name)', () => {
    expect(chooseCopy(copies, '_only_local', selector('n2'))?.node).toBe('n2');
    expect(chooseCopy([copy('n2')], '_only_local', selector())).toBeUndefined();
    expect(chooseCopy([copy('n2'), copy('n1')], '_local', selector())?.node).toBe('n1');
    expect(chooseCopy(copies, '_only_nodes:n3', selector())?.node).toBe('n3');
    expect(chooseCopy(copies, '_only_nodes:node-2', selector())?.node).toBe('n2');
    expect(chooseCopy(copies, '_only_nodes:n9', selector())).toBeUndefined();
    expect(chooseCopy(copies, '_prefer_nodes:node-3', selector())?.node).toBe('n3');
    expect(chooseCopy(copies, '_prefer_nodes:n9', selector())?.node).toBe('n1');
    expect(chooseCopy(copies, '_shards:0|_only_nodes:n2', selector())?.node).toBe('n2');
  });

  it('sends the same custom string to the same copy, and spreads different ones', () => {
    const sel = selector();
    const first = chooseCopy(copies, 'session-1', sel);
    for (let i = 0; i < 5; i++) expect(chooseCopy([...copies].reverse(), 'session-1', sel)).toBe(first);
    const spread = new Set(Array.from({ length: 30 }, (_, i) => chooseCopy(copies, `s${i}`, sel)?.node));
    expect(spread.size).toBe(3);
  });
});
