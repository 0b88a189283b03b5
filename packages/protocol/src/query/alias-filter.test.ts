import { describe, expect, it } from 'vitest';
import { combineAliasFilters, withAliasFilter } from './alias-filter.ts';
import type { QueryNode } from './ast.ts';
import { parseQuery } from './parse-query.ts';

const acme = parseQuery({ term: { tenant: 'acme' } });
const globex = parseQuery({ term: { tenant: 'globex' } });

describe('combineAliasFilters', () => {
  it('keeps the filter of a single alias as it is', () => {
    expect(combineAliasFilters([acme])).toBe(acme);
  });

  it('ORs the filters of several aliases as should clauses of a bool', () => {
    const combined = combineAliasFilters([acme, globex]) as Extract<QueryNode, { type: 'bool' }>;
    expect(combined.type).toBe('bool');
    expect(combined.should).toEqual([acme, globex]);
    expect(combined.must).toEqual([]);
    expect(combined.filter).toEqual([]);
    expect(combined.minimumShouldMatch).toBeUndefined();
  });
});

describe('withAliasFilter', () => {
  it('puts the query in must and the alias filter in filter, unboosted', () => {
    const query = parseQuery({ match: { text: 'red' } });
    expect(withAliasFilter(query, acme)).toEqual({
      type: 'bool',
      must: [query],
      filter: [acme],
      should: [],
      mustNot: [],
      boost: 1,
    });
  });
});
