import { parseQuery } from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import { describe, expect, it } from 'vitest';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { fetchFor, readRestriction, restrictTargets } from './read-restrictions.ts';
import type { ShardTarget } from './shard-targets.ts';

function index(name: string, aliases: string[] = []): IndexMetadata {
  return { name, aliases: new Map(aliases.map((a) => [a, {}])) } as unknown as IndexMetadata;
}

const a = { term: { a: 1 } };
const b = { term: { b: 2 } };
const c = { term: { c: 3 } };
const fields = [[{ include: ['x'], exclude: [] }]];

describe('read restrictions', () => {
  it('ORs a layer’s role queries and ANDs the layers into one document filter', () => {
    const seen: string[][] = [];
    const access: IndexAccess = (names) => {
      seen.push([...names]);
      return { queries: [[a, b], [c]], fields };
    };
    expect(readRestriction(access, index('docs', ['al']))).toEqual({
      documentFilter: {
        type: 'bool',
        must: [],
        filter: [
          {
            type: 'bool',
            must: [],
            filter: [],
            should: [parseQuery(a), parseQuery(b)],
            mustNot: [],
            boost: 1,
          },
          parseQuery(c),
        ],
        should: [],
        mustNot: [],
        boost: 1,
      },
      fieldVisibility: fields,
    });
    // The index is asked for by its name and its aliases' names.
    expect(seen).toEqual([['docs', 'al']]);
    expect(readRestriction(() => undefined, index('docs'))).toBeUndefined();
    expect(readRestriction(undefined, index('docs'))).toBeUndefined();
  });

  it('gives each target its index’s restriction, and its fetches the index’s fields', () => {
    const docs = index('docs');
    const free = index('free');
    const targets = [docs, free, docs].map((meta, shardIndex) => ({ meta, shardIndex }) as ShardTarget);
    let asked = 0;
    restrictTargets(targets, (names) => {
      asked++;
      return names[0] === 'docs' ? { queries: [[a]], fields } : undefined;
    });
    expect(asked).toBe(2);
    expect(targets.map((t) => t.documentFilter)).toEqual([parseQuery(a), undefined, parseQuery(a)]);
    const fetch: { version: boolean; fieldVisibility?: typeof fields } = { version: false };
    expect(fetchFor(fetch, targets[0]!)).toEqual({ version: false, fieldVisibility: fields });
    expect(fetchFor(fetch, targets[1]!)).toBe(fetch);
  });
});
