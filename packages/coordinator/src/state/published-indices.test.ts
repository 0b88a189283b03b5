import { type ClusterState, initialClusterState } from '@shoal/cluster';
import { createIndexMapping } from '@shoal/engine';
import type { ShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import type { IndexMetadata } from './index-metadata.ts';
import { indicesToAllocate, publishedIndices, withIndicesChanged } from './published-indices.ts';

function meta(name: string, uuid: string, settings: Record<string, string> = {}): IndexMetadata {
  return {
    name,
    uuid,
    creationDate: 1,
    settings: { 'index.number_of_shards': '2', 'index.number_of_replicas': '1', ...settings },
    mapping: createIndexMapping({ properties: { t: { type: 'text' } } }, { indexName: name }),
    aliases: new Map(),
    numberOfShards: 2,
    routingNumShards: 1024,
    state: 'open',
    mappingVersion: 1,
    settingsVersion: 1,
    aliasesVersion: 1,
  };
}

const empty = initialClusterState('c');
const withNodes = (s: ClusterState, n: number): ClusterState => ({
  ...s,
  nodes: Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `n${i}`,
      {
        id: `n${i}`,
        name: `node-${i}`,
        ephemeralId: 'e',
        host: 'h',
        transportPort: 1,
        httpPort: 1,
        roles: ['data', 'master'],
      },
    ]),
  ),
});

const errorOf = (f: () => unknown): ShoalError => {
  try {
    f();
  } catch (e) {
    return e as ShoalError;
  }
  throw new Error('no error');
};

describe('index metadata in the cluster state', () => {
  it('adds a new index, and refuses a second one of that name', () => {
    const a = meta('books', 'u1');
    const s = withIndicesChanged(empty, [{ meta: a, base: null }], []);
    expect(publishedIndices(s).books).toMatchObject({ uuid: 'u1', numberOfShards: 2, mappingVersion: 1 });
    const e = errorOf(() => withIndicesChanged(s, [{ meta: meta('books', 'u2'), base: null }], []));
    expect(e.type).toBe('resource_already_exists_exception');
  });

  it('writes a change made from the version the state has, and refuses one made from an older one', () => {
    const a = meta('books', 'u1');
    const s = withIndicesChanged(empty, [{ meta: a, base: null }], []);
    const b = { ...a, mappingVersion: 2 };
    const s2 = withIndicesChanged(s, [{ meta: b, base: a }], []);
    expect(publishedIndices(s2).books!.mappingVersion).toBe(2);
    // Another change made from `a` lost the race: nothing of it is written.
    const c = { ...a, settingsVersion: 2 };
    const e = errorOf(() => withIndicesChanged(s2, [{ meta: c, base: a }], []));
    expect(e.type).toBe('illegal_state_exception');
    expect(publishedIndices(s2).books!.settingsVersion).toBe(1);
  });

  it('removes an index only when it is the same index (same uuid)', () => {
    const a = meta('books', 'u1');
    const s = withIndicesChanged(empty, [{ meta: a, base: null }], []);
    expect(withIndicesChanged(s, [], [meta('books', 'other')])).toEqual(s);
    expect(publishedIndices(withIndicesChanged(s, [], [a]))).toEqual({});
  });

  it('gives allocation each open index, with auto-expanded replicas for the data nodes there are', () => {
    let s = withIndicesChanged(
      empty,
      [
        { meta: meta('plain', 'u1'), base: null },
        { meta: meta('expands', 'u2', { 'index.auto_expand_replicas': '0-all' }), base: null },
        { meta: { ...meta('closed', 'u3'), state: 'close' }, base: null },
      ],
      [],
    );
    s = withNodes(s, 3);
    expect(indicesToAllocate(s).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: 'expands', uuid: 'u2', shards: 2, replicas: 2 },
      { name: 'plain', uuid: 'u1', shards: 2, replicas: 1 },
    ]);
  });
});
