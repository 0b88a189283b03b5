import { describe, expect, it } from 'vitest';
import type { AliasMetadata, IndexMetadata } from '../state/index-metadata.ts';
import { type ReachedNames, resolveIndices, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { searchRouting, splitRouting } from './search-routing.ts';

function index(name: string, aliases: Record<string, AliasMetadata>): IndexMetadata {
  return {
    name,
    aliases: new Map(Object.entries(aliases)),
    state: 'open',
    settings: {},
  } as unknown as IndexMetadata;
}

const a = index('a', { r1: { searchRouting: '1' }, r12: { searchRouting: '1,2' }, plain: {} });
const b = index('b', { r1: { searchRouting: '3' } });
const all = new Map([
  ['a', a],
  ['b', b],
]);

function route(expression: string, routing?: string): Record<string, string[]> {
  const reached: ReachedNames = {};
  const indices = resolveIndices(expression, all, SEARCH_INDICES_OPTIONS, reached);
  const out: Record<string, string[]> = {};
  for (const [meta, values] of searchRouting(indices, reached, routing)) out[meta.name] = [...values].sort();
  return out;
}

describe('searchRouting', () => {
  it('routes each index by the search routing of the alias it was reached through', () => {
    expect(route('r1')).toEqual({ a: ['1'], b: ['3'] });
    expect(route('r12')).toEqual({ a: ['1', '2'] });
  });

  it('takes the union of the routing aliases of an index', () => {
    expect(route('r1,r12')).toEqual({ a: ['1', '2'], b: ['3'] });
  });

  it('intersects alias routing with the request routing', () => {
    expect(route('r12', '2,9')).toEqual({ a: ['2'] });
  });

  it('searches every shard when the intersection is empty, as Elasticsearch does', () => {
    expect(route('r12', '9')).toEqual({});
  });

  it('uses the request routing for an index reached by name or through an alias without routing', () => {
    expect(route('r1,a')).toEqual({ b: ['3'] });
    // `b` is reached through `r1` only: its routing [3] and the request's [7] leave nothing.
    expect(route('r1,a', '7')).toEqual({ a: ['7'] });
    expect(route('r1,plain', '7')).toEqual({ a: ['7'] });
    expect(route('r1,plain', '3')).toEqual({ a: ['3'], b: ['3'] });
    expect(route('r1,plain')).toEqual({ b: ['3'] });
  });
});

describe('splitRouting', () => {
  it('splits as Java String.split(",") does', () => {
    expect(splitRouting('')).toEqual([]);
    expect(splitRouting('a,,b,,')).toEqual(['a', '', 'b']);
  });
});
