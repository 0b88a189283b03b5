import { parseQuery } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import type { AliasMetadata, IndexMetadata } from '../state/index-metadata.ts';
import { type ReachedNames, resolveIndices, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { aliasFilterFor, filteringAliases } from './alias-filters.ts';

function index(name: string, aliases: Record<string, AliasMetadata>): IndexMetadata {
  return {
    name,
    aliases: new Map(Object.entries(aliases)),
    state: 'open',
    settings: {},
  } as unknown as IndexMetadata;
}

const acme = { term: { tenant: 'acme' } };
const globex = { term: { tenant: 'globex' } };
const docs = index('docs', { acme: { filter: acme }, globex: { filter: globex }, everyone: {} });
const other = index('other', { acme: { filter: acme } });
const all = new Map([
  ['docs', docs],
  ['other', other],
]);

function reach(expression: string): ReachedNames {
  const reached: ReachedNames = {};
  resolveIndices(expression, all, SEARCH_INDICES_OPTIONS, reached);
  return reached;
}

describe('filteringAliases', () => {
  it('names the filtering alias an index was reached through', () => {
    expect(filteringAliases(docs, reach('acme'))).toEqual(['acme']);
    expect(filteringAliases(other, reach('acme'))).toEqual(['acme']);
  });

  it('names every filtering alias when several were used', () => {
    expect(filteringAliases(docs, reach('acme,globex'))?.sort()).toEqual(['acme', 'globex']);
  });

  it('applies none when the index was reached by its own name or a wildcard on index names', () => {
    expect(filteringAliases(docs, reach('acme,docs'))).toBeUndefined();
    expect(filteringAliases(docs, reach('acme,do*'))).toBeUndefined();
    // `other` is reached only through `acme`.
    expect(filteringAliases(other, reach('acme,docs'))).toEqual(['acme']);
  });

  it('applies none when any alias the index was reached through has no filter', () => {
    expect(filteringAliases(docs, reach('acme,everyone'))).toBeUndefined();
  });

  it('applies none for _all and *, and leaves a concrete index name unresolved', () => {
    expect(reach('_all').aliases).toBeUndefined();
    expect(reach('*').aliases).toBeUndefined();
    expect(reach('docs').aliases).toBeUndefined();
  });

  it('follows wildcards that match alias names', () => {
    expect(filteringAliases(docs, reach('acm*'))).toEqual(['acme']);
  });

  it('forgets an index excluded after a wildcard', () => {
    expect(filteringAliases(docs, reach('do*,-docs,acme'))).toEqual(['acme']);
  });
});

describe('aliasFilterFor', () => {
  it('is the parsed filter of one alias', () => {
    expect(aliasFilterFor(docs, reach('acme'))).toEqual(parseQuery(acme));
  });

  it('ORs the filters of several aliases', () => {
    const q = aliasFilterFor(docs, reach('acme,globex'));
    expect(q).toMatchObject({ type: 'bool', must: [], filter: [], mustNot: [] });
    expect((q as { should: unknown[] }).should).toHaveLength(2);
    expect((q as { should: unknown[] }).should).toEqual(
      expect.arrayContaining([parseQuery(acme), parseQuery(globex)]),
    );
  });

  it('is absent when no filter applies', () => {
    expect(aliasFilterFor(docs, reach('everyone'))).toBeUndefined();
  });
});
